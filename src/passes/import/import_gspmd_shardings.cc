// -sdy-import-gspmd-shardings: `mhlo.sharding` text to `sdy.sharding`.
#include <optional>
#include <string>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/walk.h"
#include "shardkit/passes/gspmd_passes.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/hlo_sharding.h"
#include "src/passes/gspmd_errors.h"

namespace shardkit {
namespace {

// The mesh GSPMD tilings are read onto.
struct TargetMesh {
  std::string name;
  Mesh mesh;
};

absl::StatusOr<TargetMesh> findTargetMesh(Module& module,
                                          std::string_view name) {
  std::optional<TargetMesh> found;
  for (Op op : module.body().ops()) {
    auto mesh = dynCast<sdy::MeshOp>(op);
    if (!mesh) continue;
    if (!name.empty()) {
      if (mesh.symName() == name)
        return TargetMesh{std::string(name), mesh.mesh()};
      continue;
    }
    if (mesh.mesh().isMaximal()) continue;
    if (found) {
      return absl::InvalidArgumentError(
          "-sdy-import-gspmd-shardings: the module has several meshes; "
          "name one with mesh=NAME");
    }
    found = TargetMesh{std::string(mesh.symName()), mesh.mesh()};
  }
  if (found) return *found;
  return absl::InvalidArgumentError(
      name.empty()
          ? std::string(
                "-sdy-import-gspmd-shardings: the module has no mesh to "
                "express GSPMD tilings on")
          : strCat("-sdy-import-gspmd-shardings: no mesh named @", name));
}

class GspmdImporter {
 public:
  explicit GspmdImporter(TargetMesh target) : target_(std::move(target)) {}

  // The sdy sharding of a value of `type` that `text` describes.
  absl::StatusOr<TensorSharding> convert(const HloSharding& hlo, Type type) {
    if (!type.isRankedTensor()) {
      if (hlo.kind == HloShardingKind::kReplicated)
        return TensorSharding(MeshOrRef::ref(target_.name), {});
      if (hlo.kind == HloShardingKind::kMaximal)
        return fromHloSharding(hlo, target_.mesh, ref(), 0);
      return absl::InvalidArgumentError(
          strCat("GSPMD: only {replicated} or {maximal} fit a value of type ",
                 type.str()));
    }
    return fromHloSharding(hlo, target_.mesh, ref(), type.rank());
  }

  // The shardings of `types` (one per value) that `text` describes.
  absl::StatusOr<std::vector<TensorSharding>> convertAll(
      const Attribute& attr, const std::vector<Type>& types) {
    const std::string* text = attr.asString();
    if (!text) {
      return absl::InvalidArgumentError(
          "GSPMD: mhlo.sharding must be a string");
    }
    SK_ASSIGN_OR_RETURN(HloSharding hlo, parseHloSharding(*text));
    std::vector<TensorSharding> result;
    if (hlo.kind == HloShardingKind::kTuple) {
      if (hlo.elements.size() != types.size()) {
        return absl::InvalidArgumentError(
            strCat("GSPMD: a tuple sharding of ", hlo.elements.size(),
                   " elements for ", types.size(), " values"));
      }
      for (size_t i = 0; i < types.size(); ++i) {
        SK_ASSIGN_OR_RETURN(TensorSharding s,
                            convert(hlo.elements[i], types[i]));
        result.push_back(std::move(s));
      }
      return result;
    }
    for (Type type : types) {
      SK_ASSIGN_OR_RETURN(TensorSharding s, convert(hlo, type));
      result.push_back(std::move(s));
    }
    return result;
  }

  absl::Status importFunction(FuncOp func) {
    for (unsigned i = 0; i < func.numArguments(); ++i) {
      const Attribute& attr = func.argAttr(i, kMhloShardingAttr);
      if (!attr) continue;
      absl::StatusOr<std::vector<TensorSharding>> s =
          convertAll(attr, {func.argument(i).type()});
      if (!s.ok())
        return passes_internal::functionValueError(func.op(), s.status(),
                                                   "argument", i);
      func.argAttrList().removeEntry(i, kMhloShardingAttr);
      setSharding(func.argument(i), s->front());
    }
    std::vector<Type> results = func.resultTypes();
    for (unsigned i = 0; i < results.size(); ++i) {
      const Attribute& attr = func.resultAttr(i, kMhloShardingAttr);
      if (!attr) continue;
      absl::StatusOr<std::vector<TensorSharding>> s =
          convertAll(attr, {results[i]});
      if (!s.ok())
        return passes_internal::functionValueError(func.op(), s.status(),
                                                   "result", i);
      func.resultAttrList().removeEntry(i, kMhloShardingAttr);
      setFuncResultSharding(func, i, s->front());
    }
    return absl::OkStatus();
  }

  absl::Status importOp(Op op) {
    const Attribute& attr = op.attr(kMhloShardingAttr);
    if (!attr || op.numResults() == 0) return absl::OkStatus();
    absl::StatusOr<std::vector<TensorSharding>> s =
        convertAll(attr, op.resultTypes());
    if (!s.ok()) return locatedError(op, fromAbsl(s.status().message()));
    op.removeAttr(kMhloShardingAttr);
    op.setAttr(kShardingAttr,
               Attribute::of(TensorShardingPerValue(*std::move(s))));
    return absl::OkStatus();
  }

 private:
  MeshOrRef ref() const { return MeshOrRef::ref(target_.name); }

  TargetMesh target_;
};

}  // namespace

absl::Status importGspmdShardings(Module& module, std::string_view mesh_name) {
  SK_ASSIGN_OR_RETURN(TargetMesh target, findTargetMesh(module, mesh_name));
  GspmdImporter importer(std::move(target));
  std::vector<Op> ops;
  ir_internal::collectPreOrder(module.body(), ops);
  for (Op op : ops) {
    if (auto func = dynCast<FuncOp>(op)) {
      SK_RETURN_IF_ERROR(importer.importFunction(func));
    } else if (!isa<sdy::MeshOp>(op)) {
      SK_RETURN_IF_ERROR(importer.importOp(op));
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit
