// The StableHLO ops with regions or window syntax that have pretty forms:
// while, reduce, convolution.
#include <string>

#include "shardkit/dialect/stablehlo/stablehlo_attrs.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/dialect_attr_text.h"
#include "shardkit/text/stablehlo_attr_text.h"
#include "src/dialect/stablehlo/stablehlo_syntax_util.h"

namespace shardkit {
namespace {

using namespace hlo_syntax;  // NOLINT

// ---- while ----
// `(%iterArg = %a, ...) [: types] [attributes {...}] cond {...} do {...}`

absl::StatusOr<Op> parseWhile(OpReader& r, OpName name) {
  OperationState state(name);
  std::vector<ParsedArgument> args;
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLParen, "'('"));
  if (!r.p().consumeIf(TokenKind::kRParen)) {
    do {
      ParsedArgument arg;
      arg.offset = r.p().tok().offset;
      if (!r.p().at(TokenKind::kPercentIdent))
        return r.p().errorExpected("iteration argument");
      arg.name = r.p().tok().spelling;
      r.p().advance();
      SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kEqual, "'='"));
      SK_ASSIGN_OR_RETURN(Value v, r.parseOperand());
      state.operands.push_back(v);
      args.push_back(std::move(arg));
    } while (r.p().consumeIf(TokenKind::kComma));
    SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kRParen, "')'"));
  }
  if (!state.operands.empty()) {
    std::vector<Type> types;
    SK_RETURN_IF_ERROR(r.parseTrailingOperandTypes(state.operands, types));
    for (size_t i = 0; i < types.size(); ++i) args[i].type = types[i];
    state.result_types = types;
  }
  if (r.p().consumeKeywordIf("attributes")) {
    SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  }
  SK_RETURN_IF_ERROR(r.p().expectKeyword("cond"));
  SK_ASSIGN_OR_RETURN(size_t cond, r.skipRegion());
  SK_RETURN_IF_ERROR(r.p().expectKeyword("do"));
  SK_ASSIGN_OR_RETURN(size_t body, r.skipRegion());
  state.num_regions = 2;
  Op op = r.createOp(state);
  SK_RETURN_IF_ERROR(r.parseRegionAt(cond, op.region(0), args, false));
  SK_RETURN_IF_ERROR(r.parseRegionAt(body, op.region(1), args, false));
  return op;
}

bool printWhile(OpWriter& w, Op op) {
  if (op.numRegions() != 2) return false;
  for (unsigned i = 0; i < 2; ++i) {
    if (op.region(i).numBlocks() != 1 ||
        op.region(i).front().numArguments() != op.numOperands()) {
      return false;
    }
  }
  Block cond = op.region(0).front();
  w << "stablehlo.while(";
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    if (i) w << ", ";
    w.printOperand(cond.argument(i));
    w << " = ";
    w.printOperand(op.operand(i));
  }
  w << ")";
  if (op.numOperands()) {
    w << " : ";
    w.printTypes(op.operandTypes());
  }
  if (!op.discardableAttrs().empty() || !op.inherentAttrs().empty()) {
    w << " attributes";
    w.printAttrDict(op, {});
  }
  w.newline();
  w << " cond ";
  w.printRegion(op.region(0), false);
  w << " do ";
  w.printRegion(op.region(1), false);
  return true;
}

void whileArgNames(Op op, Region, std::vector<std::string>& names) {
  names.assign(op.numOperands(), "iterArg");
}

// ---- reduce ----

bool isCommutativeBinary(std::string_view name) {
  return name == "stablehlo.add" || name == "stablehlo.maximum" ||
         name == "stablehlo.minimum" || name == "stablehlo.multiply" ||
         name == "stablehlo.and" || name == "stablehlo.or" ||
         name == "stablehlo.xor";
}

