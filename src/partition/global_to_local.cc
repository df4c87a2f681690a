// -sdy-convert-global-to-local: the driver (snapshot, the walk in pre-order,
// the dispatch by op kind) and the helpers the handlers share.
#include "src/partition/global_to_local.h"

#include <cstdlib>
#include <string>
#include <utility>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/walk.h"
#include "shardkit/partition/device_groups.h"
#include "shardkit/partition/local_shape.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit::partition {
namespace {

// Whether `value` is defined by a stablehlo.constant whose value is a splat
// zero (integer or float): what the reference's nonPadOrPadWithZero accepts.
bool isSplatZeroConstant(Value value) {
  Op def = value.definingOp();
  if (!isa<stablehlo::ConstantOp>(def)) return false;
  const ElementsValue* elements = def.attr("value").asElements();
  if (elements == nullptr) return false;
  std::string_view text = elements->literal;
  if (!text.starts_with("dense<") || !text.ends_with(">")) return false;
  text = text.substr(6, text.size() - 7);
  if (text.empty() || text.find_first_of("[(\"") != std::string_view::npos) {
    return false;
  }
  if (text == "false") return true;
  if (text == "true") return false;
  std::string number(text);
  char* end = nullptr;
  double v = std::strtod(number.c_str(), &end);
  return end != nullptr && *end == '\0' && v == 0;
}

// The handle of a `#stablehlo.channel_handle<handle = N, ...>`, or 0.
int64_t channelHandleOf(const Attribute& attr) {
  const std::string* text = attr.asOpaque();
  if (text == nullptr || !text->starts_with("#stablehlo.channel_handle<")) {
    return 0;
  }
  size_t at = text->find("handle = ");
  if (at == std::string::npos) return 0;
  return std::strtoll(text->c_str() + at + 9, nullptr, 10);
}

// The dialects sdy_opt registers besides StableHLO: their ops are converted
// only by their own handlers. Ops of other dialects are unregistered there
// and get their local types like StableHLO ops.
bool isRegisteredNonStablehloDialect(std::string_view dialect) {
  return dialect == "sdy" || dialect == "func" || dialect == "tensor" ||
         dialect == "quant" || dialect == "builtin";
}

// Whether the sharding of block argument `arg` is one the reference reads:
// an argument of a function or of a named or manual computation's body.
bool hasArgumentSharding(Value arg) {
  Op owner = arg.ownerBlock().parentOp();
  return isa<FuncOp, sdy::ManualComputationOp, sdy::NamedComputationOp>(owner);
}

}  // namespace

bool shardsNoDimension(const TensorSharding* sharding) {
  if (sharding == nullptr) return true;
  for (const DimensionSharding& dim : sharding->dim_shardings) {
    if (!dim.axes.empty()) return false;
  }
  return true;
}

absl::Span<const AxisRef> dimAxes(const TensorSharding* sharding, int64_t dim) {
  if (sharding == nullptr || dim < 0 || dim >= sharding->rank()) return {};
  return sharding->dim_shardings[dim].axes;
}

std::string axesText(absl::Span<const AxisRef> axes) {
  std::string out = "[";
  for (size_t i = 0; i < axes.size(); ++i) {
    if (i) out += ", ";
    appendTo(out, axes[i]);
  }
  out += "]";
  return out;
}

GlobalToLocal::GlobalToLocal(Module& module,
                             const ConvertGlobalToLocalOptions& options)
    : module_(module), options_(options), meshes_(module.meshTable()) {}

absl::Status GlobalToLocal::snapshot() {
  ir_internal::collectPreOrder(module_.body(), ops_);
  global_types_.assign(module_.valueIdBound(), Type());
  operand_begin_.reserve(ops_.size() + 1);
  auto record = [&](Value v, bool with_sharding) {
    global_types_[v.id()] = v.type();
    if (!with_sharding) return;
    if (std::optional<TensorSharding> s = getSharding(v)) {
      shardings_.emplace(v.id(), std::move(*s));
    }
  };
  for (Op op : ops_) {
    operand_begin_.push_back(static_cast<uint32_t>(operand_ids_.size()));
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      operand_ids_.push_back(op.operand(i).id());
    }
    for (unsigned i = 0; i < op.numResults(); ++i) record(op.result(i), true);
    forEachBlock(op, [&](Block block) {
      for (unsigned i = 0; i < block.numArguments(); ++i) {
        Value arg = block.argument(i);
        record(arg, hasArgumentSharding(arg));
      }
    });
    if (isa<stablehlo::PadOp>(op) && op.numOperands() == 2 &&
        !isSplatZeroConstant(op.operand(1))) {
      nonzero_pads_.insert(op.result(0).id());
    }
    next_channel_id_ = std::max(next_channel_id_,
                                channelHandleOf(op.attr("channel_handle")) + 1);
  }
  operand_begin_.push_back(static_cast<uint32_t>(operand_ids_.size()));
  return absl::OkStatus();
}

