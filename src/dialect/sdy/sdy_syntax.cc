// The pretty forms of the sdy ops (the assembly formats of the reference's
// docs/sdy_dialect.md).
#include <initializer_list>
#include <string>
#include <string_view>

#include "shardkit/asm/op_syntax.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/asm/builtin_syntax.h"

namespace shardkit {
namespace {

// `attr-dict : type`, the end of the unary sdy ops (whose one result has the
// type of their one operand, already in `state`): creates the op.
absl::StatusOr<Op> finishUnaryOp(OpReader& r, OperationState& state) {
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kColon, "':'"));
  size_t offset = r.p().tok().offset;
  SK_ASSIGN_OR_RETURN(Type type, r.parseType());
  Value operand = state.operands.front();
  if (!(operand.type() == type)) {
    return r.p().errorAt(
        offset, strCat("type ", type.str(), " differs from the operand's type ",
                       operand.type().str()));
  }
  state.result_types.push_back(type);
  return r.createOp(state);
}

// What finishUnaryOp reads, after `%x` and `after`: the attributes but
// `elided`, and the type.
bool printUnaryOp(OpWriter& w, Op op, std::string_view after,
                  std::initializer_list<std::string_view> elided) {
  w.printUnaryForm(op, after, elided, op.result(0).type());
  return true;
}

absl::Status expectKeywordEquals(OpReader& r, std::string_view keyword) {
  SK_RETURN_IF_ERROR(r.p().expectKeyword(keyword));
  return r.p().expect(TokenKind::kEqual, "'='");
}

// Whether `op` has exactly these counts and no regions: a pretty form that
// spells only these must not be used for anything else (it would drop the
// rest, e.g. of an op read in generic form).
bool hasShape(Op op, unsigned operands, unsigned results) {
  return op.numOperands() == operands && op.numResults() == results &&
         op.numRegions() == 0;
}

// The `: type` forms also need the result to have the operand's type.
bool isUnaryWithSameType(Op op) {
  return hasShape(op, 1, 1) && op.operand(0).type() == op.result(0).type();
}

std::string_view reductionPrefix(Op op) {
  const std::string* kind = op.attr("reduction").asString();
  return kind ? std::string_view(*kind) : std::string_view();
}

// `[max] ` before a collective's axes.
absl::Status parseOptionalReduction(OpReader& r, OperationState& state) {
  for (std::string_view kind : {"max", "min", "sum"}) {
    if (r.p().consumeKeywordIf(kind)) {
      if (kind != "sum")
        state.addAttr("reduction", Attribute::string(std::string(kind)));
      break;
    }
  }
  return absl::OkStatus();
}

// ---- sdy.mesh ----

absl::StatusOr<Op> parseMeshOp(OpReader& r, OpName name) {
  OperationState state(name);
  SK_ASSIGN_OR_RETURN(std::string sym_name,
                      r.parseSymbolName("mesh name '@name'"));
  state.addAttr("sym_name", Attribute::string(std::move(sym_name)));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kEqual, "'='"));
  if (r.p().tok().kind == TokenKind::kHashIdent) {
    // The mesh spelled as a full attribute: `#sdy.mesh<...>`.
    size_t offset = r.p().tok().offset;
    SK_ASSIGN_OR_RETURN(Attribute mesh, r.parseAttribute());
    if (!mesh.as<Mesh>()) return r.p().errorAt(offset, "expected a mesh");
    state.addAttr("mesh", std::move(mesh));
  } else {
    absl::StatusOr<Mesh> mesh = r.sdy().parseMesh();
    if (!mesh.ok()) {
      // The reference parses the mesh in the op's custom parser, which names
      // the op in front of every error.
      std::string prefix = strCat("custom op '", name.str(), "' ");
      r.p().prefixExtraErrors(prefix);
      return absl::Status(
          mesh.status().code(),
          toAbsl(strCat(prefix, fromAbsl(mesh.status().message()))));
    }
    state.addAttr("mesh", Attribute::of(*std::move(mesh)));
  }
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  return r.createOp(state);
}

