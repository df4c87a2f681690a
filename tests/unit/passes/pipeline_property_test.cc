// Property test of the propagation pipeline over random modules
// (unit/propagation/random_module.h): import, propagation with the pipeline's
// options, export — what -sdy-propagation-pipeline runs
// (src/passes/propagation_passes.cc). For every seed, with and without
// data-flow edges already in the module, the result
//   - verifies, and so does each of its shardings against its mesh and the
//     type of its value;
//   - has only closed shardings, without replicated axes or priorities
//     (closeShardings; unreduced axes stay, and the generator makes none);
//   - has no sdy.data_flow_edge, sdy.sharding_group or
//     sdy.sharding_constraint left, each constraint having become an
//     sdy.reshard (erased if unused);
//   - keeps every closed dimension of the user's function argument and
//     result shardings, and only adds axes to their open dimensions, up to
//     the cut to an even sharding (and, for main, before a sub-axis); the
//     user's shardings are taken without their axes of size 1, which the
//     import's -sdy-remove-size-one-axes drops;
//   - is the module the registered `sdy-propagation-pipeline` pass produces.
//
// A failure prints the seed and the module text. More seeds:
// SHARDKIT_PROPERTY_SEEDS=N (and SHARDKIT_PROPERTY_FIRST_SEED=S).
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/asm/module_io.h"
#include "shardkit/core/axis_ref_list.h"
#include "shardkit/core/sharding_math.h"
#include "shardkit/core/verify.h"
#include "shardkit/dialect/verify_module.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/import_passes.h"
#include "shardkit/passes/pass.h"
#include "shardkit/propagation/propagate.h"
#include "shardkit/support/strings.h"
#include "unit/propagation/random_module.h"
#include "unit/propagation/sharding_sites.h"