// The op of the compact `applies <op>` form, or null when the body is not
// that simple.
Op compactReducer(Op reduce) {
  if (reduce.numRegions() != 1 || reduce.region(0).numBlocks() != 1)
    return Op();
  Block body = reduce.region(0).front();
  if (body.numOps() != 2 || body.numArguments() != 2 ||
      reduce.numOperands() != 2) {
    return Op();
  }
  Op inner = body.front();
  Op ret = body.back();
  if (!isCommutativeBinary(inner.name()) || inner.numOperands() != 2 ||
      inner.numResults() != 1 || inner.numRegions() != 0 ||
      !inner.discardableAttrs().empty() || !inner.inherentAttrs().empty()) {
    return Op();
  }
  if (inner.operand(0) != body.argument(0) ||
      inner.operand(1) != body.argument(1)) {
    return Op();
  }
  if (ret.name() != "stablehlo.return" || ret.numOperands() != 1 ||
      ret.operand(0) != inner.result(0)) {
    return Op();
  }
  Type scalar = inner.result(0).type();
  if (!scalar.isRankedTensor() || scalar.rank() != 0 ||
      scalar.elementType() != reduce.operand(0).type().elementType()) {
    return Op();
  }
  for (Value v : {inner.operand(0), inner.operand(1)}) {
    if (!(v.type() == scalar)) return Op();
  }
  return inner;
}

absl::StatusOr<Op> parseReduce(OpReader& r, OpName name) {
  OperationState state(name);
  std::vector<Value> inputs, inits;
  do {
    SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLParen, "'('"));
    SK_ASSIGN_OR_RETURN(Value in, r.parseOperand());
    SK_RETURN_IF_ERROR(r.p().expectKeyword("init"));
    SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kColon, "':'"));
    SK_ASSIGN_OR_RETURN(Value init, r.parseOperand());
    SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kRParen, "')'"));
    inputs.push_back(in);
    inits.push_back(init);
  } while (r.p().consumeIf(TokenKind::kComma));
  state.operands = inputs;
  state.operands.insert(state.operands.end(), inits.begin(), inits.end());
  std::string applies;
  if (r.p().consumeKeywordIf("applies")) {
    if (!r.p().at(TokenKind::kBareIdent))
      return r.p().errorExpected("reducer op name");
    applies = std::string(r.p().tok().spelling);
    if (!isCommutativeBinary(applies)) {
      return r.p().error(
          strCat("'", applies, "' cannot be used with 'applies'"));
    }
    r.p().advance();
  }
  SK_RETURN_IF_ERROR(r.p().expectKeyword("across"));
  SK_RETURN_IF_ERROR(r.p().expectKeyword("dimensions"));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kEqual, "'='"));
  SK_ASSIGN_OR_RETURN(Attribute dims, parseI64List(r));
  state.addAttr("dimensions", std::move(dims));
  SK_RETURN_IF_ERROR(r.parseAttrsAndFunctionalType(state));
  state.num_regions = 1;
  if (!applies.empty()) {
    if (inputs.size() != 1)
      return r.p().error("'applies' needs exactly one input");
    Op op = r.createOp(state);
    Module& m = r.module();
    Type scalar = m.types().rankedTensor({}, inputs[0].type().elementType());
    Block body = op.region(0).addBlock();
    Value lhs = body.addArgument(scalar);
    Value rhs = body.addArgument(scalar);
    OperationState inner(m.opName(applies));
    inner.operands = {lhs, rhs};
    inner.result_types = {scalar};
    inner.location = op.location();
    Op combine = m.createOp(inner);
    body.pushBack(combine);
    OperationState ret(m.opName("stablehlo.return"));
    ret.operands = {combine.result(0)};
    ret.location = op.location();
    body.pushBack(m.createOp(ret));
    return op;
  }
  SK_RETURN_IF_ERROR(r.p().expectKeyword("reducer"));
  std::vector<ParsedArgument> firsts, seconds;
  while (r.p().at(TokenKind::kLParen)) {
    std::vector<ParsedArgument> pair;
    SK_RETURN_IF_ERROR(r.parseArgumentList(pair, /*allow_attrs=*/false));
    if (pair.size() != 2)
      return r.p().error("expected a pair of reducer arguments");
    firsts.push_back(pair[0]);
    seconds.push_back(pair[1]);
  }
  std::vector<ParsedArgument> args = firsts;
  args.insert(args.end(), seconds.begin(), seconds.end());
  Op op = r.createOp(state);
  SK_RETURN_IF_ERROR(r.parseRegion(op.region(0), args, /*isolated=*/false));
  return op;
}