bool printMeshOp(OpWriter& w, Op op) {
  const std::string* sym = op.attr("sym_name").asString();
  const Mesh* mesh = op.attr("mesh").as<Mesh>();
  if (!sym || !mesh || !hasShape(op, 0, 0)) return false;
  w << "sdy.mesh ";
  appendSymbolRef(w.out(), *sym);
  w << " = " << toString(*mesh);
  w.printAttrDict(op, {"sym_name", "mesh"});
  return true;
}

// ---- sharding_constraint / reshard: `%x <sharding> attr-dict : type` ----

absl::StatusOr<Op> parseShardingOp(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOperandInto(state.operands));
  SK_ASSIGN_OR_RETURN(TensorSharding sharding, r.sdy().parseTensorSharding());
  state.addAttr("sharding", Attribute::of(std::move(sharding)));
  return finishUnaryOp(r, state);
}

bool printShardingOp(OpWriter& w, Op op) {
  const TensorSharding* s = op.attr("sharding").as<TensorSharding>();
  if (!s || !isUnaryWithSameType(op)) return false;
  return printUnaryOp(w, op, strCat(" ", toString(*s)), {"sharding"});
}

// ---- data_flow_edge: `%x [sharding=<...>] attr-dict : type` ----

absl::StatusOr<Op> parseDataFlowEdge(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOperandInto(state.operands));
  if (r.p().consumeKeywordIf("sharding")) {
    SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kEqual, "'='"));
    SK_ASSIGN_OR_RETURN(TensorSharding sharding, r.sdy().parseTensorSharding());
    state.addAttr("sharding", Attribute::of(std::move(sharding)));
  }
  return finishUnaryOp(r, state);
}

bool printDataFlowEdge(OpWriter& w, Op op) {
  if (!isUnaryWithSameType(op)) return false;
  const TensorSharding* s = op.attr("sharding").as<TensorSharding>();
  return printUnaryOp(w, op, s ? strCat(" sharding=", toString(*s)) : "",
                      {"sharding"});
}

// ---- func_data_flow_edge: `%x attr-dict : type` ----

absl::StatusOr<Op> parseFuncDataFlowEdge(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOperandInto(state.operands));
  return finishUnaryOp(r, state);
}

bool printFuncDataFlowEdge(OpWriter& w, Op op) {
  if (!isUnaryWithSameType(op)) return false;
  return printUnaryOp(w, op, "", {});
}

// ---- propagation_barrier: `%x allowed_direction=DIR attr-dict : type` ----

absl::StatusOr<Op> parseBarrier(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOperandInto(state.operands));
  SK_RETURN_IF_ERROR(expectKeywordEquals(r, "allowed_direction"));
  SK_ASSIGN_OR_RETURN(PropagationDirection d,
                      r.sdy().parsePropagationDirection());
  state.addAttr("allowed_direction", Attribute::of(d));
  return finishUnaryOp(r, state);
}

bool printBarrier(OpWriter& w, Op op) {
  const PropagationDirection* d =
      op.attr("allowed_direction").as<PropagationDirection>();
  if (!d || !isUnaryWithSameType(op)) return false;
  return printUnaryOp(w, op, strCat(" allowed_direction=", toString(*d)),
                      {"allowed_direction"});
}

// ---- sharding_group: `%x group_id=N attr-dict : type` (no results) ----

absl::StatusOr<Op> parseShardingGroup(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseOperandInto(state.operands));
  SK_RETURN_IF_ERROR(expectKeywordEquals(r, "group_id"));
  SK_ASSIGN_OR_RETURN(int64_t id, r.p().parseInteger("group id"));
  state.addAttr("group_id", Attribute::integer(id, "ui64"));
  SK_RETURN_IF_ERROR(r.parseOptionalAttrDict(state));
  SK_RETURN_IF_ERROR(r.parseTrailingOperandType(state.operands).status());
  return r.createOp(state);
}

bool printShardingGroup(OpWriter& w, Op op) {
  std::optional<int64_t> id = op.attr("group_id").intValue();
  if (!id || !hasShape(op, 1, 0)) return false;
  w.printUnaryForm(op, strCat(" group_id=", *id), {"group_id"},
                   op.operand(0).type());
  return true;
}

