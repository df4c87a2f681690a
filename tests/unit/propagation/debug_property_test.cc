// Property tests of the propagation debug records over random modules
// (random_module.h), for every seed, edge mode and option set:
//   1. propagating with debug-sharding-origins and
//      debug-propagation-edge-sharding gives exactly the shardings of
//      propagating without them (the records are all that differs);
//   2. every origin names something that exists before propagation: "self",
//      or `input: i` / `output: i` of a function argument or result that had
//      a sharding, or `constraint_N` / `mc_N_input: i` / `mc_N_output: i` of
//      a constraint or manual computation given that name; and the origin's
//      user sharding (or, for a constraint, its input's sharding) shards
//      along the recorded axis's mesh axis (a split or merged axis takes the
//      origin of a part of the same mesh axis, as in the reference, so the
//      sub-axes themselves may differ);
//   3. the module with its records verifies (steps, indices, mesh axes).
// More seeds: SHARDKIT_PROPERTY_SEEDS=N and SHARDKIT_PROPERTY_FIRST_SEED=S.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "shardkit/asm/module_io.h"
#include "shardkit/core/axis_ref_list.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/dialect/verify_module.h"
#include "shardkit/propagation/debug_info.h"
#include "shardkit/propagation/propagate.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/parse.h"
#include "unit/propagation/random_module.h"