bool printReduce(OpWriter& w, Op op) {
  const std::vector<int64_t>* dims = i64ArrayOf(op.attr("dimensions"));
  unsigned n = op.numOperands() / 2;
  if (!dims || op.numOperands() % 2 != 0 || n == 0 || op.numRegions() != 1 ||
      op.region(0).numBlocks() != 1 ||
      op.region(0).front().numArguments() != 2 * n) {
    return false;
  }
  w << "stablehlo.reduce";
  for (unsigned i = 0; i < n; ++i) {
    if (i) w << ", ";
    w << "(";
    w.printOperand(op.operand(i));
    w << " init: ";
    w.printOperand(op.operand(n + i));
    w << ")";
  }
  if (Op inner = compactReducer(op)) {
    w << " applies " << inner.name();
  }
  w << " across dimensions = ";
  appendI64List(w.out(), *dims);
  w.printAttrsAndFunctionalType(op, {"dimensions"});
  if (compactReducer(op)) return true;
  w.newline();
  w << " reducer";
  Block body = op.region(0).front();
  for (unsigned i = 0; i < n; ++i) {
    w << "(";
    for (unsigned arg : {i, n + i}) {
      Value v = body.argument(arg);
      w.printOperand(v);
      w << ": ";
      w.printType(v.type());
      if (arg == i) w << ", ";
    }
    w << ") ";
  }
  w << " ";
  w.printRegion(op.region(0), false);
  return true;
}

// ---- convolution ----
// `(%lhs, %rhs) dim_numbers = [..]x[..]->[..], window = {...} attr-dict : f`

absl::Status parseWindow(OpReader& r, OperationState& state) {
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLBrace, "'{'"));
  if (r.p().consumeIf(TokenKind::kRBrace)) return absl::OkStatus();
  do {
    if (!r.p().at(TokenKind::kBareIdent))
      return r.p().errorExpected("window attribute");
    std::string key(r.p().tok().spelling);
    r.p().advance();
    SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kEqual, "'='"));
    if (key == "pad") {
      std::vector<int64_t> values;
      SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLSquare, "'['"));
      int64_t rows = 0;
      if (!r.p().consumeIf(TokenKind::kRSquare)) {
        do {
          SK_ASSIGN_OR_RETURN(Attribute row, parseI64List(r));
          std::vector<int64_t> pair = *row.intList();
          if (pair.size() != 2)
            return r.p().error("expected [low, high] padding pairs");
          values.insert(values.end(), pair.begin(), pair.end());
          ++rows;
        } while (r.p().consumeIf(TokenKind::kComma));
        SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kRSquare, "']'"));
      }
      std::string literal = "dense<";
      bool splat = !values.empty();
      for (int64_t v : values) splat = splat && v == values[0];
      if (splat) {
        strAppend(literal, values[0]);
      } else {
        literal += '[';
        for (int64_t row = 0; row < rows; ++row) {
          if (row) literal += ", ";
          strAppend(literal, "[", values[2 * row], ", ", values[2 * row + 1],
                    "]");
        }
        literal += ']';
      }
      literal += '>';
      state.addAttr("padding", Attribute::elements(
                                   literal, r.module().types().rankedTensor(
                                                {rows, 2}, "i64")));
    } else if (key == "reverse") {
      std::vector<int64_t> flags;
      SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLSquare, "'['"));
      if (!r.p().consumeIf(TokenKind::kRSquare)) {
        do {
          if (r.p().atKeyword("true") || r.p().atKeyword("false")) {
            flags.push_back(r.p().atKeyword("true"));
            r.p().advance();
          } else {
            SK_ASSIGN_OR_RETURN(int64_t v, r.p().parseInteger());
            flags.push_back(v != 0);
          }
        } while (r.p().consumeIf(TokenKind::kComma));
        SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kRSquare, "']'"));
      }
      state.addAttr("window_reversal",
                    Attribute::denseArray("i1", std::move(flags)));
    } else {
      std::string_view attr = key == "stride"       ? "window_strides"
                              : key == "lhs_dilate" ? "lhs_dilation"
                              : key == "rhs_dilate" ? "rhs_dilation"
                                                    : "";
      if (attr.empty())
        return r.p().error(strCat("unknown window attribute '", key, "'"));
      SK_ASSIGN_OR_RETURN(Attribute list, parseI64List(r));
      state.addAttr(attr, std::move(list));
    }
  } while (r.p().consumeIf(TokenKind::kComma));
  return r.p().expect(TokenKind::kRBrace, "'}'");
}