// ---- constant: `attr-dict value` (the value carries its type) ----

absl::StatusOr<Op> parseConstant(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseConstantForm(
      state, "expected an elements literal (dense<...> : type)"));
  return r.createOp(state);
}

bool printConstant(OpWriter& w, Op op) {
  const Attribute& value = op.attr("value");
  const ElementsValue* elements = value.asElements();
  if (!elements || !hasShape(op, 0, 1) ||
      !(elements->type == op.result(0).type())) {
    return false;
  }
  w.printConstantForm(op, op.name());
  return true;
}

// ---- return: `attr-dict [%a, %b : t1, t2]` ----

absl::StatusOr<Op> parseReturnLike(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.parseAttrDictAndOperands(state, /*one_operand=*/false));
  if (!state.operands.empty()) {
    std::vector<Type> types;
    SK_RETURN_IF_ERROR(r.parseTrailingOperandTypes(state.operands, types));
  }
  return r.createOp(state);
}

bool printReturnLike(OpWriter& w, Op op, std::string_view printed_name) {
  if (op.numResults() != 0 || op.numRegions() != 0) return false;
  w << printed_name;
  w.printAttrDict(op, {});
  if (op.numOperands() > 0) {
    w << " ";
    w.printOperands(op);
    w << " : ";
    w.printTypes(op.operandTypes());
  }
  return true;
}

bool printSdyReturn(OpWriter& w, Op op) {
  return printReturnLike(w, op, "sdy.return");
}

// ---- manual_computation ----

// What ends a manual or named computation:
// `(%arg0: t, ...) {body} attr-dict : (ins) -> outs`; creates the op.
absl::StatusOr<Op> parseComputationBody(OpReader& r, OperationState& state) {
  std::vector<ParsedArgument> args;
  SK_RETURN_IF_ERROR(r.parseArgumentList(args, /*allow_attrs=*/true));
  SK_ASSIGN_OR_RETURN(size_t region, r.skipRegion());
  SK_RETURN_IF_ERROR(r.parseAttrsAndFunctionalType(state));
  state.num_regions = 1;
  Op op = r.createOp(state);
  SK_RETURN_IF_ERROR(
      r.parseRegionAt(region, op.region(0), args, /*isolated=*/true));
  return op;
}

absl::StatusOr<Op> parseManualComputation(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLParen, "'('"));
  SK_RETURN_IF_ERROR(r.parseOperandList(state.operands));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kRParen, "')'"));
  SK_RETURN_IF_ERROR(expectKeywordEquals(r, "in_shardings"));
  SK_ASSIGN_OR_RETURN(TensorShardingPerValue in,
                      r.sdy().parseTensorShardingList());
  SK_RETURN_IF_ERROR(expectKeywordEquals(r, "out_shardings"));
  SK_ASSIGN_OR_RETURN(TensorShardingPerValue out,
                      r.sdy().parseTensorShardingList());
  SK_RETURN_IF_ERROR(expectKeywordEquals(r, "manual_axes"));
  SK_ASSIGN_OR_RETURN(ManualAxes axes, r.sdy().parseManualAxes());
  state.addAttr("in_shardings", Attribute::of(std::move(in)));
  state.addAttr("out_shardings", Attribute::of(std::move(out)));
  state.addAttr("manual_axes", Attribute::of(std::move(axes)));
  return parseComputationBody(r, state);
}

bool printManualComputation(OpWriter& w, Op op) {
  sdy::ManualComputationOp mc(op);
  if (!mc.hasAttributesAndBody()) return false;
  // The lists without the `<...>` of their attribute form.
  auto list = [](const TensorShardingPerValue& shardings) {
    std::string text = toString(shardings);
    return text.substr(1, text.size() - 2);
  };
  w << "sdy.manual_computation(";
  w.printOperands(op);
  w << ") in_shardings=" << list(mc.inShardings())
    << " out_shardings=" << list(mc.outShardings())
    << " manual_axes=" << toString(mc.manualAxes()) << " ";
  w.printBlockArguments(op.region(0).front());
  w << " ";
  w.printRegion(op.region(0), /*print_entry_args=*/false);
  w.printAttrsAndFunctionalType(
      op, {"in_shardings", "out_shardings", "manual_axes"});
  return true;
}

