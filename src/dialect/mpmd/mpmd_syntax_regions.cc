// The pretty forms of the mpmd ops with a region or a callee: fragment,
// fragment_call, named_computation and for.
//
//   mpmd.fragment<mesh="m", origin=["a", "b"(1)], stage=N, in_shardings=[...],
//     out_shardings=[...]> (%operands) attr-dict (%args: types) { body }
//     : (types) -> types
//   mpmd.fragment_call<mesh="m", origin=[]> @f(%x) attr-dict : (ts) -> ts
//   mpmd.named_computation<"name"(N)> (%x) attr-dict (%args) { ... } : ...
//   mpmd.for (%x) attr-dict (%args, %index) { ... } : types
#include <optional>
#include <string>
#include <vector>

#include "shardkit/asm/op_syntax.h"
#include "shardkit/dialect/mpmd/mpmd_attrs.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/dialect/mpmd/mpmd_syntax_internal.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

// `[<@m, [...]>, ...]`: a sharding per value without its
// `#sdy.sharding_per_value<` wrapper, as the mpmd and sdy op forms print it.
std::string strippedShardings(const TensorShardingPerValue& shardings) {
  std::string text = toString(shardings);
  return text.substr(1, text.size() - 2);
}

// `mesh="m", origin=[...]` into `state`.
absl::Status parseMeshAndOrigin(OpReader& r, OperationState& state) {
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
      SK_ASSIGN_OR_RETURN(UserOrigin origin, parseShortUserOrigin(r.p()));
      origins.push_back(userOriginAttr(origin));
    } while (r.p().consumeIf(TokenKind::kComma));
    SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kRSquare, "']'"));
  }
  state.addAttr("origin", Attribute::array(std::move(origins)));
  return absl::OkStatus();
}

// `mesh="m", origin=[...]`, or nullopt when the attributes cannot be printed
// in this form.
std::optional<std::string> meshAndOrigin(Op op) {
  const std::string* mesh = op.attr("mesh_name").asString();
  const std::vector<Attribute>* origins = op.attr("origin").asArray();
  if (!mesh || !origins) return std::nullopt;
  std::string text = strCat("mesh=", quotedString(*mesh), ", origin=[");
  for (size_t i = 0; i < origins->size(); ++i) {
    std::optional<UserOrigin> origin = userOriginOf((*origins)[i]);
    if (!origin) return std::nullopt;
    strAppend(text, i ? ", " : "", shortUserOrigin(*origin));
  }
  return text + "]";
}

// `(%operands) attr-dict (%args: types) { body }` into `state` and `args`;
// returns where the region starts (read once the op exists).
absl::StatusOr<size_t> parseOperandsArgsAndRegion(
    OpReader& r, OperationState& state, std::vector<ParsedArgument>& args) {
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLParen, "'('"));
  SK_RETURN_IF_ERROR(r.parseOperandList(state.operands));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kRParen, "')'"));
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  SK_RETURN_IF_ERROR(r.parseArgumentList(args, /*allow_attrs=*/false));
  return r.skipRegion();
}

// Creates the op of `state` with one region, the one skipped at `region`
// whose entry block has the arguments `args` (an empty list still opens the
// entry block); `isolated` as for OpReader::parseRegionAt.
absl::StatusOr<Op> createWithRegion(OpReader& r, OperationState& state,
                                    size_t region,
                                    const std::vector<ParsedArgument>& args,
                                    bool isolated) {
  state.num_regions = 1;
  Op op = r.createOp(state);
  SK_RETURN_IF_ERROR(r.parseRegionAt(region, op.region(0), args, isolated));
  if (op.region(0).empty()) op.region(0).addBlock();
  return op;
}

// `(%operands) attr-dict (%args: types) { body } : (types) -> types` after
// the op's header, into `state` with one region.
absl::StatusOr<Op> parseSingleBlockRegionOp(OpReader& r,
                                            OperationState& state) {
  std::vector<ParsedArgument> args;
  SK_ASSIGN_OR_RETURN(size_t region,
                      parseOperandsArgsAndRegion(r, state, args));
  SK_RETURN_IF_ERROR(r.parseTrailingFunctionalType(state));
  return createWithRegion(r, state, region, args, /*isolated=*/true);
}

void printSingleBlockRegionOp(OpWriter& w, Op op,
                              std::initializer_list<std::string_view> elided) {
  w << " (";
  w.printOperands(op);
  w << ")";
  w.printAttrDict(op, elided);
  w << " ";
  w.printBlockArguments(op.region(0).front());
  w << " ";
  w.printRegion(op.region(0), /*print_entry_args=*/false);
  w << " : ";
  w.printFunctionalType(op);
}

bool hasSingleBlock(Op op) {
  return op.numRegions() == 1 && op.region(0).numBlocks() == 1;
}

// ---- fragment ----

