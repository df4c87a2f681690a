// -sdy-inline-meshes: every sharding names its mesh inline (`mesh<[...]>`)
// instead of referring to an sdy.mesh symbol, and the sdy.mesh ops go.
#include <string>
#include <vector>

#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/pass.h"
#include "shardkit/text/dialect_attr_text.h"
#include "shardkit/text/stablehlo_attr_text.h"
#include "src/passes/import/sharding_walker.h"
#include "src/passes/pass_list.h"

namespace shardkit {
namespace {

// A `#stablehlo.replica_group_mesh_axes<mesh = @name, ...>` of `op` gets the
// mesh inline, as a `#stablehlo.mesh`.
void inlineReplicaGroupMesh(Op op, const MeshTable& meshes) {
  const std::string* text = op.attr("replica_groups").asOpaque();
  if (!text) return;
  std::optional<DialectAttrText> attr = splitDialectAttr(*text);
  if (!attr) return;
  std::optional<std::vector<DialectAttrField>> fields =
      splitDialectAttrFields(attr->body);
  if (!fields) return;
  for (const DialectAttrField& field : *fields) {
    if (field.key != "mesh" || !field.value.starts_with("@")) continue;
    const Mesh* mesh = meshes.find(field.value.substr(1));
    if (!mesh) return;
    // The field's value is a view into `text`: replace just it.
    size_t begin = field.value.data() - text->data();
    size_t end = begin + field.value.size();
    op.setAttr("replica_groups",
               Attribute::opaque(strCat(text->substr(0, begin),
                                        printStablehloMesh(*mesh),
                                        text->substr(end))));
    return;
  }
}

}  // namespace

absl::Status inlineMeshes(Module& module) {
  MeshTable meshes = module.meshTable();
  import_internal::transformShardings(
      module,
      [&](const TensorSharding& sharding,
          const import_internal::ShardingSite&) {
        const Mesh* mesh = meshes.resolve(sharding);
        if (sharding.mesh.inlineMesh() || !mesh) return sharding;
        TensorSharding inlined = sharding;
        inlined.mesh = MeshOrRef::inlined(*mesh);
        return inlined;
      },
      [](const import_internal::ShardingSite&) { return true; });
  module.walk([&](Op op) { inlineReplicaGroupMesh(op, meshes); });
  std::vector<Op> mesh_ops;
  for (Op op : module.body()) {
    if (isa<sdy::MeshOp>(op)) mesh_ops.push_back(op);
  }
  for (Op op : mesh_ops) op.erase();
  return absl::OkStatus();
}

void registerInlineMeshesPass() {
  registerPass(optionlessPass(
      "sdy-inline-meshes",
      "Writes every sharding's mesh inline and removes the sdy.mesh ops.",
      [](Module& module) { return inlineMeshes(module); }));
}

}  // namespace shardkit