// ---- named_computation ----

absl::StatusOr<Op> parseNamedComputation(OpReader& r, OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLess, "'<'"));
  SK_ASSIGN_OR_RETURN(std::string computation,
                      r.p().parseString("computation name"));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kGreater, "'>'"));
  state.addAttr("name", Attribute::string(std::move(computation)));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kLParen, "'('"));
  SK_RETURN_IF_ERROR(r.parseOperandList(state.operands));
  SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kRParen, "')'"));
  for (std::string_view keyword : {"in_shardings", "out_shardings"}) {
    if (r.p().consumeKeywordIf(keyword)) {
      SK_RETURN_IF_ERROR(r.p().expect(TokenKind::kEqual, "'='"));
      SK_ASSIGN_OR_RETURN(TensorShardingPerValue s,
                          r.sdy().parseTensorShardingList());
      state.addAttr(keyword, Attribute::of(std::move(s)));
    }
  }
  return parseComputationBody(r, state);
}

bool printNamedComputation(OpWriter& w, Op op) {
  const std::string* name = op.attr("name").asString();
  if (!name || op.numRegions() != 1 || op.region(0).numBlocks() != 1)
    return false;
  std::string quoted;
  appendQuoted(quoted, *name);
  w << "sdy.named_computation<" << quoted << ">(";
  w.printOperands(op);
  w << ")";
  for (std::string_view keyword : {"in_shardings", "out_shardings"}) {
    if (const TensorShardingPerValue* s =
            op.attr(keyword).as<TensorShardingPerValue>()) {
      std::string text = toString(*s);
      w << " " << keyword << "="
        << std::string_view(text).substr(1, text.size() - 2);
    }
  }
  w << " ";
  w.printBlockArguments(op.region(0).front());
  w << " ";
  w.printRegion(op.region(0), /*print_entry_args=*/false);
  w.printAttrsAndFunctionalType(op, {"name", "in_shardings", "out_shardings"});
  return true;
}

// ---- collectives: `[kind] <axes> %x out_sharding=<...> attr-dict : type` ----

enum class AxesForm { kNone, kLists, kList, kParams };

struct CollectiveForm {
  std::string_view axes_attr;
  AxesForm form;
  bool has_reduction;
};

CollectiveForm collectiveForm(std::string_view name) {
  if (name == "sdy.all_gather")
    return {"gathering_axes", AxesForm::kLists, false};
  if (name == "sdy.all_slice") return {"slicing_axes", AxesForm::kLists, false};
  if (name == "sdy.all_reduce")
    return {"reduction_axes", AxesForm::kList, true};
  if (name == "sdy.reduce_scatter")
    return {"reduce_scatter_axes", AxesForm::kLists, true};
  if (name == "sdy.all_to_all") return {"params", AxesForm::kParams, false};
  if (name == "sdy.sharded_to_unreduced")
    return {"axes", AxesForm::kLists, false};
  if (name == "sdy.replicated_to_unreduced")
    return {"axes", AxesForm::kList, false};
  return {"", AxesForm::kNone, false};
}

absl::StatusOr<Op> parseCollective(OpReader& r, OpName name) {
  OperationState state(name);
  CollectiveForm form = collectiveForm(name.str());
  if (form.has_reduction) SK_RETURN_IF_ERROR(parseOptionalReduction(r, state));
  switch (form.form) {
    case AxesForm::kLists: {
      SK_ASSIGN_OR_RETURN(ListOfAxisRefLists lists,
                          r.sdy().parseListOfAxisRefLists());
      state.addAttr(form.axes_attr, Attribute::of(std::move(lists)));
      break;
    }
    case AxesForm::kList: {
      SK_ASSIGN_OR_RETURN(AxisRefVector axes, r.sdy().parseAxisRefList());
      state.addAttr(form.axes_attr,
                    Attribute::of(AxisRefList(std::move(axes))));
      break;
    }
    case AxesForm::kParams: {
      SK_ASSIGN_OR_RETURN(AllToAllParamList params,
                          r.sdy().parseAllToAllParamList());
      state.addAttr(form.axes_attr, Attribute::of(std::move(params)));
      break;
    }
    case AxesForm::kNone:
      break;
  }
  SK_RETURN_IF_ERROR(r.parseOperandInto(state.operands));
  SK_RETURN_IF_ERROR(expectKeywordEquals(r, "out_sharding"));
  SK_ASSIGN_OR_RETURN(TensorSharding out, r.sdy().parseTensorSharding());
  state.addAttr("out_sharding", Attribute::of(std::move(out)));
  return finishUnaryOp(r, state);
}

