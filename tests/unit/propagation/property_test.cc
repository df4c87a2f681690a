// Property tests of propagate() over random modules (random_module.h): for
// every seed and every option set,
//   1. the propagated module verifies, and so does each of its shardings
//      against its mesh and the type of its value;
//   2. propagating again changes nothing (no update, same text);
//   3. a dimension the user closed keeps its axes, a fully closed user
//      sharding is unchanged, and an open user dimension only grows;
//   4. explicitly replicated axes stay out of the dimension shardings;
//   5. the members of a sharding group end with the same sharding.
//
// A failure prints the seed, whether the module had data-flow edges, the
// option set and the module text. More seeds: SHARDKIT_PROPERTY_SEEDS=N (and
// SHARDKIT_PROPERTY_FIRST_SEED=S) in the environment.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/asm/module_io.h"
#include "shardkit/core/axis_ref_list.h"
#include "shardkit/core/verify.h"
#include "shardkit/dialect/verify_module.h"
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

uint64_t envOr(const char* name, uint64_t fallback) {
  const char* value = std::getenv(name);
  return value ? std::strtoull(value, nullptr, 10) : fallback;
}

// Per option set and edge mode; the whole file runs 2 * 5 * kSeeds modules.
constexpr uint64_t kSeeds = 300;

struct NamedOptions {
  const char* name;
  PropagationOptions options;
};

std::vector<NamedOptions> optionSets() {
  PropagationOptions basic;
  PropagationOptions aggressive;
  aggressive.strategy = PropagationStrategy::kAggressive;
  PropagationOptions staged = aggressive;
  staged.strategy = PropagationStrategy::kBasicThenAggressive;
  staged.op_priorities = true;
  // What -sdy-propagation-pipeline and -sdy-user-priority-propagate use.
  PropagationOptions pipeline = aggressive;
  pipeline.op_priorities = true;
  pipeline.user_priorities = true;
  PropagationOptions conservative = aggressive;
  conservative.conservative = true;
  return {{"basic", basic},
          {"aggressive", aggressive},
          {"basic-then-aggressive+op-priorities", staged},
          {"aggressive+op-priorities+user-priorities", pipeline},
          {"aggressive+conservative", conservative}};
}

std::string message(const absl::Status& status) {
  return std::string(fromAbsl(status.message()));
}

// One generated module, parsed, with what the checks compare against.
struct Case {
  const NamedOptions* options = nullptr;
  std::string text;
  std::unique_ptr<Module> module;
  std::vector<ShardingSite> before;  // the user's shardings
};

// A property: the violations it finds in `c` after the first propagation.
using Property = std::function<std::vector<std::string>(Case& c)>;

// Runs `property` on every seed, edge mode and option set. A module that
// does not parse or verify, or a propagation error, is a violation too. At
// most three failing cases are reported.
void checkProperty(const Property& property) {
  const uint64_t first = envOr("SHARDKIT_PROPERTY_FIRST_SEED", 1);
  const uint64_t count = envOr("SHARDKIT_PROPERTY_SEEDS", kSeeds);
  const std::vector<NamedOptions> sets = optionSets();
  int failures = 0;
  int64_t modules = 0;
  for (uint64_t seed = first; seed < first + count && failures < 3; ++seed) {
    for (bool edges : {false, true}) {
      RandomModuleOptions gen;
      gen.data_flow_edges = edges;
      std::string text = randomModuleText(seed, gen);
      for (const NamedOptions& set : sets) {
        Case c{&set, text, nullptr, {}};
        std::vector<std::string> violations;
        absl::StatusOr<std::unique_ptr<Module>> parsed =
            parseModule(text, "random.mlir", {.verify = false});
        if (!parsed.ok()) {
          violations.push_back("parse: " + message(parsed.status()));
        } else if (absl::Status s = verifyModule(**parsed); !s.ok()) {
          violations.push_back("verify before propagation: " + message(s));
        } else {
          c.module = std::move(*parsed);
          c.before = collectShardings(*c.module, text);
          absl::StatusOr<PropagationStats> stats =
              propagate(*c.module, set.options);
          if (!stats.ok()) {
            violations.push_back("propagate: " + message(stats.status()));
          } else {
            violations = property(c);
          }
        }
        ++modules;
        if (violations.empty()) continue;
        ++failures;
        std::string report;
        for (const std::string& v : violations) strAppend(report, v, "\n");
        INFO(strCat("seed ", seed, ", data_flow_edges=",
                    edges ? "true" : "false", ", options ", set.name));
        INFO(strCat("module:\n", text));
        INFO(strCat("after propagation (and the property's own steps):\n",
                    c.module ? printModule(*c.module) : "-"));
        INFO(strCat("violations:\n", report));
        CHECK(violations.empty());
        break;
      }
    }
  }
  CHECK(modules > 0);
}