absl::Status GlobalToLocal::run() {
  if (options_.replica_count > 1 && options_.partition_count > 1) {
    Diagnostic d;
    d.location.file = module_.file_name;
    d.location.line = 1;
    d.location.col = 1;
    d.message =
        "Shardy partitioner convert_global_to_local does not support both "
        "replica_count > 1 and partition_count > 1 yet.";
    return diagnosticStatus(d);
  }
  SK_RETURN_IF_ERROR(snapshot());
  for (current_ = 0; current_ < ops_.size(); ++current_) {
    Op op = ops_[current_];
    if (op.isErased()) continue;
    SK_RETURN_IF_ERROR(convert(op));
  }
  return absl::OkStatus();
}

absl::Status GlobalToLocal::convert(Op op) {
  if (isa<sdy::MeshOp>(op)) return absl::OkStatus();
  // The sdy ops.
  if (isa<sdy::AllGatherOp>(op)) return convertAllGather(*this, op);
  if (isa<sdy::AllReduceOp>(op)) return convertAllReduce(*this, op);
  if (isa<sdy::AllSliceOp>(op)) return convertAllSlice(*this, op);
  if (isa<sdy::AllToAllOp>(op)) return convertAllToAll(*this, op);
  if (isa<sdy::CollectivePermuteOp>(op)) {
    return convertCollectivePermute(*this, op);
  }
  if (isa<sdy::ReduceScatterOp>(op)) return convertReduceScatter(*this, op);
  if (isa<sdy::ConstantOp>(op)) return convertSdyConstant(*this, op);
  if (isa<sdy::ManualComputationOp>(op)) {
    return convertManualComputation(*this, op);
  }
  if (isa<sdy::NamedComputationOp>(op)) {
    return convertNamedComputation(*this, op);
  }
  if (isa<sdy::ReturnOp>(op)) return localizeInPlace(op);
  // The func ops.
  if (isa<FuncOp>(op)) return convertFunc(*this, op);
  if (isa<func::ReturnOp>(op)) return convertFuncReturn(*this, op);
  if (isa<func::CallOp>(op)) return convertCall(*this, op);
  // The StableHLO ops whose indexing or attributes follow the shards.
  if (isa<stablehlo::ConcatenateOp>(op)) return convertConcatenate(*this, op);
  if (isa<stablehlo::ConvolutionOp>(op)) return convertConvolution(*this, op);
  if (isa<stablehlo::DotOp>(op)) return convertDot(*this, op);
  if (isa<stablehlo::DotGeneralOp>(op)) return convertDotGeneral(*this, op);
  if (isa<stablehlo::GatherOp>(op)) return convertGather(*this, op);
  if (isa<stablehlo::IotaOp>(op)) return convertIota(*this, op);
  if (isa<stablehlo::PadOp>(op)) return convertPad(*this, op);
  if (isa<stablehlo::ReduceWindowOp, stablehlo::SelectAndScatterOp>(op)) {
    return convertWindowed(*this, op);
  }
  if (isa<stablehlo::ScatterOp>(op)) return convertScatter(*this, op);
  if (isa<stablehlo::SliceOp>(op)) return convertSlice(*this, op);
  if (isRegisteredNonStablehloDialect(op.dialect())) return legalizeError(op);
  return localizeInPlace(op);
}

Value GlobalToLocal::originalOperand(unsigned i) const {
  return Value(&module_, operand_ids_[operand_begin_[current_] + i]);
}

unsigned GlobalToLocal::numOriginalOperands() const {
  return operand_begin_[current_ + 1] - operand_begin_[current_];
}

Type GlobalToLocal::globalType(Value original) const {
  if (original.id() < global_types_.size() && global_types_[original.id()]) {
    return global_types_[original.id()];
  }
  return original.type();
}

const TensorSharding* GlobalToLocal::sharding(Value original) const {
  auto it = shardings_.find(original.id());
  return it == shardings_.end() ? nullptr : &it->second;
}

const Mesh* GlobalToLocal::meshOf(const TensorSharding* sharding) const {
  return sharding == nullptr ? nullptr : meshes_.resolve(*sharding);
}

absl::StatusOr<Type> GlobalToLocal::localType(Value original) {
  const TensorSharding* s = sharding(original);
  Type global = globalType(original);
  Type local = partition::localType(types(), global, s, meshOf(s));
  if (!local) {
    Op at = original.isBlockArgument() ? original.ownerBlock().parentOp()
                                       : original.definingOp();
    return invariantError(
        at, "Failed to compute local type due to non-divisible sharding");
  }
  return local;
}

absl::StatusOr<std::vector<Type>> GlobalToLocal::localResultTypes(Op op) {
  std::vector<Type> types;
  for (unsigned i = 0; i < op.numResults(); ++i) {
    SK_ASSIGN_OR_RETURN(Type t, localType(op.result(i)));
    types.push_back(t);
  }
  return types;
}

