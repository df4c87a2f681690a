// The pretty forms of the mpmd ops (the assembly formats of the reference's
// mpmd dialect, openxla/shardy docs/mpmd_dialect.md, and the fragment's custom
// form).
#include "shardkit/mpmd/syntax.h"

#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "shardkit/core/status_macros.h"
#include "shardkit/core/strings.h"
#include "shardkit/ir/op_name.h"
#include "shardkit/ir/op_syntax.h"
#include "shardkit/text/parser_base.h"

namespace shardkit {
namespace {

constexpr std::string_view kUserOriginPrefix = "#mpmd.user_origin<";
constexpr std::string_view kReductionPrefix = "#mpmd.reduction<";

std::string quoted(std::string_view s) {
  std::string out;
  appendQuoted(out, s);
  return out;
}

// The text between `prefix` and the final '>' of an opaque attribute, or
// nullopt when `attr` is not such an attribute.
std::optional<std::string_view> opaqueBody(const Attribute& attr,
                                           std::string_view prefix) {
  const std::string* text = attr.asOpaque();
  if (!text || !text->starts_with(prefix) || !text->ends_with(">"))
    return std::nullopt;
  std::string_view body(*text);
  return body.substr(prefix.size(), body.size() - prefix.size() - 1);
}

// The short form `"name"` or `"name"(N)` of a `#mpmd.user_origin<...>` body
// (re-spelled canonically), or nullopt when the body is not one.
std::optional<std::string> shortUserOrigin(std::string_view body) {
  ParserBase p(body);
  absl::StatusOr<std::string> name = p.parseString();
  if (!name.ok()) return std::nullopt;
  int64_t transpose_count = 0;
  if (p.consumeIf(TokenKind::kLParen)) {
    absl::StatusOr<int64_t> count = p.parseInteger();
    if (!count.ok() || !p.consumeIf(TokenKind::kRParen)) return std::nullopt;
    transpose_count = *count;
  }
  if (!p.at(TokenKind::kEof)) return std::nullopt;
  std::string text = quoted(*name);
  if (transpose_count > 0) strAppend(text, "(", transpose_count, ")");
  return text;
}

// `[<@m, [...]>, ...]`: a sharding per value without its
// `#sdy.sharding_per_value<` wrapper, as the mpmd and sdy op forms print it.
std::string strippedShardings(const TensorShardingPerValue& shardings) {
  std::string text = toString(shardings);
  return text.substr(1, text.size() - 2);
}

// `attr-dict %x : (t) -> t` (transfer, assign, unassign).
absl::StatusOr<Op> parseUnaryFunctional(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  SK_ASSIGN_OR_RETURN(Value input, r.parseOperand());
  state.operands.push_back(input);
  SK_RETURN_IF_ERROR(r.parseTrailingFunctionalType(state));
  return r.createOp(state);
}

bool printUnaryFunctional(OpWriter& w, Op op) {
  if (op.numOperands() != 1 || op.numRegions() != 0) return false;
  w << op.name();
  w.printAttrDict(op, {});
  w << " ";
  w.printOperand(op.operand(0));
  w << " : ";
  w.printFunctionalType(op);
  return true;
}

// `attr-dict %x : t` with the result of the operand's type (broadcast).
absl::StatusOr<Op> parseBroadcast(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  SK_ASSIGN_OR_RETURN(Value input, r.parseOperand());
  state.operands.push_back(input);
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kColon, "':'"));
  size_t offset = r.p().tok().offset;
  SK_ASSIGN_OR_RETURN(Type type, r.parseType());
  SK_RETURN_IF_ERROR(r.checkOperandTypes(state.operands, {type}, offset));
  state.result_types.push_back(type);
  return r.createOp(state);
}

bool printBroadcast(OpWriter& w, Op op) {
  if (op.numOperands() != 1 || op.numResults() != 1 || op.numRegions() != 0 ||
      !(op.operand(0).type() == op.result(0).type())) {
    return false;
  }
  w << "mpmd.broadcast";
  w.printAttrDict(op, {});
  w << " ";
  w.printOperand(op.operand(0));
  w << " : ";
  w.printType(op.result(0).type());
  return true;
}

// `%x name="n" attr-dict : t` (named_tensor).
absl::StatusOr<Op> parseNamedTensor(OpReader& r, OpName name) {
  OperationState state(name);
  SK_ASSIGN_OR_RETURN(Value input, r.parseOperand());
  state.operands.push_back(input);
  SK_RETURN_IF_ERROR(r.p().expectKeyword("name"));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kEqual, "'='"));
  SK_ASSIGN_OR_RETURN(std::string tensor_name,
                      r.p().parseString("tensor name"));
  state.addAttr("name", Attribute::string(std::move(tensor_name)));
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kColon, "':'"));
  size_t offset = r.p().tok().offset;
  SK_ASSIGN_OR_RETURN(Type type, r.parseType());
  SK_RETURN_IF_ERROR(r.checkOperandTypes(state.operands, {type}, offset));
  state.result_types.push_back(type);
  return r.createOp(state);
}

