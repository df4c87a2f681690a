// How a compiler describes its own op to shardkit (see docs/rules.md).
//
// The op is `mycompiler.attention(q, k, v) -> out`:
//   q: [batch, seq, heads, dim]      k: [batch, keys, heads, dim]
//   v: [batch, keys, heads, vdim]    out: [batch, seq, heads, vdim]
// It contracts `dim` (q·k), takes a softmax over `keys` and contracts `keys`
// again with v. The example builds its sharding rule with the builder, writes
// the same rule in the compact notation, describes a reshape-like op with a
// compound factor, then registers the attention rule and lets
// -sdy-populate-op-sharding-rules attach it in a module.
//
// It prints what it builds and exits non-zero if a result is not the expected
// one, so it doubles as a test.
#include <cstdio>
#include <string>

#include "shardkit/asm/module_io.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/factor_propagation/rule_builder.h"
#include "shardkit/passes/rule_passes.h"
#include "shardkit/rules/registry.h"
#include "shardkit/rules/reshape.h"
#include "shardkit/support/strings.h"

namespace {

using shardkit::FactorType;
using shardkit::kNullDim;
using shardkit::OpShardingRule;
using shardkit::OpShardingRuleBuilder;
using shardkit::Shape;

int failures = 0;

void expectEqual(const std::string& what, const std::string& got,
                 const std::string& want) {
  std::printf("%s:\n  %s\n", what.c_str(), got.c_str());
  if (got != want) {
    std::printf("  MISMATCH, expected\n  %s\n", want.c_str());
    ++failures;
  }
}

// The attention rule for the given shapes. Factors are added one at a time
// with the dimension they map to in every operand (q, k, v) and result
// (out); kNullDim where a tensor does not have the factor.
absl::StatusOr<OpShardingRule> attentionRule(const Shape& q, const Shape& k,
                                             const Shape& v, const Shape& out) {
  return OpShardingRuleBuilder({q, k, v}, {out})
      // batch and heads: every tensor, independent slices of the work.
      .addFactor({0, 0, 0}, {0}, q[0])
      // seq: only q and out; sharding it needs no communication.
      .addFactor({1, kNullDim, kNullDim}, {1}, q[1])
      .addFactor({2, 2, 2}, {2}, q[2])
      // keys: the softmax needs all keys at once, so a sharded keys dim
      // must be gathered first.
      .addFactor({kNullDim, 1, 1}, {kNullDim}, k[1],
                 FactorType::kNeedReplication)
      // dim: contracted; shards of the result are partial sums.
      .addFactor({3, 3, kNullDim}, {kNullDim}, q[3], FactorType::kReduction)
      // vdim: from v to out.
      .addFactor({kNullDim, kNullDim, 3}, {3}, v[3])
      // A user rule: it wins over anything shardkit would compute.
      .setCustom()
      .build();
}

void builderAndNotation() {
  absl::StatusOr<OpShardingRule> built = attentionRule(
      {4, 128, 8, 64}, {4, 256, 8, 64}, {4, 256, 8, 32}, {4, 128, 8, 32});
  if (!built.ok()) {
    std::printf("build failed: %s\n",
                std::string(built.status().message()).c_str());
    ++failures;
    return;
  }
  const std::string text =
      "<([i, j, k, m], [i, l, k, m], [i, l, k, n])->([i, j, k, n]) "
      "{i=4, j=128, k=8, l=256, m=64, n=32} reduction={m} "
      "need_replication={l}, custom>";
  expectEqual("attention rule (builder)", shardkit::toString(*built), text);

  // The same rule in the compact notation: one bracket per operand and
  // result, a letter per factor, sizes in braces, then the factor kinds.
  absl::StatusOr<OpShardingRule> parsed = shardkit::parseRuleNotation(
      "([i, j, k, m], [i, l, k, m], [i, l, k, n])->([i, j, k, n]) "
      "{i=4, j=128, k=8, l=256, m=64, n=32} reduction={m} "
      "need_replication={l}, custom");
  expectEqual("attention rule (notation)",
              parsed.ok() ? shardkit::toString(*parsed)
                          : std::string(parsed.status().message()),
              text);
  if (parsed.ok() && !(*parsed == *built)) {
    std::printf("  the parsed and built rules differ\n");
    ++failures;
  }
}

void compoundFactors() {
  // A reshape factors both shapes into a common sequence: 8x4 -> 2x16 is
  // ([ij, k])->([i, jk]), dim 0 of the input being the compound (i, j).
  absl::StatusOr<std::optional<OpShardingRule>> reshape =
      shardkit::reshapeRule({8, 4}, {2, 16});
  expectEqual("reshape 8x4 -> 2x16",
              reshape.ok() && reshape->has_value()
                  ? shardkit::toString(**reshape)
                  : "no rule",
              "<([ij, k])->([i, jk]) {i=2, j=4, k=4}>");

  // An op that merges heads into the feature dim, [b, s, h, d] -> [b, s,
  // h*d]: the result's last dim is the compound (h, d), major to minor. The
  // low-level API creates factors and maps dims explicitly.
  OpShardingRuleBuilder builder({{4, 128, 8, 64}}, {{4, 128, 512}});
  int64_t b = builder.newFactor(4);
  int64_t s = builder.newFactor(128);
  int64_t h = builder.newFactor(8);
  int64_t d = builder.newFactor(64);
  builder.mapOperandDim(0, 0, b).mapOperandDim(0, 1, s);
  builder.mapOperandDim(0, 2, h).mapOperandDim(0, 3, d);
  builder.mapResultDim(0, 0, b).mapResultDim(0, 1, s);
  builder.mapResultDim(0, 2, h).mapResultDim(0, 2, d);
  absl::StatusOr<OpShardingRule> merge = builder.build();
  expectEqual("merge_heads",
              merge.ok() ? shardkit::toString(*merge)
                         : std::string(merge.status().message()),
              "<([i, j, k, l])->([i, j, kl]) {i=4, j=128, k=8, l=64}>");
}

void registerAndPopulate() {
  // Teach shardkit the op: a rule function receives the op and reads its
  // shapes (and, if it needs them, its attributes).
  shardkit::registerOpRule(
      "mycompiler.attention",
      [](shardkit::Op op, const shardkit::RuleOptions&)
          -> absl::StatusOr<std::optional<OpShardingRule>> {
        std::vector<Shape> in = shardkit::operandShapes(op);
        std::vector<Shape> out = shardkit::resultShapes(op);
        if (in.size() != 3 || out.size() != 1) {
          return absl::InvalidArgumentError("expected (q, k, v) -> out");
        }
        return attentionRule(in[0], in[1], in[2], out[0]);
      });

  constexpr std::string_view kModule = R"(
func.func @main(%q: tensor<2x16x4x8xf32>, %k: tensor<2x32x4x8xf32>, %v: tensor<2x32x4x8xf32>) -> tensor<2x16x4x8xf32> {
  %0 = "mycompiler.attention"(%q, %k, %v) : (tensor<2x16x4x8xf32>, tensor<2x32x4x8xf32>, tensor<2x32x4x8xf32>) -> tensor<2x16x4x8xf32>
  %1 = stablehlo.tanh %0 : tensor<2x16x4x8xf32>
  return %1 : tensor<2x16x4x8xf32>
})";
  absl::StatusOr<std::unique_ptr<shardkit::Module>> module =
      shardkit::parseModule(kModule, "example.mlir");
  if (!module.ok()) {
    std::printf("parse failed: %s\n",
                std::string(module.status().message()).c_str());
    ++failures;
    return;
  }
  // What -sdy-populate-op-sharding-rules does: attach every op's rule.
  absl::Status populated = shardkit::populateOpShardingRules(**module);
  if (!populated.ok()) {
    std::printf("populate failed: %s\n",
                std::string(populated.message()).c_str());
    ++failures;
    return;
  }
  std::string printed = shardkit::printModule(**module);
  std::printf("module with rules:\n%s", printed.c_str());
  for (const char* expected :
       {"sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, m], [i, l, k, "
        "m], [i, l, k, n])->([i, j, k, n]) {i=2, j=16, k=4, l=32, m=8, n=8} "
        "reduction={m} need_replication={l}, custom>",
        "sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k, l])->([i, j, "
        "k, l]) {i=2, j=16, k=4, l=8}>"}) {
    if (printed.find(expected) == std::string::npos) {
      std::printf("  MISSING: %s\n", expected);
      ++failures;
    }
  }
}

}  // namespace

int main() {
  builderAndNotation();
  compoundFactors();
  registerAndPopulate();
  if (failures) {
    std::printf("%d mismatch(es)\n", failures);
    return 1;
  }
  std::printf("ok\n");
  return 0;
}
