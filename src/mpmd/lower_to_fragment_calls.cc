// -mpmd-lower-to-fragment-calls{verbose-logging}: every fragment becomes an
// mpmd.fragment_call of a function holding its body, and equal fragments
// share one function.
//
// Fragments are equal when they run on the same mesh (by name: two names for
// equal meshes may span different devices), have equal arg_attrs and
// res_attrs, and structurally equal bodies. Each group, numbered in program
// order, gets the function `p<N>_<name>.<module>` (fragment_naming.h; the
// module's name without `jit_`, `main` when it has none), public, placed at
// the end of the module, with:
//   - `mesh_shape`, the fragment's mesh in the topology;
//   - `reserved_hbm_bytes`, the largest of the group's fragments (when any
//     has one);
//   - the fragment's arg_attrs/res_attrs, plus `sdy.sharding` of each
//     argument and result whose mesh tensor type is sharded;
//   - the body of the group's first fragment, `mpmd.return` becoming
//     `func.return`. Shardings inside it naming another mesh of the module
//     are renamed to the fragment's mesh, an `sdy.mesh` of that name being
//     added when the module has none.
// The call keeps the fragment's mesh and origins, and `remat` when the
// fragment had it. With verbose-logging, the fragments of each mesh of @main's
// topology are listed on stderr in program order.
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/export_passes.h"
#include "shardkit/support/status_macros.h"
#include "src/mpmd/export_utils.h"
#include "src/mpmd/fragment_naming.h"
#include "src/mpmd/ir_utils.h"
#include "src/mpmd/region_equivalence.h"
#include "src/passes/import/sharding_walker.h"

namespace shardkit::mpmd {
namespace {

constexpr std::string_view kRematAttr = "remat";
constexpr size_t kMaxGroupNameLength = 200;

struct Group {
  Op first;
  size_t hash = 0;
  std::optional<int64_t> hbm_bytes;
  mpmd_internal::MeshCallSites call_sites;
  std::string name;
  FuncOp function;
};

bool sameGroup(const Group& group, Op fragment, size_t hash) {
  Op first = group.first;
  return group.hash == hash &&
         FragmentOp(first).meshName() == FragmentOp(fragment).meshName() &&
         first.attr(mpmd_internal::kArgAttrsName) ==
             fragment.attr(mpmd_internal::kArgAttrsName) &&
         first.attr(mpmd_internal::kResAttrsName) ==
             fragment.attr(mpmd_internal::kResAttrsName) &&
         mpmd_internal::isRegionEquivalent(first.region(0), fragment.region(0));
}

std::optional<int64_t> intAttr(Op op, std::string_view name) {
  return op.attr(name).intValue();
}

class Lowering {
 public:
  explicit Lowering(Module& module) : module_(module) {}

  absl::Status run(bool verbose) {
    collect();
    name();
    if (verbose) logSchedule();
    for (size_t i = 0; i < fragments_.size(); ++i) {
      SK_RETURN_IF_ERROR(lower(fragments_[i], groups_[group_of_[i]]));
    }
    return renameBodyMeshes();
  }

 private:
  void collect() {
    for (FuncOp func : functionDefinitions(module_)) {
      auto visit = [&](Op op) {
        if (isa<FragmentOp>(op)) fragments_.push_back(op);
      };
      Module::walkBlock(func.body(), visit);
    }
    for (Op fragment : fragments_) {
      for (const UserOrigin& o : FragmentOp(fragment).origins()) {
        if (o.transpose_count != 0) all_forward_ = false;
      }
    }
    for (Op fragment : fragments_) {
      size_t hash = mpmd_internal::regionShapeHash(fragment.region(0));
      size_t g = 0;
      while (g < groups_.size() && !sameGroup(groups_[g], fragment, hash)) ++g;
      if (g == groups_.size())
        groups_.push_back(
            Group{fragment, hash, std::nullopt, {}, "", FuncOp()});
      group_of_.push_back(g);
      Group& group = groups_[g];
      std::optional<int64_t> bytes =
          intAttr(fragment, mpmd_internal::kReservedHbmBytesAttr);
      if (bytes && (!group.hbm_bytes || *bytes > *group.hbm_bytes)) {
        group.hbm_bytes = bytes;
      }
      group.call_sites[std::string(FragmentOp(fragment).meshName())]
          .emplace_back(fragmentNameOf(fragment),
                        intAttr(fragment, kCallCounterAttr));
    }
  }

