// Helpers for the propagation unit tests: parse attributes from their text
// and run one propagation step on shardings given as text.
#ifndef SHARDKIT_TESTS_UNIT_FACTOR_PROPAGATION_PROPAGATION_TEST_UTIL_H_
#define SHARDKIT_TESTS_UNIT_FACTOR_PROPAGATION_PROPAGATION_TEST_UTIL_H_

#include <catch2/catch.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "shardkit/core/mesh_table.h"
#include "shardkit/factor_propagation/propagate_op.h"
#include "shardkit/factor_propagation/resolved_axis.h"
#include "shardkit/factor_propagation/sharding_projection.h"
#include "shardkit/text/parse.h"

namespace shardkit::testing {

inline Mesh parseMeshOrDie(const std::string& text) {
  absl::StatusOr<Mesh> mesh = parseMesh(text);
  INFO(text << ": " << mesh.status().ToString());
  REQUIRE(mesh.ok());
  return *mesh;
}

inline TensorSharding parseShardingOrDie(const std::string& text) {
  absl::StatusOr<TensorSharding> sharding = parseTensorSharding(text);
  INFO(text << ": " << sharding.status().ToString());
  REQUIRE(sharding.ok());
  return *sharding;
}

inline OpShardingRule parseRuleOrDie(const std::string& text) {
  absl::StatusOr<OpShardingRule> rule = parseOpShardingRule(text);
  INFO(text << ": " << rule.status().ToString());
  REQUIRE(rule.ok());
  return *rule;
}

inline AxisRef axisRef(const std::string& text) {
  absl::StatusOr<AxisRef> axis = parseAxisRef(text);
  INFO(text << ": " << axis.status().ToString());
  REQUIRE(axis.ok());
  return *axis;
}

inline ResolvedAxis resolved(const std::string& text, const Mesh& mesh) {
  absl::StatusOr<ResolvedAxis> axis = resolveAxis(axisRef(text), mesh);
  INFO(text << ": " << axis.status().ToString());
  REQUIRE(axis.ok());
  return *axis;
}

// `{"a", "b":(1)2}` -> resolved axes.
// The projection of shardings given as text (operands, then results) onto
// `rule`, missing shardings closed; fails the test if it does not build.
inline ShardingProjection projectOrDie(
    const Mesh& mesh, const OpShardingRule& rule,
    const std::vector<std::string>& operands,
    const std::vector<std::string>& results) {
  std::vector<TensorSharding> storage;
  for (const std::string& s : operands)
    storage.push_back(parseShardingOrDie(s));
  for (const std::string& s : results) storage.push_back(parseShardingOrDie(s));
  std::vector<const TensorSharding*> pointers;
  for (const TensorSharding& s : storage) pointers.push_back(&s);
  absl::Span<const TensorSharding* const> all(pointers);
  absl::StatusOr<ShardingProjection> projection = ShardingProjection::build(
      all.subspan(0, operands.size()), all.subspan(operands.size()), rule, mesh,
      ProjectionOptions{/*closed_if_missing=*/true, std::nullopt});
  INFO(projection.status().ToString());
  REQUIRE(projection.ok());
  return *std::move(projection);
}

inline AxisList resolvedList(const std::string& text, const Mesh& mesh) {
  absl::StatusOr<AxisRefList> list = parseAxisRefList(text);
  INFO(text << ": " << list.status().ToString());
  REQUIRE(list.ok());
  AxisList out;
  REQUIRE(resolveAxes(list->items, mesh, out).ok());
  return out;
}

// Shardings as text, "" for a missing one.
inline std::vector<std::optional<TensorSharding>> parseShardings(
    const std::vector<std::string>& texts) {
  std::vector<std::optional<TensorSharding>> out;
  for (const std::string& text : texts) {
    if (text.empty()) {
      out.emplace_back();
    } else {
      out.emplace_back(parseShardingOrDie(text));
    }
  }
  return out;
}

inline std::vector<const TensorSharding*> pointers(
    const std::vector<std::optional<TensorSharding>>& shardings) {
  std::vector<const TensorSharding*> out;
  for (const std::optional<TensorSharding>& sharding : shardings) {
    out.push_back(sharding ? &*sharding : nullptr);
  }
  return out;
}

// One op in a module whose meshes are `meshes` (name, text): runs one
// propagation step and returns every operand's and result's sharding after
// it, as text ("" if still none).
struct OpCase {
  OpCase(std::vector<std::pair<std::string, std::string>> meshes,
         std::string rule, std::vector<std::string> operands,
         std::vector<std::string> results, PropagateOpOptions options = {})
      : meshes(std::move(meshes)),
        rule(std::move(rule)),
        operands(std::move(operands)),
        results(std::move(results)),
        options(options) {}

  std::vector<std::pair<std::string, std::string>> meshes;
  std::string rule;
  std::vector<std::string> operands;
  std::vector<std::string> results;
  PropagateOpOptions options;

  std::vector<std::string> run() const {
    MeshTable table;
    for (const auto& [name, text] : meshes) {
      table.add(name, parseMeshOrDie(text));
    }
    OpShardingRule parsed_rule = parseRuleOrDie(rule);
    auto operand_shardings = parseShardings(operands);
    auto result_shardings = parseShardings(results);
    auto operand_ptrs = pointers(operand_shardings);
    auto result_ptrs = pointers(result_shardings);
    absl::StatusOr<PropagateOpResult> result = propagateOpShardings(
        OpShardings{operand_ptrs, result_ptrs}, parsed_rule, table, options);
    INFO(result.status().ToString());
    REQUIRE(result.ok());
    std::vector<std::string> out;
    for (size_t i = 0; i < operands.size() + results.size(); ++i) {
      bool is_operand = i < operands.size();
      const TensorSharding* update =
          is_operand ? result->operandUpdate(i)
                     : result->resultUpdate(i - operands.size());
      const std::string& old =
          is_operand ? operands[i] : results[i - operands.size()];
      out.push_back(update != nullptr ? toString(*update) : old);
    }
    return out;
  }
};

}  // namespace shardkit::testing

#endif  // SHARDKIT_TESTS_UNIT_FACTOR_PROPAGATION_PROPAGATION_TEST_UTIL_H_
