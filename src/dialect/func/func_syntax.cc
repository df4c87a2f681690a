// The pretty forms of func.func, func.return and func.call.
#include <string>

#include "shardkit/asm/op_syntax.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/asm/builtin_syntax.h"

namespace shardkit {
namespace {

// `(t {attrs}, ...)`: the arguments of a declaration, without names.
absl::Status parseUnnamedArguments(OpReader& r, OpName name,
                                   std::vector<ParsedArgument>& args) {
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLParen, "'('"));
  do {
    ParsedArgument arg;
    arg.offset = r.p().tok().offset;
    SK_ASSIGN_OR_RETURN(arg.type, r.parseType());
    if (r.p().at(TokenKind::kLBrace)) {
      OperationState attrs(name);
      SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(attrs));
      for (const AttrDict* dict :
           {&attrs.inherent_attrs, &attrs.discardable_attrs}) {
        for (const NamedAttribute& e : *dict) arg.attrs.set(e.name, e.value);
      }
    }
    args.push_back(std::move(arg));
  } while (r.p().consumeIf(TokenKind::kComma));
  return r.p().expect(TokenKind::kRParen, "')'");
}

// `@name(%a: t {attrs}, ...) [-> t | -> (t {attrs}, ...)] [attributes {...}]
//  [{ body }]`, after an optional visibility keyword.
absl::StatusOr<Op> parseFunc(OpReader& r, OpName name) {
  OperationState state(name);
  for (std::string_view visibility : {"private", "public", "nested"}) {
    if (r.p().consumeKeywordIf(visibility)) {
      // Kept even when "public": MLIR prints the keyword back when written.
      state.addAttr("sym_visibility",
                    Attribute::string(std::string(visibility)));
      break;
    }
  }
  SK_ASSIGN_OR_RETURN(std::string sym_name,
                      r.parseSymbolName("function name '@name'"));
  state.addAttr("sym_name", Attribute::string(std::move(sym_name)));
  std::vector<ParsedArgument> args;
  // A declaration may list bare types: `@f(tensor<2xf32> {attrs}, ...)`.
  bool unnamed = r.p().at(TokenKind::kLParen) &&
                 r.p().lexer().peek().kind != TokenKind::kPercentIdent &&
                 r.p().lexer().peek().kind != TokenKind::kRParen;
  if (unnamed) {
    SK_RETURN_IF_ERROR(parseUnnamedArguments(r, name, args));
  } else {
    SK_RETURN_IF_ERROR(r.parseArgumentList(args, /*allow_attrs=*/true));
  }
  std::vector<Type> inputs;
  std::vector<Attribute> arg_attrs;
  bool any_arg_attrs = false;
  for (const ParsedArgument& a : args) {
    inputs.push_back(a.type);
    arg_attrs.push_back(Attribute::dict(
        std::vector<NamedAttribute>(a.attrs.begin(), a.attrs.end())));
    any_arg_attrs = any_arg_attrs || !a.attrs.empty();
  }
  std::vector<Type> results;
  std::vector<Attribute> res_attrs;
  bool any_res_attrs = false;
  if (r.p().consumeIf(TokenKind::kArrow)) {
    if (r.p().consumeIf(TokenKind::kLParen)) {
      if (!r.p().consumeIf(TokenKind::kRParen)) {
        do {
          SK_ASSIGN_OR_RETURN(Type t, r.parseType());
          results.push_back(t);
          OperationState attrs(name);
          if (r.p().at(TokenKind::kLBrace)) {
            SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(attrs));
          }
          std::vector<NamedAttribute> entries(attrs.discardable_attrs.begin(),
                                              attrs.discardable_attrs.end());
          for (const NamedAttribute& e : attrs.inherent_attrs)
            entries.push_back(e);
          any_res_attrs = any_res_attrs || !entries.empty();
          res_attrs.push_back(Attribute::dict(std::move(entries)));
        } while (r.p().consumeIf(TokenKind::kComma));
        SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kRParen, "')'"));
      }
    } else {
      SK_ASSIGN_OR_RETURN(Type t, r.parseType());
      results.push_back(t);
      res_attrs.push_back(Attribute::dict({}));
    }
  }
  state.addAttr("function_type",
                Attribute::type(r.module().types().function(inputs, results)));
  if (any_arg_attrs)
    state.addAttr("arg_attrs", Attribute::array(std::move(arg_attrs)));
  if (any_res_attrs)
    state.addAttr("res_attrs", Attribute::array(std::move(res_attrs)));
  if (r.p().consumeKeywordIf("attributes")) {
    if (!r.p().at(TokenKind::kLBrace)) return r.p().errorExpected("'{'");
    SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  }
  state.num_regions = 1;
  if (unnamed && r.p().at(TokenKind::kLBrace)) {
    return r.p().error("a function with a body needs named arguments");
  }
  Op op = r.createOp(state);
  if (r.p().at(TokenKind::kLBrace)) {
    SK_RETURN_IF_ERROR(r.parseRegion(op.region(0), args, /*isolated=*/true));
  }
  return op;
}