  std::string fragmentNameOf(Op fragment) const {
    FragmentOp handle(fragment);
    std::optional<std::string> inferred_by;
    if (const std::string* s = fragment.attr(kInferredByAttr).asString()) {
      inferred_by = *s;
    }
    return mpmd_internal::fragmentName(handle.origins(), handle.stageId(),
                                       inferred_by, all_forward_);
  }

  std::string moduleName() const {
    std::string name = module_.name.value_or("main");
    if (name.starts_with("jit_")) name = name.substr(4);
    return name;
  }

  void name() {
    for (size_t g = 0; g < groups_.size(); ++g) {
      std::string base =
          "p" + std::to_string(g) + "_" +
          mpmd_internal::callSitesSummaryName(groups_[g].call_sites);
      groups_[g].name = mpmd_internal::truncateName(base, kMaxGroupNameLength) +
                        "." + moduleName();
    }
  }

  void logSchedule() const {
    Op main = module_.lookupSymbol("main");
    if (!main || !isa<FuncOp>(main)) return;
    std::optional<Topology> topology = topologyOf(FuncOp(main));
    if (!topology) return;
    for (const NamedMesh& mesh : topology->meshes) {
      std::cerr << "Module " << moduleName() << " on mesh " << mesh.name
                << " will execute the following XLA programs:\n";
      for (size_t i = 0; i < fragments_.size(); ++i) {
        FragmentOp fragment(fragments_[i]);
        if (fragment.meshName() != mesh.name) continue;
        std::cerr << "\t- " << groups_[group_of_[i]].name
                  << " from program with origins "
                  << mpmd_internal::prettyOrigins(fragment.origins(),
                                                  all_forward_);
        if (std::optional<int64_t> stage = fragment.stageId()) {
          std::cerr << ", stage id " << *stage;
        }
        if (std::optional<int64_t> counter =
                intAttr(fragments_[i], kCallCounterAttr)) {
          std::cerr << ", call counter " << *counter;
        }
        std::cerr << ".\n";
      }
    }
  }

  absl::Status lower(Op fragment, Group& group) {
    if (!group.function) {
      SK_ASSIGN_OR_RETURN(group.function, makeFunction(fragment, group));
    }
    OperationState state(FragmentCallOp::opName());
    state.operands = fragment.operands();
    state.result_types = fragment.resultTypes();
    state.addAttr("mesh_name", fragment.attr("mesh_name"));
    state.addAttr(kOriginAttr, fragment.attr(kOriginAttr));
    state.addAttr("callee", Attribute::symbolRef(group.name));
    if (fragment.hasAttr(kRematAttr))
      state.addAttr(kRematAttr, Attribute::unit());
    state.location = fragment.location();
    module_.replaceOp(fragment, state);
    return absl::OkStatus();
  }

  absl::StatusOr<FuncOp> makeFunction(Op fragment, const Group& group) {
    SK_ASSIGN_OR_RETURN(Mesh mesh,
                        meshOf(fragment, FragmentOp(fragment).meshName()));
    Block body = fragment.region(0).front();
    std::vector<Type> inputs;
    for (Value arg : body.arguments()) inputs.push_back(arg.type());
    OperationState state(FuncOp::opName());
    state.addAttr("sym_name", Attribute::string(group.name));
    state.addAttr("function_type", Attribute::type(module_.types().function(
                                       inputs, body.back().operandTypes())));
    state.num_regions = 1;
    state.location = fragment.location();
    FuncOp func(module_.createOp(state));
    module_.body().pushBack(func);
    func->setAttr(kMeshShapeAttr, Attribute::of(mesh));
    if (group.hbm_bytes) {
      func->setAttr(mpmd_internal::kReservedHbmBytesAttr,
                    Attribute::integer(*group.hbm_bytes));
    }
    copyArgResAttrs(fragment, func);
    mpmd_internal::moveBody(fragment, func);
    Op ret = func.body().back();
    OperationState ret_state(func::ReturnOp::opName());
    ret_state.operands = ret.operands();
    module_.replaceOp(ret, ret_state);
    new_functions_.insert(func);
    mesh_of_function_[func] = std::string(FragmentOp(fragment).meshName());
    return func;
  }

