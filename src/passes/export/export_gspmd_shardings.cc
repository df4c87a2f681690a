// -sdy-export-gspmd-shardings: `sdy.sharding` to `mhlo.sharding` text, and
// the registration of both GSPMD passes.
#include <string>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/walk.h"
#include "shardkit/passes/gspmd_passes.h"
#include "shardkit/passes/pass.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/hlo_sharding.h"
#include "src/passes/gspmd_errors.h"
#include "src/passes/pass_list.h"

namespace shardkit {
namespace {

class GspmdExporter {
 public:
  explicit GspmdExporter(Module& module) : meshes_(module.meshTable()) {}

  // The HloSharding text of `sharding` for a value under `op`.
  absl::StatusOr<HloSharding> convert(const TensorSharding& sharding, Op op) {
    const Mesh* mesh = meshes_.resolve(sharding);
    if (!mesh) {
      return absl::InvalidArgumentError(
          strCat("unknown mesh @", sharding.mesh.name()));
    }
    return toHloSharding(sharding, *mesh, manualAxesAround(op));
  }

  absl::Status exportFunction(FuncOp func) {
    SK_RETURN_IF_ERROR(exportValues(
        func, func.argAttrList(), func.numArguments(), "argument",
        [&](unsigned i) {
          return func.argAttr(i, kShardingAttr).as<TensorSharding>();
        }));
    return exportValues(
        func, func.resultAttrList(), func.numResults(), "result",
        [&](unsigned i) { return findFuncResultSharding(func, i); });
  }

  // Gives each of the `count` arguments or results of `func` (`kind`), whose
  // attributes are `attrs`, the GSPMD text of its sharding `sharding_of(i)`
  // (if it has one) in place of the sharding.
  template <typename ShardingOf>
  absl::Status exportValues(FuncOp func, DictListAttr attrs, unsigned count,
                            std::string_view kind,
                            const ShardingOf& sharding_of) {
    for (unsigned i = 0; i < count; ++i) {
      const TensorSharding* s = sharding_of(i);
      if (!s) continue;
      absl::StatusOr<HloSharding> hlo = convert(*s, func.op());
      if (!hlo.ok()) {
        return passes_internal::functionValueError(func.op(), hlo.status(),
                                                   kind, i);
      }
      attrs.removeEntry(i, kShardingAttr);
      attrs.setEntry(i, kMhloShardingAttr, Attribute::string(toString(*hlo)));
    }
    return absl::OkStatus();
  }

  absl::Status exportOp(Op op) {
    const TensorShardingPerValue* shardings =
        op.attr(kShardingAttr).as<TensorShardingPerValue>();
    if (!shardings) return absl::OkStatus();
    std::vector<HloSharding> converted;
    for (const TensorSharding& s : shardings->items) {
      absl::StatusOr<HloSharding> hlo = convert(s, op);
      if (!hlo.ok()) return locatedError(op, fromAbsl(hlo.status().message()));
      converted.push_back(*std::move(hlo));
    }
    HloSharding result;
    if (converted.size() == 1) {
      result = std::move(converted.front());
    } else {
      result.kind = HloShardingKind::kTuple;
      result.elements = std::move(converted);
    }
    std::string text = toString(result);
    op.removeAttr(kShardingAttr);
    op.setAttr(kMhloShardingAttr, Attribute::string(std::move(text)));
    return absl::OkStatus();
  }

 private:
  // The manual axes of the sdy.manual_computation ops around `op`.
  static std::vector<std::string> manualAxesAround(Op op) {
    std::vector<std::string> axes;
    for (Op parent = op.parentOp(); parent; parent = parent.parentOp()) {
      if (auto manual = dynCast<sdy::ManualComputationOp>(parent)) {
        for (const std::string& name : manual.manualAxes())
          axes.push_back(name);
      }
    }
    return axes;
  }

  MeshTable meshes_;
};

}  // namespace

absl::Status exportGspmdShardings(Module& module) {
  GspmdExporter exporter(module);
  std::vector<Op> ops;
  ir_internal::collectPreOrder(module.body(), ops);
  for (Op op : ops) {
    if (auto func = dynCast<FuncOp>(op)) {
      SK_RETURN_IF_ERROR(exporter.exportFunction(func));
    } else {
      SK_RETURN_IF_ERROR(exporter.exportOp(op));
    }
  }
  return absl::OkStatus();
}

void registerGspmdPasses() {
  registerPass(PassInfo{
      "sdy-import-gspmd-shardings",
      "Reads GSPMD mhlo.sharding attributes (XLA HloSharding text) as sdy "
      "shardings.",
      {{"mesh",
        "the mesh the tilings are expressed on (default: the only mesh)"}},
      [](Module& module, const PassOptions& options) {
        return importGspmdShardings(module, options.get("mesh"));
      }});
  registerPass(
      optionlessPass("sdy-export-gspmd-shardings",
                     "Writes sdy shardings as GSPMD mhlo.sharding attributes.",
                     exportGspmdShardings));
}

}  // namespace shardkit