bool printCollective(OpWriter& w, Op op) {
  CollectiveForm form = collectiveForm(op.name());
  const TensorSharding* out = op.attr("out_sharding").as<TensorSharding>();
  if (!out || !isUnaryWithSameType(op)) return false;
  const Attribute& axes = op.attr(form.axes_attr);
  std::string axes_text;
  switch (form.form) {
    case AxesForm::kLists:
      if (!axes.as<ListOfAxisRefLists>()) return false;
      axes_text = toString(*axes.as<ListOfAxisRefLists>());
      break;
    case AxesForm::kList:
      if (!axes.as<AxisRefList>()) return false;
      axes_text = toString(*axes.as<AxisRefList>());
      break;
    case AxesForm::kParams:
      if (!axes.as<AllToAllParamList>()) return false;
      axes_text = toString(*axes.as<AllToAllParamList>());
      break;
    case AxesForm::kNone:
      break;
  }
  w << op.name() << " ";
  if (std::string_view kind = reductionPrefix(op); !kind.empty())
    w << kind << " ";
  if (!axes_text.empty()) w << axes_text << " ";
  w.printOperand(op.operand(0));
  w << " out_sharding=" << toString(*out);
  w.printAttrsAndType(op, {form.axes_attr, "out_sharding", "reduction"},
                      op.result(0).type());
  return true;
}

}  // namespace

void ir_internal::addSdySyntax(ir_internal::SyntaxTable& table) {
  using namespace sdy;  // NOLINT: the op kinds
  table[MeshOp::kName] = {parseMeshOp, printMeshOp};
  for (std::string_view name :
       {ShardingConstraintOp::kName, ReshardOp::kName}) {
    table[name] = {parseShardingOp, printShardingOp};
  }
  table[DataFlowEdgeOp::kName] = {parseDataFlowEdge, printDataFlowEdge};
  table[FuncDataFlowEdgeOp::kName] = {parseFuncDataFlowEdge,
                                      printFuncDataFlowEdge};
  table[PropagationBarrierOp::kName] = {parseBarrier, printBarrier};
  table[ShardingGroupOp::kName] = {parseShardingGroup, printShardingGroup};
  table[ConstantOp::kName] = {parseConstant, printConstant};
  table[ReturnOp::kName] = {parseReturnLike, printSdyReturn};
  table[ManualComputationOp::kName] = {parseManualComputation,
                                       printManualComputation};
  table[NamedComputationOp::kName] = {parseNamedComputation,
                                      printNamedComputation};
  for (std::string_view name :
       {AllGatherOp::kName, AllSliceOp::kName, AllReduceOp::kName,
        ReduceScatterOp::kName, AllToAllOp::kName, CollectivePermuteOp::kName,
        ShardedToUnreducedOp::kName, ReplicatedToUnreducedOp::kName}) {
    table[name] = {parseCollective, printCollective};
  }
}

// Shared with other dialects' constants.
absl::StatusOr<Op> parseConstantLikeOp(OpReader& r, OpName name) {
  return parseConstant(r, name);
}
bool printConstantLikeOp(OpWriter& w, Op op) { return printConstant(w, op); }

// Shared with other dialects' return-like ops.
absl::StatusOr<Op> parseReturnLikeOp(OpReader& r, OpName name) {
  return parseReturnLike(r, name);
}
bool printReturnLikeOp(OpWriter& w, Op op, std::string_view printed_name) {
  return printReturnLike(w, op, printed_name);
}

}  // namespace shardkit