bool printNamedTensor(OpWriter& w, Op op) {
  const std::string* tensor_name = op.attr("name").asString();
  if (!tensor_name || op.numOperands() != 1 || op.numResults() != 1 ||
      op.numRegions() != 0 || !(op.operand(0).type() == op.result(0).type())) {
    return false;
  }
  w << "mpmd.named_tensor ";
  w.printOperand(op.operand(0));
  w << " name=" << quoted(*tensor_name);
  w.printAttrDict(op, {"name"});
  w << " : ";
  w.printType(op.result(0).type());
  return true;
}

// `<kind> attr-dict %a, ... : (ts) -> t` (reduce).
absl::StatusOr<Op> parseReduce(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLess, "'<'"));
  if (!r.p().at(TokenKind::kBareIdent))
    return r.p().errorExpected("reduction kind");
  std::string kind(r.p().tok().spelling);
  r.p().advance();
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kGreater, "'>'"));
  state.addAttr("reduction",
                Attribute::opaque(strCat(kReductionPrefix, kind, ">")));
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  SK_RETURN_IF_ERROR(r.parseOperandList(state.operands));
  SK_RETURN_IF_ERROR(r.parseTrailingFunctionalType(state));
  return r.createOp(state);
}

bool printReduce(OpWriter& w, Op op) {
  std::optional<std::string_view> kind =
      opaqueBody(op.attr("reduction"), kReductionPrefix);
  if (!kind || !isBareIdentifier(*kind) || op.numRegions() != 0) return false;
  w << "mpmd.reduce<" << *kind << ">";
  w.printAttrDict(op, {"reduction"});
  w << " ";
  w.printOperands(op.operands());
  w << " : ";
  w.printFunctionalType(op);
  return true;
}

bool printCall(OpWriter& w, Op op) {
  return printCallLikeOp(w, op, "mpmd.call");
}

bool printReturn(OpWriter& w, Op op) {
  return printReturnLikeOp(w, op, "mpmd.return");
}

// ---- fragment ----
//
// mpmd.fragment<mesh="m", origin=["a", "b"(1)], stage=N, in_shardings=[...],
//   out_shardings=[...]> (%operands) attr-dict (%args: types) { body }
//   : (types) -> types

// `"name"` or `"name"(transpose_count)`.
absl::StatusOr<Attribute> parseUserOrigin(OpReader& r) {
  SK_ASSIGN_OR_RETURN(std::string user, r.p().parseString("origin name"));
  int64_t transpose_count = 0;
  if (r.p().consumeIf(TokenKind::kLParen)) {
    SK_ASSIGN_OR_RETURN(transpose_count, r.p().parseInteger("transpose count"));
    SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kRParen, "')'"));
  }
  std::string text = strCat(kUserOriginPrefix, quoted(user));
  if (transpose_count > 0) strAppend(text, "(", transpose_count, ")");
  return Attribute::opaque(text + ">");
}

absl::Status parseFragmentHeader(OpReader& r, OperationState& state) {
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLess, "'<'"));
  SK_RETURN_IF_ERROR(r.p().expectKeyword("mesh"));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kEqual, "'='"));
  SK_ASSIGN_OR_RETURN(std::string mesh, r.p().parseString("mesh name"));
  state.addAttr("mesh_name", Attribute::string(std::move(mesh)));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kComma, "','"));
  SK_RETURN_IF_ERROR(r.p().expectKeyword("origin"));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kEqual, "'='"));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLSquare, "'['"));
  std::vector<Attribute> origins;
  if (!r.p().consumeIf(TokenKind::kRSquare)) {
    do {
      SK_ASSIGN_OR_RETURN(Attribute origin, parseUserOrigin(r));
      origins.push_back(std::move(origin));
    } while (r.p().consumeIf(TokenKind::kComma));
    SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kRSquare, "']'"));
  }
  state.addAttr("origin", Attribute::array(std::move(origins)));
  // Optional entries, in this order.
  constexpr std::string_view kOptional[] = {"stage", "in_shardings",
                                            "out_shardings"};
  size_t next = 0;
  while (r.p().consumeIf(TokenKind::kComma)) {
    while (next < std::size(kOptional) && !r.p().atKeyword(kOptional[next]))
      ++next;
    if (next == std::size(kOptional)) {
      return r.p().errorExpected(
          "'stage', 'in_shardings' or 'out_shardings' (in this order)");
    }
    std::string_view keyword = kOptional[next++];
    r.p().advance();
    SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kEqual, "'='"));
    if (keyword == "stage") {
      SK_ASSIGN_OR_RETURN(int64_t stage, r.p().parseInteger("stage"));
      state.addAttr("stage_id", Attribute::integer(stage));
    } else {
      SK_ASSIGN_OR_RETURN(TensorShardingPerValue s,
                          r.sdy().parseTensorShardingList());
      state.addAttr(keyword, Attribute::tensorShardingPerValue(std::move(s)));
    }
  }
  return r.p().expect(TokenKind::kGreater, "'>'");
}