absl::StatusOr<Op> parseConvolution(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLParen, "'('"));
  SK_RETURN_IF_ERROR(r.parseOperandList(state.operands));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kRParen, "')'"));
  SK_RETURN_IF_ERROR(r.p().expectKeyword("dim_numbers"));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kEqual, "'='"));
  // The dimension numbers run up to `, window`; keep their text.
  size_t start = r.p().tok().offset;
  std::string text;
  while (!r.p().at(TokenKind::kEof) &&
         !(r.p().at(TokenKind::kComma) &&
           r.p().lexer().peek().isKeyword("window"))) {
    text += r.p().tok().spelling;
    if (r.p().at(TokenKind::kComma)) text += ' ';
    r.p().advance();
  }
  std::optional<ConvDimensionNumbers> dims = parseConvDimensionNumbers(text);
  if (!dims) {
    return r.p().errorAt(
        start, strCat("invalid convolution dimension numbers '", text, "'"));
  }
  state.addAttr("dimension_numbers", toAttribute(*dims));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kComma, "','"));
  SK_RETURN_IF_ERROR(r.p().expectKeyword("window"));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kEqual, "'='"));
  SK_RETURN_IF_ERROR(parseWindow(r, state));
  SK_RETURN_IF_ERROR(r.parseAttrsAndFunctionalType(state));
  return r.createOp(state);
}

// The values of an `Nx2` padding attribute, row-major.
std::optional<std::vector<int64_t>> paddingValues(const Attribute& attr) {
  const ElementsValue* e = attr.asElements();
  if (!e || e->type.rank() != 2) return std::nullopt;
  std::string_view literal = e->literal;
  if (!literal.starts_with("dense<") || !literal.ends_with(">"))
    return std::nullopt;
  std::string flat;
  for (char c : literal.substr(6, literal.size() - 7)) {
    if (c != '[' && c != ']') flat += c;
  }
  std::optional<std::vector<int64_t>> values =
      parseIntListText("[" + flat + "]");
  int64_t count = e->type.shape()[0] * e->type.shape()[1];
  if (values && values->size() == 1 && count > 1) {
    values->assign(count, (*values)[0]);
  }
  if (!values || static_cast<int64_t>(values->size()) != count)
    return std::nullopt;
  return values;
}

bool printConvolution(OpWriter& w, Op op) {
  std::optional<ConvDimensionNumbers> dims =
      getConvDimensionNumbers(op.attr("dimension_numbers"));
  if (!dims) return false;
  std::vector<std::string> window;
  // The window lists read back as `array<i64>` (and `array<i1>`): any other
  // attribute of those names needs the generic form.
  bool printable = true;
  auto list = [&](std::string_view attr, std::string_view key) {
    const Attribute& a = op.attr(attr);
    if (!a) return;
    std::optional<std::vector<int64_t>> v = a.i64ArrayValues();
    if (!v) printable = false;
    if (v) window.push_back(strCat(key, " = ", i64ListText(*v)));
  };
  list("window_strides", "stride");
  if (Attribute pad = op.attr("padding")) {
    std::optional<std::vector<int64_t>> values = paddingValues(pad);
    if (!values) return false;
    std::string text = "pad = [";
    for (size_t row = 0; row * 2 < values->size(); ++row) {
      if (row) text += ", ";
      strAppend(text, "[", (*values)[2 * row], ", ", (*values)[2 * row + 1],
                "]");
    }
    text += ']';
    window.push_back(text);
  }
  list("lhs_dilation", "lhs_dilate");
  list("rhs_dilation", "rhs_dilate");
  if (Attribute a = op.attr("window_reversal")) {
    const DenseArrayValue* rev = a.asDenseArray();
    if (rev == nullptr || rev->element_type != "i1") return false;
    std::string text = "reverse = [";
    for (size_t i = 0; i < rev->values.size(); ++i) {
      if (i) text += ", ";
      text += rev->values[i] ? "true" : "false";
    }
    text += ']';
    window.push_back(text);
  }
  if (!printable) return false;
  w << "stablehlo.convolution(";
  w.printOperands(op);
  w << ") dim_numbers = " << printConvDimensionNumbers(*dims) << ", window = {";
  for (size_t i = 0; i < window.size(); ++i) {
    if (i) w << ", ";
    w << window[i];
  }
  w << "}";
  w.printAttrsAndFunctionalType(
      op, {"dimension_numbers", "window_strides", "padding", "lhs_dilation",
           "rhs_dilation", "window_reversal"});
  return true;
}

}  // namespace

void ir_internal::addStablehloRegionSyntax(ir_internal::SyntaxTable& table) {
  table["stablehlo.while"] = {parseWhile, printWhile, nullptr, whileArgNames};
  table["stablehlo.reduce"] = {parseReduce, printReduce};
  table["stablehlo.convolution"] = {parseConvolution, printConvolution};
}

}  // namespace shardkit