// The shardings of `c.module` by place.
absl::flat_hash_map<std::string, ShardingSite> sitesByPlace(Case& c) {
  absl::flat_hash_map<std::string, ShardingSite> sites;
  for (ShardingSite& site : collectShardings(*c.module, c.text)) {
    std::string where = site.where;
    sites.emplace(std::move(where), std::move(site));
  }
  return sites;
}

// --- 1. Everything verifies --------------------------------------------------

TEST_CASE("propagation property: every sharding verifies after propagation") {
  checkProperty([](Case& c) {
    std::vector<std::string> violations;
    if (absl::Status s = verifyModule(*c.module); !s.ok()) {
      violations.push_back("verifyModule: " + message(s));
    }
    MeshTable meshes = c.module->meshTable();
    for (const ShardingSite& site : collectShardings(*c.module, c.text)) {
      if (!site.type.isRankedTensor()) {
        violations.push_back(
            strCat(site.where, ": sharding on ", site.type.str()));
        continue;
      }
      absl::Status s =
          verifyTensorSharding(site.sharding, meshes, site.type.shapeView());
      if (!s.ok()) {
        violations.push_back(strCat(site.where, ": ", toString(site.sharding),
                                    " on ", site.type.str(), ": ", message(s)));
      }
    }
    return violations;
  });
}

// --- 2. Idempotence ----------------------------------------------------------

// The first line where `a` and `b` differ, from both.
std::string firstDifference(const std::string& a, const std::string& b) {
  size_t start = 0;
  while (true) {
    size_t end_a = a.find('\n', start), end_b = b.find('\n', start);
    std::string line_a = a.substr(start, end_a - start);
    std::string line_b = b.substr(start, end_b - start);
    if (line_a != line_b || end_a == std::string::npos ||
        end_b == std::string::npos) {
      return strCat("after the first run:  ", line_a,
                    "\nafter the second run: ", line_b);
    }
    start = end_a + 1;
  }
}

TEST_CASE("propagation property: a second propagation changes nothing") {
  checkProperty([](Case& c) {
    std::vector<std::string> violations;
    std::string once = printModule(*c.module);
    absl::StatusOr<PropagationStats> again =
        propagate(*c.module, c.options->options);
    if (!again.ok()) {
      return std::vector<std::string>{"second propagate: " +
                                      message(again.status())};
    }
    if (again->updates != 0) {
      violations.push_back(
          strCat("second propagation made ", again->updates, " updates"));
    }
    std::string twice = printModule(*c.module);
    if (twice != once) {
      violations.push_back(
          strCat("the text changed:\n", firstDifference(once, twice)));
    }
    return violations;
  });
}