absl::StatusOr<Op> parseFragment(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(parseFragmentHeader(r, state));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLParen, "'('"));
  SK_RETURN_IF_ERROR(r.parseOperandList(state.operands));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kRParen, "')'"));
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  std::vector<ParsedArgument> args;
  SK_RETURN_IF_ERROR(r.parseArgumentList(args, /*allow_attrs=*/false));
  SK_ASSIGN_OR_RETURN(size_t region, r.skipRegion());
  SK_RETURN_IF_ERROR(r.parseTrailingFunctionalType(state));
  state.num_regions = 1;
  Op op = r.createOp(state);
  // An empty argument list still opens the entry block.
  SK_RETURN_IF_ERROR(
      r.parseRegionAt(region, op.region(0), args, /*isolated=*/true));
  if (op.region(0).empty()) op.region(0).addBlock();
  return op;
}

bool printFragment(OpWriter& w, Op op) {
  const std::string* mesh = op.attr("mesh_name").asString();
  const std::vector<Attribute>* origins = op.attr("origin").asArray();
  if (!mesh || !origins || op.numRegions() != 1 ||
      op.region(0).numBlocks() != 1) {
    return false;
  }
  std::string header =
      strCat("mpmd.fragment<mesh=", quoted(*mesh), ", origin=[");
  for (size_t i = 0; i < origins->size(); ++i) {
    std::optional<std::string_view> body =
        opaqueBody((*origins)[i], kUserOriginPrefix);
    std::optional<std::string> origin =
        body ? shortUserOrigin(*body) : std::nullopt;
    if (!origin) return false;
    strAppend(header, i ? ", " : "", *origin);
  }
  header += "]";
  const Attribute& stage = op.attr("stage_id");
  if (stage) {
    if (!stage.intValue()) return false;
    strAppend(header, ", stage=", *stage.intValue());
  }
  for (std::string_view keyword : {"in_shardings", "out_shardings"}) {
    const Attribute& attr = op.attr(keyword);
    if (!attr) continue;
    const TensorShardingPerValue* s = attr.asTensorShardingPerValue();
    if (!s) return false;
    strAppend(header, ", ", keyword, "=", strippedShardings(*s));
  }
  w << header << "> (";
  w.printOperands(op.operands());
  w << ")";
  w.printAttrDict(
      op, {"mesh_name", "origin", "stage_id", "in_shardings", "out_shardings"});
  w << " ";
  w.printBlockArguments(op.region(0).front());
  w << " ";
  w.printRegion(op.region(0), /*print_entry_args=*/false);
  w << " : ";
  w.printFunctionalType(op);
  return true;
}

void registerOps() {
  struct Kind {
    const char* name;
    std::vector<std::string> inherent;
    OpTraits traits;
  };
  const Kind kinds[] = {
      {"mpmd.fragment",
       {"origin", "mesh_name", "stage_id", "in_shardings", "out_shardings"},
       OpTrait::kIsolatedFromAbove},
      {"mpmd.return", {}, OpTrait::kTerminator},
      {"mpmd.transfer", {}, {}},
      {"mpmd.assign", {"origin"}, {}},
      {"mpmd.unassign", {"origin"}, {}},
      {"mpmd.broadcast", {}, {}},
      {"mpmd.reduce", {"reduction"}, {}},
      {"mpmd.call", {"callee"}, {}},
      {"mpmd.named_tensor", {"name"}, {}},
  };
  for (const Kind& kind : kinds) {
    OpInfo info;
    info.inherent_attrs = kind.inherent;
    info.traits = kind.traits;
    registerOpInfo(kind.name, std::move(info));
  }
  registerOpSyntax("mpmd.fragment", {parseFragment, printFragment});
  registerOpSyntax("mpmd.return", {parseReturnLikeOp, printReturn});
  for (const char* name : {"mpmd.transfer", "mpmd.assign", "mpmd.unassign"}) {
    registerOpSyntax(name, {parseUnaryFunctional, printUnaryFunctional});
  }
  registerOpSyntax("mpmd.broadcast", {parseBroadcast, printBroadcast});
  registerOpSyntax("mpmd.reduce", {parseReduce, printReduce});
  registerOpSyntax("mpmd.call", {parseCallLikeOp, printCall});
  registerOpSyntax("mpmd.named_tensor", {parseNamedTensor, printNamedTensor});
}

}  // namespace

void registerMpmdSyntax() {
  static std::once_flag once;
  std::call_once(once, registerOps);
}

}  // namespace shardkit