namespace shardkit {
namespace {

using testing::collectShardings;
using testing::RandomModuleOptions;
using testing::randomModuleText;
using testing::ShardingSite;

constexpr uint64_t kSeeds = 300;

uint64_t envOr(const char* name, uint64_t fallback) {
  const char* value = std::getenv(name);
  return value ? std::strtoull(value, nullptr, 10) : fallback;
}

std::string message(const absl::Status& status) {
  return std::string(fromAbsl(status.message()));
}

size_t countOps(Module& module, std::string_view name) {
  size_t n = 0;
  module.walk([&](Op op) { n += op.name() == name ? 1 : 0; });
  return n;
}

// The pipeline as src/passes/propagation_passes.cc composes it.
absl::Status runPipeline(Module& module) {
  if (absl::Status s = runImportPipeline(module); !s.ok()) return s;
  PropagationOptions options;
  options.strategy = PropagationStrategy::kAggressive;
  options.op_priorities = true;
  options.user_priorities = true;
  if (absl::StatusOr<PropagationStats> stats = propagate(module, options);
      !stats.ok()) {
    return stats.status();
  }
  // Propagation already dropped the rules it did not keep.
  ExportOptions export_options;
  export_options.keep_sharding_rules = true;
  return runExportPipeline(module, export_options);
}

// The violations of the boundary rules between a user sharding of a
// function argument or result and what the pipeline left there: propagation
// only adds axes to open dimensions, then export cuts every dimension to the
// prefix that shards it evenly, and the main function's open dimensions to
// the axes before their first sub-axis.
void compareFuncSharding(const ShardingSite& user, const ShardingSite* now,
                         const MeshTable& meshes,
                         std::vector<std::string>& violations) {
  if (!now) {
    violations.push_back(strCat(user.where, ": the user's sharding ",
                                toString(user.sharding), " is gone"));
    return;
  }
  const TensorSharding& u = user.sharding;
  const TensorSharding& n = now->sharding;
  auto fail = [&](const std::string& what) {
    violations.push_back(strCat(user.where, ": ", toString(u), " became ",
                                toString(n), ": ", what));
  };
  if (!(u.mesh == n.mesh)) fail("the mesh changed");
  if (u.rank() != n.rank()) return fail("the rank changed");
  for (int64_t d = 0; d < u.rank(); ++d) {
    const DimensionSharding& ud = u.dim_shardings[d];
    const DimensionSharding& nd = n.dim_shardings[d];
    bool kept = ud.is_closed ? isAxisListPrefixOf(nd.axes, ud.axes)
                             : isAxisListPrefixOf(ud.axes, nd.axes) ||
                                   isAxisListPrefixOf(nd.axes, ud.axes);
    if (!kept) {
      fail(strCat(ud.is_closed ? "closed" : "open", " dimension ", d,
                  " changed its axes"));
    }
  }
  const Mesh* mesh = meshes.resolve(n);
  if (mesh && now->type.isRankedTensor() && now->type.hasStaticShape() &&
      !(evenlySharded(n, now->type.shape(), *mesh) == n)) {
    fail("not evenly sharded");
  }
}

// What the pipeline must leave behind; `before` are the user's shardings.
std::vector<std::string> pipelineViolations(
    Module& module, const std::string& text,
    const std::vector<ShardingSite>& before) {
  std::vector<std::string> violations;
  if (absl::Status s = verifyModule(module); !s.ok()) {
    violations.push_back("verifyModule: " + message(s));
  }
  MeshTable meshes = module.meshTable();
  absl::flat_hash_map<std::string, ShardingSite> after;
  for (ShardingSite& site : collectShardings(module, text)) {
    const TensorSharding& s = site.sharding;
    if (absl::Status status =
            verifyTensorSharding(s, meshes, site.type.shapeView());
        !status.ok()) {
      violations.push_back(strCat(site.where, ": ", toString(s), " on ",
                                  site.type.str(), ": ", message(status)));
    }
    for (const DimensionSharding& dim : s.dim_shardings) {
      if (!dim.is_closed || dim.priority) {
        violations.push_back(strCat(site.where, ": ", toString(s),
                                    " has an open or prioritized dimension"));
        break;
      }
    }
    if (!s.replicated_axes.empty()) {
      violations.push_back(
          strCat(site.where, ": ", toString(s), " kept replicated axes"));
    }
    std::string where = site.where;
    after.emplace(std::move(where), std::move(site));
  }
  for (const char* op : {"sdy.data_flow_edge", "sdy.sharding_group",
                         "sdy.sharding_constraint"}) {
    if (size_t n = countOps(module, op)) {
      violations.push_back(strCat(n, " ", op, " left"));
    }
  }
  // Function shardings: their places survive the pipeline.
  for (const ShardingSite& user : before) {
    if (user.where.rfind("@", 0) != 0) continue;
    auto it = after.find(user.where);
    compareFuncSharding(user, it == after.end() ? nullptr : &it->second, meshes,
                        violations);
  }
  return violations;
}

TEST_CASE("pipeline property: import, propagate, export closes and verifies") {
  const uint64_t first = envOr("SHARDKIT_PROPERTY_FIRST_SEED", 1);
  const uint64_t count = envOr("SHARDKIT_PROPERTY_SEEDS", kSeeds);
  int failures = 0;
  int64_t modules = 0;
  for (uint64_t seed = first; seed < first + count && failures < 3; ++seed) {
    for (bool edges : {false, true}) {
      RandomModuleOptions gen;
      gen.data_flow_edges = edges;
      std::string text = randomModuleText(seed, gen);
      std::vector<std::string> violations;
      std::string after;
      absl::StatusOr<std::unique_ptr<Module>> parsed =
          parseModule(text, "random.mlir", {.verify = false});
      if (!parsed.ok()) {
        violations.push_back("parse: " + message(parsed.status()));
      } else if (absl::Status s = verifyModule(**parsed); !s.ok()) {
        violations.push_back("verify before the pipeline: " + message(s));
      } else {
        Module& module = **parsed;
        // The user's shardings as the import sees them.
        absl::StatusOr<std::unique_ptr<Module>> user =
            parseModule(text, "random.mlir");
        REQUIRE(user.ok());
        REQUIRE(removeSizeOneAxes(**user).ok());
        std::vector<ShardingSite> before = collectShardings(**user, text);
        if (absl::Status s = runPipeline(module); !s.ok()) {
          violations.push_back("pipeline: " + message(s));
        } else {
          after = printModule(module);
          violations = pipelineViolations(module, text, before);
          // The registered pass composes the same steps.
          absl::StatusOr<std::unique_ptr<Module>> again =
              parseModule(text, "random.mlir");
          absl::Status s2 =
              again.ok() ? runPass(**again, "sdy-propagation-pipeline", {})
                         : again.status();
          if (!s2.ok()) {
            violations.push_back("sdy-propagation-pipeline: " + message(s2));
          } else if (printModule(**again) != after) {
            violations.push_back(
                "sdy-propagation-pipeline gives another module:\n" +
                printModule(**again));
          }
        }
      }
      ++modules;
      if (violations.empty()) continue;
      ++failures;
      std::string report;
      for (const std::string& v : violations) strAppend(report, v, "\n");
      INFO(strCat("seed ", seed,
                  ", data_flow_edges=", edges ? "true" : "false"));
      INFO(strCat("module:\n", text));
      INFO(strCat("after the pipeline:\n", after));
      INFO(strCat("violations:\n", report));
      CHECK(violations.empty());
    }
  }
  CHECK(modules > 0);
}

}  // namespace
}  // namespace shardkit