absl::Status parseFragmentHeader(OpReader& r, OperationState& state) {
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLess, "'<'"));
  SK_RETURN_IF_ERROR(parseMeshAndOrigin(r, state));
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
      state.addAttr(keyword, Attribute::of(std::move(s)));
    }
  }
  return r.p().expect(TokenKind::kGreater, "'>'");
}

absl::StatusOr<Op> parseFragment(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(parseFragmentHeader(r, state));
  return parseSingleBlockRegionOp(r, state);
}

bool printFragment(OpWriter& w, Op op) {
  std::optional<std::string> header = meshAndOrigin(op);
  if (!header || !hasSingleBlock(op)) return false;
  const Attribute& stage = op.attr("stage_id");
  if (stage) {
    if (!stage.intValue()) return false;
    strAppend(*header, ", stage=", *stage.intValue());
  }
  for (std::string_view keyword : {"in_shardings", "out_shardings"}) {
    const Attribute& attr = op.attr(keyword);
    if (!attr) continue;
    const TensorShardingPerValue* s = attr.as<TensorShardingPerValue>();
    if (!s) return false;
    strAppend(*header, ", ", keyword, "=", strippedShardings(*s));
  }
  w << "mpmd.fragment<" << *header << ">";
  printSingleBlockRegionOp(
      w, op,
      {"mesh_name", "origin", "stage_id", "in_shardings", "out_shardings"});
  return true;
}

// ---- fragment_call ----

absl::StatusOr<Op> parseFragmentCall(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLess, "'<'"));
  SK_RETURN_IF_ERROR(parseMeshAndOrigin(r, state));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kGreater, "'>'"));
  SK_RETURN_IF_ERROR(parseCallTail(r, state));
  return r.createOp(state);
}

bool printFragmentCall(OpWriter& w, Op op) {
  std::optional<std::string> header = meshAndOrigin(op);
  if (!header || !op.attr("callee").asSymbolRef() || op.numRegions() != 0) {
    return false;
  }
  w << "mpmd.fragment_call<" << *header << "> ";
  return printCallTail(w, op, {"mesh_name", "origin", "callee"});
}

// ---- named_computation ----

absl::StatusOr<Op> parseNamedComputation(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLess, "'<'"));
  SK_ASSIGN_OR_RETURN(UserOrigin origin, parseShortUserOrigin(r.p()));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kGreater, "'>'"));
  state.addAttr("origin", userOriginAttr(origin));
  return parseSingleBlockRegionOp(r, state);
}

bool printNamedComputation(OpWriter& w, Op op) {
  std::optional<UserOrigin> origin = userOriginOf(op.attr("origin"));
  if (!origin || !hasSingleBlock(op)) return false;
  w << "mpmd.named_computation<" << shortUserOrigin(*origin) << ">";
  printSingleBlockRegionOp(w, op, {"name", "origin"});
  return true;
}

// ---- for ----

absl::StatusOr<Op> parseFor(OpReader& r, OpName name) {
  OperationState state(name);
  std::vector<ParsedArgument> args;
  SK_ASSIGN_OR_RETURN(size_t region,
                      parseOperandsArgsAndRegion(r, state, args));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kColon, "':'"));
  size_t offset = r.p().tok().offset;
  if (!state.operands.empty()) {
    SK_RETURN_IF_ERROR(r.parseTypeList(state.result_types));
  }
  SK_RETURN_IF_ERROR(
      r.checkOperandTypes(state.operands, state.result_types, offset));
  return createWithRegion(r, state, region, args, /*isolated=*/false);
}

bool printFor(OpWriter& w, Op op) {
  if (!hasSingleBlock(op)) return false;
  w << "mpmd.for (";
  w.printOperands(op);
  w << ")";
  w.printAttrDict(op, {});
  w << " ";
  w.printBlockArguments(op.region(0).front());
  w << " ";
  w.printRegion(op.region(0), /*print_entry_args=*/false);
  w << " : ";
  w.printTypes(op.resultTypes());
  return true;
}

// The loop index is `%index`.
void forBlockArgNames(Op op, Region region, std::vector<std::string>& names) {
  if (region.empty()) return;
  unsigned count = region.front().numArguments();
  if (count == 0) return;
  names.assign(count, "");
  names.back() = "index";
  (void)op;
}

}  // namespace

void registerRegionOpSyntaxes() {
  registerOpSyntax(FragmentOp::kName, {parseFragment, printFragment});
  registerOpSyntax(FragmentCallOp::kName,
                   {parseFragmentCall, printFragmentCall});
  registerOpSyntax(NamedComputationOp::kName,
                   {parseNamedComputation, printNamedComputation});
  registerOpSyntax(ForOp::kName,
                   {parseFor, printFor, nullptr, forBlockArgNames});
}

}  // namespace shardkit::mpmd::mpmd_internal
