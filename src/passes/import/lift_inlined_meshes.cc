// -sdy-lift-inlined-meshes.
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/passes/import_passes.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/dialect_attr_text.h"
#include "shardkit/text/parse.h"
#include "shardkit/text/stablehlo_attr_text.h"
#include "src/passes/import/sharding_walker.h"

namespace shardkit {
namespace {

constexpr std::string_view kReplicaGroupMeshAxes =
    "stablehlo.replica_group_mesh_axes";
constexpr std::string_view kStablehloMesh = "stablehlo.mesh";

// The mesh symbols of a module and the names shardings should use instead of
// inlined meshes and of references to deleted duplicate meshes.
class MeshLifter {
 public:
  explicit MeshLifter(Module& module) : module_(module) {
    for (Op op : module.body()) {
      if (const std::string* sym = op.attr("sym_name").asString()) {
        used_names_.insert(*sym);
      }
    }
  }

  // Keeps the first of identical mesh ops and erases the others, remembering
  // to redirect references to them.
  void dedupExistingMeshes() {
    for (Op op : module_.body().ops()) {
      if (!isa<sdy::MeshOp>(op)) continue;
      const std::string* sym = op.attr("sym_name").asString();
      const Mesh* mesh = op.attr("mesh").as<Mesh>();
      if (!sym || !mesh) continue;
      auto [it, inserted] = name_of_mesh_.try_emplace(*mesh, *sym);
      if (inserted) {
        last_mesh_op_ = op;
        continue;
      }
      renamed_refs_[*sym] = it->second;
      used_names_.erase(*sym);
      op.erase();
    }
  }

  // The sharding with its inlined mesh (or reference to a deleted duplicate)
  // replaced by a mesh symbol.
  TensorSharding lift(const TensorSharding& sharding) {
    std::optional<std::string> name;
    if (const Mesh* mesh = sharding.mesh.inlineMesh()) {
      name = symbolFor(*mesh);
    } else if (auto it = renamed_refs_.find(std::string(sharding.meshName()));
               it != renamed_refs_.end()) {
      name = it->second;
    }
    if (!name) return sharding;
    TensorSharding lifted = sharding;
    lifted.mesh = MeshOrRef::ref(*name);
    return lifted;
  }

  // Rewrites the mesh of a `#stablehlo.replica_group_mesh_axes` attribute of
  // `op` into a symbol reference.
  absl::Status liftReplicaGroups(Op op) {
    const std::string* text = op.attr("replica_groups").asOpaque();
    if (!text) return absl::OkStatus();
    std::optional<DialectAttrText> attr = splitDialectAttr(*text);
    if (!attr || attr->name != kReplicaGroupMeshAxes) return absl::OkStatus();
    std::optional<std::vector<DialectAttrField>> fields =
        splitDialectAttrFields(attr->body);
    if (!fields) {
      return opError(op, strCat("cannot lift the mesh of replica_groups: "
                                "malformed attribute '",
                                *text, "'"));
    }
    std::string_view mesh_text;
    for (const DialectAttrField& field : *fields) {
      if (field.key == "mesh") mesh_text = field.value;
    }
    if (mesh_text.empty()) return absl::OkStatus();
    std::optional<std::string> name;
    if (mesh_text.starts_with("@")) {
      auto it = renamed_refs_.find(std::string(mesh_text.substr(1)));
      if (it != renamed_refs_.end()) name = it->second;
    } else {
      std::optional<DialectAttrText> mesh_attr = splitDialectAttr(mesh_text);
      absl::StatusOr<Mesh> mesh = mesh_attr && mesh_attr->name == kStablehloMesh
                                      ? parseStablehloMeshAxes(mesh_text)
                                      : parseMesh(mesh_text);
      if (!mesh.ok()) {
        return opError(op, strCat("cannot lift the mesh of replica_groups: ",
                                  fromAbsl(mesh.status().message())));
      }
      name = symbolFor(*mesh);
    }
    if (!name) return absl::OkStatus();
    // The field's value is a view into `text`: replace just it.
    size_t begin = mesh_text.data() - text->data();
    size_t end = begin + mesh_text.size();
    op.setAttr("replica_groups",
               Attribute::opaque(strCat(text->substr(0, begin), "@", *name,
                                        text->substr(end))));
    return absl::OkStatus();
  }

  // Gives every mesh op a `stablehlo.mesh` description of its mesh.
  void tagMeshes() {
    for (Op op : module_.body()) {
      if (!isa<sdy::MeshOp>(op) || op.hasAttr(kStablehloMeshAttr)) continue;
      if (const Mesh* mesh = op.attr("mesh").as<Mesh>()) {
        op.setAttr(kStablehloMeshAttr, stablehloMeshDict(*mesh));
      }
    }
  }