void printArgOrResultAttrs(OpWriter& w, const AttrDict& attrs) {
  if (attrs.empty()) return;
  w << " ";
  appendAttrDict(w.out(), attrs.entries());
}

bool printFunc(OpWriter& w, Op op) {
  FuncOp func(op);
  if (op.name().empty() || !op.attr("function_type").asType() ||
      !op.attr("sym_name").asString() || op.numOperands() != 0 ||
      op.numResults() != 0 || op.numRegions() != 1) {
    return false;
  }
  w << "func.func ";
  if (op.attr("sym_visibility").asString()) w << func.visibility() << " ";
  appendSymbolRef(w.out(), func.name());
  w << "(";
  std::vector<Type> inputs = func.argumentTypes();
  Block body = func.body();
  if (body && body.numArguments() != inputs.size()) return false;
  for (unsigned i = 0; i < inputs.size(); ++i) {
    if (i) w << ", ";
    if (body) {
      w.printOperand(body.argument(i));
      w << ": ";
    }
    w.printType(inputs[i]);
    printArgOrResultAttrs(w, func.argAttrList().dict(i));
  }
  w << ")";
  std::vector<Type> results = func.resultTypes();
  bool any_res_attrs = false;
  for (unsigned i = 0; i < results.size(); ++i) {
    any_res_attrs = any_res_attrs || !func.resultAttrList().dict(i).empty();
  }
  if (results.size() == 1 && !any_res_attrs &&
      results[0].kind() != TypeKind::kFunction) {
    w << " -> ";
    w.printType(results[0]);
  } else if (!results.empty()) {
    w << " -> (";
    for (unsigned i = 0; i < results.size(); ++i) {
      if (i) w << ", ";
      w.printType(results[i]);
      printArgOrResultAttrs(w, func.resultAttrList().dict(i));
    }
    w << ")";
  }
  std::vector<NamedAttribute> extra;
  for (const AttrDict* dict : {&op.inherentAttrs(), &op.discardableAttrs()}) {
    for (const NamedAttribute& a : *dict) {
      if (a.name != "sym_name" && a.name != "function_type" &&
          a.name != "sym_visibility" && a.name != "arg_attrs" &&
          a.name != "res_attrs") {
        extra.push_back(a);
      }
    }
  }
  if (!extra.empty()) {
    std::stable_sort(extra.begin(), extra.end(),
                     [](const NamedAttribute& a, const NamedAttribute& b) {
                       return a.name < b.name;
                     });
    w << " attributes ";
    appendAttrDict(w.out(), extra);
  }
  if (body) {
    w << " ";
    w.printRegion(op.region(0), /*print_entry_args=*/false);
  }
  return true;
}

// Whether `op` sits directly in a func.func, whose default dialect lets
// `func.` be left out.
bool inFunc(Op op) {
  Op parent = op.parentOp();
  return isa<FuncOp>(parent);
}

bool printFuncReturn(OpWriter& w, Op op) {
  return printReturnLikeOp(w, op, inFunc(op) ? "return" : "func.return");
}

bool printCall(OpWriter& w, Op op) {
  return printCallLikeOp(w, op, inFunc(op) ? "call" : "func.call");
}

}  // namespace

void ir_internal::addFuncSyntax(ir_internal::SyntaxTable& table) {
  table[FuncOp::kName] = {parseFunc, printFunc};
  table[func::ReturnOp::kName] = {parseReturnLikeOp, printFuncReturn};
  table[func::CallOp::kName] = {parseCallLikeOp, printCall};
  table[arith::ConstantOp::kName] = {parseConstantLikeOp, printConstantLikeOp};
}

absl::Status parseCallTail(OpReader& r, OperationState& state) {
  SK_ASSIGN_OR_RETURN(std::string callee, r.parseSymbolName("callee '@name'"));
  state.addAttr("callee", Attribute::symbolRef(std::move(callee)));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLParen, "'('"));
  SK_RETURN_IF_ERROR(r.parseOperandList(state.operands));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kRParen, "')'"));
  return r.parseAttrsAndFunctionalType(state);
}

absl::StatusOr<Op> parseCallLikeOp(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(parseCallTail(r, state));
  return r.createOp(state);
}

bool printCallTail(OpWriter& w, Op op,
                   std::initializer_list<std::string_view> elided) {
  const std::string* callee = op.attr("callee").asSymbolRef();
  if (!callee || op.numRegions() != 0) return false;
  appendSymbolRef(w.out(), *callee);
  w << "(";
  w.printOperands(op);
  w << ")";
  w.printAttrsAndFunctionalType(op, elided);
  return true;
}

bool printCallLikeOp(OpWriter& w, Op op, std::string_view printed_name) {
  if (!op.attr("callee").asSymbolRef() || op.numRegions() != 0) return false;
  w << printed_name << " ";
  return printCallTail(w, op, {"callee"});
}

}  // namespace shardkit