// --- 3. Closed stays closed --------------------------------------------------
//
// The exact rule, for every sharding in the module before propagation (the
// user's: function arguments and results, `sdy.sharding` on op results,
// sharding constraints, data-flow edges), compared with the sharding at the
// same place afterwards:
//   - the mesh, rank, replicated and unreduced axes are unchanged;
//   - a closed dimension stays closed with exactly the same axes;
//   - an open dimension stays open and its axes only grow: the old axes are a
//     prefix of the new ones (isAxisListPrefixOf, so "b":(1)2 may become "b");
//   - priorities: with user priorities the driver drops every priority after
//     the last round (dropAllPriorities, as the reference does), so no
//     dimension has one afterwards. Without them, a sharding that
//     propagation rewrites loses the priorities of all its dimensions (the
//     reference rebuilds the dimension shardings of an updated tensor without
//     priorities, TensorFactorShardings::createTensorShardingAttr), and one
//     it leaves alone keeps them: either the sharding is exactly the user's,
//     or no dimension has a priority.
// Hence a fully closed user sharding, which nothing can expand, is unchanged
// entirely, but for the priorities dropped in the user-priority mode.

std::vector<std::string> compareWithUser(const ShardingSite& user,
                                         const ShardingSite* now,
                                         bool priorities_dropped) {
  if (!now) {
    return {strCat(user.where, ": the user's sharding ",
                   toString(user.sharding), " is gone")};
  }
  const TensorSharding& u = user.sharding;
  const TensorSharding& n = now->sharding;
  std::vector<std::string> violations;
  auto fail = [&](const std::string& what) {
    violations.push_back(strCat(user.where, ": ", toString(u), " became ",
                                toString(n), ": ", what));
  };
  if (!(u.mesh == n.mesh)) fail("the mesh changed");
  if (u.replicated_axes != n.replicated_axes) {
    fail("the replicated axes changed");
  }
  if (u.unreduced_axes != n.unreduced_axes) fail("the unreduced axes changed");
  if (u.rank() != n.rank()) {
    fail("the rank changed");
    return violations;
  }
  bool fully_closed = true;
  bool any_priority = false;
  for (const DimensionSharding& dim : n.dim_shardings) {
    any_priority = any_priority || dim.priority.has_value();
  }
  if (any_priority && (priorities_dropped || !(u == n))) {
    fail(priorities_dropped ? "a priority survived the user-priority rounds"
                            : "changed but kept priorities");
  }
  for (int64_t d = 0; d < u.rank(); ++d) {
    const DimensionSharding& ud = u.dim_shardings[d];
    const DimensionSharding& nd = n.dim_shardings[d];
    fully_closed = fully_closed && ud.is_closed;
    if (ud.is_closed != nd.is_closed) {
      fail(strCat("dimension ", d, " changed open/closed"));
    } else if (ud.is_closed && ud.axes != nd.axes) {
      fail(strCat("closed dimension ", d, " changed its axes"));
    } else if (!ud.is_closed && !isAxisListPrefixOf(ud.axes, nd.axes)) {
      fail(strCat("open dimension ", d, " lost axes"));
    }
  }
  if (fully_closed) {
    TensorSharding expected = u;
    if (priorities_dropped) {
      for (DimensionSharding& dim : expected.dim_shardings) {
        dim.priority.reset();
      }
    }
    if (!(expected == n)) fail("a fully closed sharding changed");
  }
  return violations;
}

TEST_CASE("propagation property: closed user dimensions are unchanged") {
  checkProperty([](Case& c) {
    std::vector<std::string> violations;
    absl::flat_hash_map<std::string, ShardingSite> now = sitesByPlace(c);
    for (const ShardingSite& user : c.before) {
      auto it = now.find(user.where);
      for (std::string& v :
           compareWithUser(user, it == now.end() ? nullptr : &it->second,
                           c.options->options.user_priorities)) {
        violations.push_back(std::move(v));
      }
    }
    return violations;
  });
}

// --- 4. Replicated axes stay replicated --------------------------------------

TEST_CASE("propagation property: replicated axes never shard a dimension") {
  checkProperty([](Case& c) {
    std::vector<std::string> violations;
    for (const ShardingSite& site : collectShardings(*c.module, c.text)) {
      site.sharding.forEachShardingAxis([&](const AxisRef& axis) {
        if (overlapsAny(site.sharding.replicated_axes, axis)) {
          violations.push_back(strCat(site.where, ": ", toString(site.sharding),
                                      " shards a dimension with replicated ",
                                      toString(axis)));
        }
      });
    }
    return violations;
  });
}