 private:
  // The symbol of a mesh op holding `mesh`, creating one if needed.
  std::string symbolFor(const Mesh& mesh) {
    if (auto it = name_of_mesh_.find(mesh); it != name_of_mesh_.end()) {
      return it->second;
    }
    std::string name = uniqueName(baseName(mesh));
    OperationState state(sdy::MeshOp::opName());
    state.addAttr("sym_name", Attribute::string(name));
    state.addAttr("mesh", Attribute::of(mesh));
    Op op = module_.createOp(state);
    if (last_mesh_op_) {
      module_.body().insertAfter(last_mesh_op_, op);
    } else {
      module_.body().pushFront(op);
    }
    last_mesh_op_ = op;
    name_of_mesh_.emplace(mesh, name);
    return name;
  }

  static std::string baseName(const Mesh& mesh) {
    if (std::optional<int64_t> id = mesh.maximalDeviceId()) {
      return strCat("maximal_mesh_", *id);
    }
    return mesh.empty() ? "empty_mesh" : "mesh";
  }

  // `base`, or the first free `base_N` where N counts up across the whole
  // pass (as MLIR's symbol table uniquing does).
  std::string uniqueName(const std::string& base) {
    std::string name = base;
    while (used_names_.contains(name)) {
      name = strCat(base, "_", uniquing_counter_++);
    }
    used_names_.insert(name);
    return name;
  }

  // `{axes = [{name = "a", size = 4 : i64}, ...], device_ids = dense<...>}`.
  Attribute stablehloMeshDict(const Mesh& mesh) {
    std::vector<Attribute> axes;
    for (const MeshAxis& axis : mesh.axes) {
      axes.push_back(
          Attribute::dict({{"name", Attribute::string(axis.name)},
                           {"size", Attribute::integer(axis.size, "i64")}}));
    }
    std::vector<NamedAttribute> entries = {{"axes", Attribute::array(axes)}};
    if (!mesh.device_ids.empty()) {
      entries.push_back({"device_ids", deviceIdsLiteral(mesh.device_ids)});
    }
    return Attribute::dict(std::move(entries));
  }

  Attribute deviceIdsLiteral(const std::vector<int64_t>& ids) {
    bool splat = true;
    for (int64_t id : ids) splat = splat && id == ids.front();
    std::string literal = "dense<";
    if (splat) {
      strAppend(literal, ids.front());
    } else {
      literal += '[';
      for (size_t i = 0; i < ids.size(); ++i) {
        strAppend(literal, i ? ", " : "", ids[i]);
      }
      literal += ']';
    }
    literal += '>';
    Type type =
        module_.types().rankedTensor({static_cast<int64_t>(ids.size())}, "i64");
    return Attribute::elements(std::move(literal), type);
  }

  Module& module_;
  absl::flat_hash_set<std::string> used_names_;
  absl::flat_hash_map<Mesh, std::string> name_of_mesh_;
  absl::flat_hash_map<std::string, std::string> renamed_refs_;
  Op last_mesh_op_;
  int64_t uniquing_counter_ = 0;
};

}  // namespace

absl::Status liftInlinedMeshes(Module& module) {
  MeshLifter lifter(module);
  lifter.dedupExistingMeshes();
  import_internal::transformShardings(
      module,
      [&](const TensorSharding& sharding,
          const import_internal::ShardingSite&) {
        return lifter.lift(sharding);
      },
      [](const import_internal::ShardingSite&) { return true; });
  // Collectives by kind, in one walk; lifted kind by kind, so new mesh
  // symbols are created (and numbered) in the same order.
  const OpName kCollectives[] = {
      stablehlo::AllGatherOp::opName(), stablehlo::AllReduceOp::opName(),
      stablehlo::ReduceScatterOp::opName(), stablehlo::AllToAllOp::opName(),
      stablehlo::CollectiveBroadcastOp::opName()};
  constexpr size_t kNumCollectives = std::size(kCollectives);
  std::vector<Op> collectives[kNumCollectives];
  bool any = false;
  for (OpName name : kCollectives) any = any || module.mayHaveOpsNamed(name);
  if (any) {  // most modules have none: no walk
    module.walk([&](Op op) {
      for (size_t i = 0; i < kNumCollectives; ++i) {
        if (op.opName().entry() == kCollectives[i].entry()) {
          collectives[i].push_back(op);
        }
      }
    });
  }
  for (const std::vector<Op>& ops : collectives) {
    for (Op op : ops) SK_RETURN_IF_ERROR(lifter.liftReplicaGroups(op));
  }
  lifter.tagMeshes();
  return absl::OkStatus();
}

}  // namespace shardkit