  void copyArgResAttrs(Op fragment, FuncOp func) {
    if (const Attribute& a = fragment.attr(mpmd_internal::kArgAttrsName)) {
      func->setAttr(mpmd_internal::kArgAttrsName, a);
    }
    if (const Attribute& a = fragment.attr(mpmd_internal::kResAttrsName)) {
      func->setAttr(mpmd_internal::kResAttrsName, a);
    }
    for (unsigned i = 0; i < fragment.numOperands(); ++i) {
      std::optional<MeshTensorType> t =
          MeshTensorType::of(fragment.operand(i).type());
      if (t && t->sharding) {
        func.setArgAttr(i, kShardingAttr, Attribute::of(*t->sharding));
      }
    }
    for (unsigned i = 0; i < fragment.numResults(); ++i) {
      std::optional<MeshTensorType> t =
          MeshTensorType::of(fragment.result(i).type());
      if (t && t->sharding) {
        func.setResultAttr(i, kShardingAttr, Attribute::of(*t->sharding));
      }
    }
  }

  // Shardings in the new functions' bodies name the fragment's mesh.
  absl::Status renameBodyMeshes() {
    if (new_functions_.empty()) return absl::OkStatus();
    absl::flat_hash_set<std::string> module_meshes;
    for (Op op : module_.body()) {
      if (auto mesh = dynCast<sdy::MeshOp>(op)) {
        module_meshes.insert(std::string(mesh.symName()));
      }
    }
    std::vector<std::pair<std::string, Mesh>> needed;
    import_internal::transformShardings(
        module_,
        [&](const TensorSharding& sharding,
            const import_internal::ShardingSite& site) {
          Op func = enclosingFunc(site.op);
          if (!func || site.op == func || !new_functions_.contains(func)) {
            return sharding;
          }
          const std::string& target = mesh_of_function_[func];
          if (!sharding.mesh.isRef() || sharding.meshName() == target ||
              !module_meshes.contains(std::string(sharding.meshName()))) {
            return sharding;
          }
          if (!module_meshes.contains(target)) {
            module_meshes.insert(target);
            const Mesh* mesh = func.attr(kMeshShapeAttr).as<Mesh>();
            needed.emplace_back(target, mesh ? *mesh : Mesh());
          }
          TensorSharding renamed = sharding;
          renamed.mesh.setRef(target);
          return renamed;
        },
        [](const import_internal::ShardingSite&) { return false; });
    for (auto it = needed.rbegin(); it != needed.rend(); ++it) {
      OperationState state(sdy::MeshOp::opName());
      state.addAttr("sym_name", Attribute::string(it->first));
      state.addAttr("mesh", Attribute::of(it->second));
      module_.body().pushFront(module_.createOp(state));
    }
    return absl::OkStatus();
  }

  Module& module_;
  bool all_forward_ = true;
  std::vector<Op> fragments_;
  std::vector<size_t> group_of_;
  std::vector<Group> groups_;
  absl::flat_hash_set<Op> new_functions_;
  absl::flat_hash_map<Op, std::string> mesh_of_function_;
};

}  // namespace

absl::Status lowerToFragmentCalls(Module& module, const PassOptions& options) {
  SK_ASSIGN_OR_RETURN(bool verbose, options.getBool("verbose-logging", false));
  return Lowering(module).run(verbose);
}

}  // namespace shardkit::mpmd