namespace shardkit {
namespace {

using testing::RandomModuleOptions;
using testing::randomModuleText;

uint64_t envOr(const char* name, uint64_t fallback) {
  const char* value = std::getenv(name);
  return value ? std::strtoull(value, nullptr, 10) : fallback;
}

constexpr uint64_t kSeeds = 150;

std::string message(const absl::Status& status) {
  return std::string(fromAbsl(status.message()));
}

std::vector<std::pair<const char*, PropagationOptions>> optionSets() {
  PropagationOptions basic;
  PropagationOptions aggressive;
  aggressive.strategy = PropagationStrategy::kAggressive;
  PropagationOptions pipeline = aggressive;
  pipeline.op_priorities = true;
  pipeline.user_priorities = true;
  return {{"basic", basic},
          {"aggressive", aggressive},
          {"aggressive+op-priorities+user-priorities", pipeline}};
}

// The axes of every user sharding an origin can name, by origin name,
// before propagation: "input: i", "output: i", "constraint_N" (its sharding
// and its input's), "mc_N_input: i" / "mc_N_output: i".
using UserAxes = std::map<std::string, AxisRefVector>;

void addAxes(UserAxes& user, const std::string& name,
             const std::optional<TensorSharding>& sharding) {
  AxisRefVector& axes = user[name];
  if (!sharding) return;
  for (const DimensionSharding& dim : sharding->dim_shardings) {
    axes.insert(axes.end(), dim.axes.begin(), dim.axes.end());
  }
}

UserAxes userShardings(Module& m) {
  UserAxes user;
  for (Op op : m.functions()) {
    FuncOp func(op);
    for (unsigned i = 0; i < func.numArguments(); ++i) {
      if (std::optional<TensorSharding> s = getSharding(func.argument(i))) {
        addAxes(user, strCat("input: ", i), s);
      }
    }
    for (unsigned i = 0; i < func.numResults(); ++i) {
      if (const TensorSharding* s = findFuncResultSharding(func, i)) {
        addAxes(user, strCat("output: ", i), *s);
      }
    }
  }
  int64_t constraint = 0;
  std::vector<Op> ops;
  m.walk([&](Op op) { ops.push_back(op); });
  for (Op op : ops) {
    if (op.name() != "sdy.sharding_constraint") continue;
    std::string name = strCat("constraint_", constraint++);
    addAxes(user, name, getSharding(op.result(0)));
    addAxes(user, name, getSharding(op.operand(0)));
  }
  return user;
}

// Every (place, axis, origin) of the module's origin records.
struct OriginEntry {
  std::string where;
  std::string axis;
  std::string origin;
};

void addEntries(const std::string& where, const Attribute& attr,
                std::vector<OriginEntry>& out) {
  if (const std::vector<Attribute>* list = attr.asArray()) {
    for (size_t i = 0; i < list->size(); ++i) {
      addEntries(strCat(where, "[", i, "]"), (*list)[i], out);
    }
    return;
  }
  const std::vector<NamedAttribute>* dict = attr.asDict();
  if (!dict) return;
  for (const NamedAttribute& entry : *dict) {
    const std::string* origin = entry.value.asString();
    out.push_back({where, entry.name, origin ? *origin : "<not a string>"});
  }
}

std::vector<OriginEntry> originEntries(Module& m) {
  std::vector<OriginEntry> entries;
  for (Op op : m.functions()) {
    FuncOp func(op);
    for (unsigned i = 0; i < func.numArguments(); ++i) {
      addEntries(strCat("arg ", i), func.argAttr(i, kShardingOriginsAttr),
                 entries);
    }
    for (unsigned i = 0; i < func.numResults(); ++i) {
      addEntries(strCat("result ", i), func.resultAttr(i, kShardingOriginsAttr),
                 entries);
    }
  }
  m.walk([&](Op op) {
    addEntries(strCat(op.name(), " #", op.id()), op.attr(kShardingOriginsAttr),
               entries);
  });
  return entries;
}

// The violations of property 2 by `entry`.
std::optional<std::string> checkOrigin(const OriginEntry& entry,
                                       const UserAxes& user) {
  auto fail = [&](std::string_view why) {
    return strCat(entry.where, ": ", entry.axis, " = \"", entry.origin,
                  "\": ", why);
  };
  // The key is the axis ref without quotes: quote the name back.
  std::string axis_text = entry.axis;
  size_t colon = axis_text.find(':');
  std::string quoted = colon == std::string::npos
                           ? strCat("\"", axis_text, "\"")
                           : strCat("\"", axis_text.substr(0, colon), "\"",
                                    axis_text.substr(colon));
  absl::StatusOr<AxisRef> axis = parseAxisRef(quoted);
  if (!axis.ok()) return fail("the key is not an axis ref");
  if (entry.origin == "self") return std::nullopt;
  auto it = user.find(entry.origin);
  if (it == user.end()) return fail("no such user sharding");
  for (const AxisRef& other : it->second) {
    if (other.name == axis->name) return std::nullopt;
  }
  return fail("the user sharding has no such axis");
}

TEST_CASE("debug records: same shardings, and origins that exist") {
  const uint64_t first = envOr("SHARDKIT_PROPERTY_FIRST_SEED", 1);
  const uint64_t count = envOr("SHARDKIT_PROPERTY_SEEDS", kSeeds);
  int failures = 0;
  int64_t origins_checked = 0;
  for (uint64_t seed = first; seed < first + count && failures < 3; ++seed) {
    for (bool edges : {false, true}) {
      RandomModuleOptions gen;
      gen.data_flow_edges = edges;
      std::string text = randomModuleText(seed, gen);
      for (const auto& [name, options] : optionSets()) {
        std::vector<std::string> violations;
        absl::StatusOr<std::unique_ptr<Module>> plain =
            parseModule(text, "random.mlir");
        absl::StatusOr<std::unique_ptr<Module>> debug =
            parseModule(text, "random.mlir");
        REQUIRE(plain.ok());
        REQUIRE(debug.ok());
        UserAxes user = userShardings(**debug);
        PropagationOptions with_records = options;
        with_records.debug.sharding_origins = true;
        with_records.debug.propagation_edges = true;
        absl::StatusOr<PropagationStats> a = propagate(**plain, options);
        absl::StatusOr<PropagationStats> b = propagate(**debug, with_records);
        if (!a.ok() || !b.ok()) {
          violations.push_back("propagate failed");
        } else {
          if (absl::Status s = verifyModule(**debug); !s.ok()) {
            violations.push_back("verify with records: " + message(s));
          }
          for (const OriginEntry& entry : originEntries(**debug)) {
            ++origins_checked;
            if (std::optional<std::string> v = checkOrigin(entry, user)) {
              violations.push_back(*v);
            }
          }
          std::string with = printModule(**debug);
          removePropagationDebugInfo(**debug);
          (*debug)->walk([](Op op) { op.removeAttr(kShardingOriginNameAttr); });
          if (printModule(**debug) != printModule(**plain)) {
            violations.push_back("the shardings differ:\n" + with);
          }
        }
        if (violations.empty()) continue;
        ++failures;
        INFO(strCat("seed ", seed, ", data_flow_edges=", edges, ", ", name));
        INFO(strCat("module:\n", text));
        std::string report;
        for (const std::string& v : violations) strAppend(report, v, "\n");
        INFO(report);
        CHECK(violations.empty());
        break;
      }
    }
  }
  // The random modules do have user shardings that travel.
  CHECK(origins_checked > 100);
}

}  // namespace
}  // namespace shardkit
