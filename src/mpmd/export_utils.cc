// What the export passes share (export_utils.h).
#include "src/mpmd/export_utils.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "shardkit/core/sharding_math.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/passes/pass.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd::mpmd_internal {

DictList dictListOrDefault(Op op, std::string_view name, unsigned count) {
  DictList list(count);
  const std::vector<Attribute>* stored = op.attr(name).asArray();
  if (stored == nullptr) return list;
  for (unsigned i = 0; i < count && i < stored->size(); ++i) {
    if (const std::vector<NamedAttribute>* dict = (*stored)[i].asDict()) {
      list[i] = *dict;
    }
  }
  return list;
}

void setDictList(Op op, std::string_view name, const DictList& list) {
  std::vector<Attribute> dicts;
  dicts.reserve(list.size());
  for (const std::vector<NamedAttribute>& dict : list) {
    dicts.push_back(Attribute::dict(dict));
  }
  op.setAttr(name, Attribute::array(std::move(dicts)));
}

void setEntry(std::vector<NamedAttribute>& dict, std::string_view key,
              Attribute value) {
  auto it = std::lower_bound(
      dict.begin(), dict.end(), key,
      [](const NamedAttribute& a, std::string_view k) { return a.name < k; });
  if (it != dict.end() && it->name == key) {
    it->value = std::move(value);
  } else {
    dict.insert(it, NamedAttribute{std::string(key), std::move(value)});
  }
}

bool isHostMemoryKind(const Attribute& memory_kind) {
  const std::string* kind = memory_kind.asString();
  return kind != nullptr &&
         (*kind == kMemoryKindPinnedHost || *kind == kMemoryKindUnpinnedHost);
}

bool isArgOnHost(Op op, unsigned i) {
  return isHostMemoryKind(argEntry(op, i, kMemoryKindAttr));
}

bool isResultOnHost(Value value) {
  if (value.isBlockArgument()) return false;
  Op producer = value.definingOp();
  if (!isa<FragmentOp>(producer)) return false;
  return isHostMemoryKind(resEntry(producer, value.index(), kMemoryKindAttr));
}

bool isArgBufferDonor(FuncOp func, unsigned i) {
  const bool* donor = func.argAttr(i, kBufferDonorAttr).asBool();
  return donor != nullptr && *donor;
}

absl::flat_hash_map<Op, std::vector<unsigned>> lastUseOperands(Block block) {
  absl::flat_hash_map<Value, std::pair<Op, unsigned>> last_use;
  for (Op op : block) {
    for (unsigned i = 0; i < op.numOperands(); ++i) {
      last_use[op.operand(i)] = {op, i};
    }
  }
  absl::flat_hash_map<Op, std::vector<unsigned>> result;
  for (const auto& [value, use] : last_use) {
    result[use.first].push_back(use.second);
  }
  for (auto& [op, indices] : result) std::sort(indices.begin(), indices.end());
  return result;
}

Op firstUserInBlock(Op op) {
  Block block = op.parentBlock();
  Op first;
  for (Value result : op.results()) {
    for (const Value::Use& use : result.uses()) {
      Op user = ancestorInBlock(block, use.user());
      if (user && (!first || isBeforeInBlock(user, first))) first = user;
    }
  }
  return first;
}

bool isDeadAfter(Value value, Op op) {
  Block block = op.parentBlock();
  for (const Value::Use& use : value.uses()) {
    Op user = ancestorInBlock(block, use.user());
    if (user && user != op && isBeforeInBlock(op, user)) return false;
  }
  return true;
}

namespace {

// The entries of the list `name` of `op` that `keep` keeps, if it has one.
void filterList(Op from, Op to, std::string_view name,
                const std::vector<bool>& keep) {
  const std::vector<Attribute>* list = from.attr(name).asArray();
  if (list == nullptr) return;
  std::vector<Attribute> kept;
  for (size_t i = 0; i < list->size() && i < keep.size(); ++i) {
    if (keep[i]) kept.push_back((*list)[i]);
  }
  to.setAttr(name, Attribute::array(std::move(kept)));
}

}  // namespace

Op rebuildFragment(Op fragment, const std::vector<bool>& keep_operands,
                   const std::vector<bool>& keep_results) {
  Block body = fragment.region(0).front();
  Op ret = body.back();
  for (unsigned r = fragment.numResults(); r-- > 0;) {
    if (!keep_results[r]) ret.eraseOperand(r);
  }
  for (unsigned a = body.numArguments(); a-- > 0;) {
    if (!keep_operands[a]) body.eraseArgument(a);
  }
  OperationState state(fragment.opName());
  for (unsigned a = 0; a < fragment.numOperands(); ++a) {
    if (keep_operands[a]) state.operands.push_back(fragment.operand(a));
  }
  for (unsigned r = 0; r < fragment.numResults(); ++r) {
    if (keep_results[r])
      state.result_types.push_back(fragment.result(r).type());
  }
  state.inherent_attrs = fragment.inherentAttrs();
  state.discardable_attrs = fragment.discardableAttrs();
  state.num_regions = 1;
  Op rebuilt = createBefore(fragment, state);
  filterList(fragment, rebuilt, kArgAttrsName, keep_operands);
  filterList(fragment, rebuilt, kResAttrsName, keep_results);
  moveBody(fragment, rebuilt);
  unsigned next = 0;
  for (unsigned r = 0; r < fragment.numResults(); ++r) {
    if (keep_results[r]) {
      fragment.result(r).replaceAllUsesWith(rebuilt.result(next++));
    }
  }
  fragment.erase();
  return rebuilt;
}

absl::Status runPassIfRegistered(Module& module, std::string_view name) {
  const PassInfo* pass = findPass(name);
  if (pass == nullptr) return absl::OkStatus();
  return pass->run(module, PassOptions());
}

void reportAt(Op op, std::string_view message, bool fail,
              ErrorCollector& errors) {
  if (fail) {
    errors.add(op, message);
    return;
  }
  Diagnostic warning{
      locationOf(op), Severity::kWarning, std::string(message), {}};
  emitNonFatal(diagnosticStatus(warning));
}

namespace {

// The bit width of a builtin element type (`f32`, `bf16`, `i1`, `ui8`,
// `f8E4M3FN`, `complex<f32>`), or nullopt.
std::optional<int64_t> elementBitWidth(std::string_view type) {
  if (type.starts_with("complex<") && type.ends_with(">")) {
    std::optional<int64_t> part =
        elementBitWidth(type.substr(8, type.size() - 9));
    if (!part) return std::nullopt;
    return 2 * *part;
  }
  if (type == "index") return 64;
  size_t start = 0;
  while (start < type.size() && std::isalpha(type[start])) ++start;
  size_t end = start;
  while (end < type.size() && std::isdigit(type[end])) ++end;
  if (end == start || start == 0) return std::nullopt;
  return std::stoll(std::string(type.substr(start, end - start)));
}

}  // namespace

std::optional<double> localTensorBytes(const MeshTensorType& type,
                                       const Mesh& mesh) {
  std::optional<int64_t> bits = elementBitWidth(type.element_type);
  if (!bits) return std::nullopt;
  std::vector<int64_t> dims = type.dims;
  if (type.sharding) dims = localShape(*type.sharding, mesh, dims);
  double elements = 1;
  for (int64_t dim : dims) elements *= static_cast<double>(dim);
  return elements * static_cast<double>(*bits) / 8;
}

}  // namespace shardkit::mpmd::mpmd_internal
