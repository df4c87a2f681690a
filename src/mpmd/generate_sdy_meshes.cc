// -mpmd-generate-sdy-meshes-from-topology: the module's sdy meshes become
// the topology's meshes. Axes of topology meshes are named `<mesh>_<axis>`,
// so a sharding's mesh is the prefix its axes share; a fully replicated
// sharding names the empty mesh (`@empty_mesh`, added to the topology when
// needed) unless its mesh is already empty or a single device. The old
// meshes go, except empty and single-device ones.
#include <string>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/passes.h"
#include "shardkit/support/strings.h"
#include "src/passes/import/sharding_walker.h"

namespace shardkit::mpmd {
namespace {

constexpr std::string_view kEmptyMesh = "empty_mesh";

Op createMeshOp(Module& module, std::string_view name, const Mesh& mesh) {
  OperationState state(sdy::MeshOp::opName());
  state.addAttr("sym_name", Attribute::string(std::string(name)));
  state.addAttr("mesh", Attribute::of(mesh));
  return module.createOp(state);
}

bool isEmptyOrSingleDevice(const Mesh& mesh) {
  return mesh.empty() || mesh.isMaximal() || mesh.totalSize() == 1;
}

class MeshGenerator {
 public:
  MeshGenerator(Module& module, FuncOp first_mpmd_func)
      : module_(module), func_(first_mpmd_func) {}

  absl::Status run() {
    std::optional<Topology> topology = topologyOf(func_);
    if (!topology) {
      return locatedError(func_, "No topology attribute found");
    }
    for (Op op : module_.body()) {
      if (auto mesh = dynCast<sdy::MeshOp>(op))
        old_meshes_.emplace_back(mesh.symName(), op);
    }
    Op after;
    for (const NamedMesh& named : topology->meshes) {
      Op mesh = createMeshOp(module_, named.name, named.mesh);
      if (after) {
        module_.body().insertAfter(after, mesh);
      } else {
        module_.body().pushFront(mesh);
      }
      after = mesh;
    }
    import_internal::transformShardings(
        module_, [this](const TensorSharding& sharding,
                        const import_internal::ShardingSite& site) {
          return rename(sharding, site.op);
        });
    if (!error_.ok()) return error_;
    for (const auto& [name, op] : old_meshes_) {
      if (!isEmptyOrSingleDevice(sdy::MeshOp(op).mesh())) op.erase();
    }
    return absl::OkStatus();
  }

 private:
  const Mesh* oldMesh(std::string_view name) const {
    for (const auto& [old_name, op] : old_meshes_) {
      if (old_name == name) return &sdy::MeshOp(op).mesh();
    }
    return nullptr;
  }

  TensorSharding rename(const TensorSharding& sharding, Op site) {
    TensorSharding renamed = sharding;
    if (sharding.isFullyReplicated()) {
      const Mesh* mesh = oldMesh(sharding.mesh.name());
      if (!mesh || isEmptyOrSingleDevice(*mesh)) return sharding;
      renamed.mesh = MeshOrRef::ref(std::string(emptyMesh()));
      return renamed;
    }
    std::string prefix;
    for (const AxisRef& axis : sharding.allAxes()) {
      size_t separator = axis.name.find('_');
      std::string axis_prefix = axis.name.substr(0, separator);
      if (separator == std::string::npos) {
        fail(site, strCat("Axis name does not contain '_': ", axis.name));
      } else if (!prefix.empty() && prefix != axis_prefix) {
        fail(site, strCat("Mesh name mismatch: ", prefix, " vs ", axis_prefix));
      }
      prefix = axis_prefix;
    }
    if (oldMesh(prefix)) fail(site, strCat("Invalid mesh name: ", prefix));
    renamed.mesh = MeshOrRef::ref(prefix);
    return renamed;
  }

  // The empty mesh, created (and added to the topology) on first use.
  std::string_view emptyMesh() {
    if (!has_empty_mesh_) {
      has_empty_mesh_ = true;
      if (const Mesh* existing = oldMesh(kEmptyMesh)) {
        if (!existing->empty()) {
          fail(func_,
               "Mesh named 'empty_mesh' already exists but is not "
               "empty.");
        }
        return kEmptyMesh;
      }
      module_.body().pushFront(createMeshOp(module_, kEmptyMesh, Mesh()));
      std::optional<Topology> topology = topologyOf(func_);
      topology->meshes.push_back(NamedMesh{std::string(kEmptyMesh), Mesh()});
      func_->setAttr(kTopologyAttr, topologyAttr(*topology));
    }
    return kEmptyMesh;
  }

  void fail(Op op, std::string_view message) {
    if (error_.ok()) error_ = locatedError(op, message);
  }

  Module& module_;
  FuncOp func_;
  std::vector<std::pair<std::string, Op>> old_meshes_;
  bool has_empty_mesh_ = false;
  absl::Status error_;
};

}  // namespace

absl::Status generateSdyMeshesFromTopology(Module& module) {
  std::vector<FuncOp> funcs = mpmdFunctions(module);
  if (funcs.empty()) {
    return absl::InvalidArgumentError(
        "-mpmd-generate-sdy-meshes-from-topology: no function has a topology");
  }
  return MeshGenerator(module, funcs.front()).run();
}

}  // namespace shardkit::mpmd