// --- 5. Sharding groups ------------------------------------------------------
//
// The members of a group end alike. The reference, before propagating, gives
// every member the sharding of the members that have one that says anything
// (it skips missing shardings and those with only open, empty dimensions:
// findCommonSharding in sharding_group_map.cc), and later gives each update
// of a member to all members. So afterwards either all members have the same
// sharding, or none of them has one that says anything. (The generator never
// gives two members of a group shardings of their own, so the reference's
// handling of conflicting initial shardings does not come up.)

bool saysNothing(const std::optional<TensorSharding>& s) {
  if (!s) return true;
  for (const DimensionSharding& dim : s->dim_shardings) {
    if (dim.is_closed || !dim.axes.empty()) return false;
  }
  return true;
}

TEST_CASE("propagation property: sharding group members end up alike") {
  checkProperty([](Case& c) {
    std::vector<std::string> violations;
    absl::flat_hash_map<int64_t, std::vector<Value>> groups;
    c.module->walk([&](Op op) {
      if (op.name() != "sdy.sharding_group") return;
      groups[op.attr("group_id").intValue().value_or(-1)].push_back(
          op.operand(0));
    });
    auto text = [](const std::optional<TensorSharding>& s) {
      return s ? toString(*s) : std::string("none");
    };
    for (const auto& [id, members] : groups) {
      std::optional<TensorSharding> first = getSharding(members.front());
      for (size_t i = 1; i < members.size(); ++i) {
        std::optional<TensorSharding> other = getSharding(members[i]);
        if (first == other || (saysNothing(first) && saysNothing(other))) {
          continue;
        }
        violations.push_back(strCat("group ", id, ": member 0 has ",
                                    text(first), ", member ", i, " has ",
                                    text(other)));
      }
    }
    return violations;
  });
}

// --- The generator itself ----------------------------------------------------

TEST_CASE("random modules: deterministic per seed and varied across seeds") {
  CHECK(randomModuleText(7) == randomModuleText(7));
  CHECK(randomModuleText(7) != randomModuleText(8));
  RandomModuleOptions edges;
  edges.data_flow_edges = true;
  // Over a few hundred seeds, every construct the generator promises occurs.
  std::string all;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    all += randomModuleText(seed, seed % 2 ? RandomModuleOptions{} : edges);
  }
  // clang-format off
  for (const char* construct : {
           "stablehlo.abs", "stablehlo.add", "stablehlo.transpose",
           "stablehlo.reshape", "stablehlo.broadcast_in_dim",
           "stablehlo.dot_general", "batching_dims", "reducer(", "applies",
           "stablehlo.concatenate", "stablehlo.slice",
           "sdy.sharding_constraint", "sdy.propagation_barrier",
           "stablehlo.optimization_barrier", "stablehlo.while",
           "sdy.data_flow_edge", "sdy.sharding_group",
           "sdy.sharding_per_value", "@mesh2", "replicated={", "?}", "}p0",
           "}p1", "}p2", ":(1)2", ":(2)", "\"=1", "x1x"}) {
    // clang-format on
    INFO(construct);
    CHECK(all.find(construct) != std::string::npos);
  }
  // Some size-0 dimension.
  CHECK((all.find("<0x") != std::string::npos ||
         all.find("x0x") != std::string::npos));
}

TEST_CASE("random modules: give propagation something to do") {
  // Most modules change: the properties above are not vacuous.
  int changed = 0;
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    absl::StatusOr<std::unique_ptr<Module>> module =
        parseModule(randomModuleText(seed), "random.mlir");
    REQUIRE(module.ok());
    PropagationOptions options;
    options.strategy = PropagationStrategy::kAggressive;
    absl::StatusOr<PropagationStats> stats = propagate(**module, options);
    REQUIRE(stats.ok());
    changed += stats->updates > 0 ? 1 : 0;
  }
  CHECK(changed >= 70);
}

}  // namespace
}  // namespace shardkit