Attribute GlobalToLocal::nextChannelHandle() {
  return Attribute::opaque(
      strCat("#stablehlo.channel_handle<handle = ", next_channel_id_++,
             ", type = ", kChannelHandleType, ">"));
}

GroupsAttr GlobalToLocal::replicaGroups(absl::Span<const AxisRef> axes,
                                        const Mesh& mesh,
                                        const MeshOrRef& mesh_ref) const {
  bool sub_axis = false;
  for (const AxisRef& axis : axes) sub_axis = sub_axis || axis.isSubAxis();
  if (options_.enable_rgv3 && !sub_axis) {
    std::string text = "#stablehlo.replica_group_mesh_axes<mesh = ";
    if (const Mesh* inline_mesh = mesh_ref.inlineMesh()) {
      text += "#sdy.mesh";
      appendTo(text, *inline_mesh);
    } else {
      appendSymbolRef(text, mesh_ref.name());
    }
    text += ", axes = [";
    for (size_t i = 0; i < axes.size(); ++i) {
      if (i) text += ", ";
      text += "#stablehlo.axis_ref<name = ";
      appendQuoted(text, axes[i].name);
      text += ">";
    }
    text += "]>";
    return {Attribute::opaque(std::move(text)), totalAxesSize(axes, mesh)};
  }
  partition::ReplicaGroups groups = partition::replicaGroups(axes, mesh);
  Type type = module_.types().rankedTensor(
      {groups.num_groups, groups.group_size}, "i64");
  return {Attribute::elements(denseIntLiteral(groups.ids, {groups.num_groups,
                                                           groups.group_size}),
                              type),
          groups.group_size};
}

absl::StatusOr<Value> GlobalToLocal::deviceId(HloEmitter& e) const {
  absl::StatusOr<Value> id =
      e.deviceId(options_.replica_count, options_.partition_count);
  if (!id.ok())
    return invariantError(e.anchor(), fromAbsl(id.status().message()));
  return id;
}

absl::StatusOr<Value> GlobalToLocal::dimensionOffset(
    HloEmitter& e, const Mesh& mesh, absl::Span<const AxisRef> axes,
    int64_t shard_size) const {
  SK_ASSIGN_OR_RETURN(Value id, deviceId(e));
  const int64_t devices = mesh.totalSize();
  std::vector<int64_t> table;
  table.reserve(devices);
  for (int64_t device = 0; device < devices; ++device) {
    absl::StatusOr<int64_t> index = shardIndex(device, mesh, axes);
    if (!index.ok())
      return invariantError(e.anchor(), fromAbsl(index.status().message()));
    table.push_back(*index * shard_size);
  }
  Value offsets = e.intTable(table, "i64");
  Value slice = e.dynamicSlice(offsets, {id}, {1});
  return e.reshape(slice, {});
}

absl::StatusOr<Value> GlobalToLocal::sliceForAxes(
    HloEmitter& e, Value global, const Mesh& mesh,
    absl::Span<const AxisRefVector> axes_per_dim, Type local) const {
  std::vector<Value> starts;
  for (int64_t i = 0; i < local.rank(); ++i) {
    if (axes_per_dim[i].empty()) {
      starts.push_back(e.splatInt(e.scalar("i64"), 0));
      continue;
    }
    SK_ASSIGN_OR_RETURN(Value offset, dimensionOffset(e, mesh, axes_per_dim[i],
                                                      local.shape()[i]));
    starts.push_back(offset);
  }
  return e.dynamicSlice(global, starts, local.shape());
}

absl::Status GlobalToLocal::localizeInPlace(Op op) {
  SK_ASSIGN_OR_RETURN(std::vector<Type> types, localResultTypes(op));
  for (unsigned i = 0; i < op.numResults(); ++i) op.result(i).setType(types[i]);
  return absl::OkStatus();
}

void GlobalToLocal::replace(Op op, absl::Span<const Value> values) {
  for (unsigned i = 0; i < op.numResults(); ++i) {
    op.result(i).replaceAllUsesWith(values[i]);
  }
  op.erase();
}

absl::Status GlobalToLocal::legalizeError(Op op) const {
  return locatedError(op, strCat("failed to legalize operation '", op.name(),
                                 "' that was explicitly marked illegal"));
}

absl::Status GlobalToLocal::patternError(Op op, std::string_view message,
                                         bool op_prefix) const {
  std::vector<Diagnostic> diags = diagnosticsOf(
      op_prefix ? opError(op, message) : locatedError(op, message));
  for (Diagnostic& d : diagnosticsOf(legalizeError(op))) {
    diags.push_back(std::move(d));
  }
  return diagnosticStatus(diags);
}

absl::Status GlobalToLocal::invariantError(Op op,
                                           std::string_view message) const {
  return opError(op, message);
}

}  // namespace shardkit::partition

namespace shardkit {

absl::Status convertGlobalToLocal(Module& module,
                                  const ConvertGlobalToLocalOptions& options) {
  return partition::GlobalToLocal(module, options).run();
}

}  // namespace shardkit
