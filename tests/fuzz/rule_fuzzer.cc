// libFuzzer target for op sharding rules: the `#sdy.op_sharding_rule` text,
// the rule builder's compact notation (parseRuleNotation) and the builder's
// API driven by the input bytes. Whatever parses must print to text that
// parses back to the same rule; a rule that verifies is then used for the
// per-op propagation step (both strategies, every direction) on shardings
// chosen from the input, and every sharding the step proposes must verify
// on the tensor's shape.
//
// Input: byte 0 selects the entry point (% 3: rule text, notation, builder
// program), byte 1 seeds the shardings, the rest is the text or program.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "shardkit/core/verify.h"
#include "shardkit/factor_propagation/aggressive_factor_propagation.h"
#include "shardkit/factor_propagation/basic_factor_propagation.h"
#include "shardkit/factor_propagation/propagate_op.h"
#include "shardkit/rules/rule_builder.h"
#include "shardkit/support/checked_math.h"
#include "shardkit/text/parse.h"
#include "tests/fuzz/fuzz_util.h"

namespace shardkit {
namespace {

const Mesh& mesh() {
  static const Mesh* m = new Mesh({{"a", 2}, {"b", 4}, {"c", 3}});
  return *m;
}

// The shape of tensor `mapping`: each dimension the product of its factors'
// sizes (capped, so that shapes stay small).
std::vector<int64_t> shapeOf(const TensorMapping& mapping,
                             const OpShardingRule& rule) {
  std::vector<int64_t> shape;
  for (const DimMapping& dim : mapping.dim_mappings) {
    int64_t size = 1;
    for (int64_t f : dim.factor_indices) {
      if (f < 0 || f >= rule.numFactors()) return {};
      size = saturatingMul(size, rule.factor_sizes[f]);
    }
    shape.push_back(size);
  }
  return shape;
}

// A sharding of a tensor of `shape` picked by `seed`: each dimension gets
// none, one or two of the mesh's axes (each axis at most once), open or
// closed.
TensorSharding pickSharding(const std::vector<int64_t>& shape, uint32_t& seed) {
  TensorSharding sharding;
  sharding.mesh = MeshOrRef::ref("m");
  bool used[3] = {false, false, false};
  static const char* kNames[] = {"a", "b", "c"};
  for (size_t d = 0; d < shape.size(); ++d) {
    seed = seed * 1103515245u + 12345u;
    DimensionSharding dim;
    dim.is_closed = (seed >> 8) & 1;
    for (int k = 0; k < 2; ++k) {
      int axis = static_cast<int>((seed >> (10 + 4 * k)) % 5);
      if (axis < 3 && !used[axis]) {
        used[axis] = true;
        dim.axes.push_back(AxisRef(kNames[axis]));
      }
    }
    sharding.dim_shardings.push_back(std::move(dim));
  }
  return sharding;
}

void propagateThrough(const OpShardingRule& rule, uint8_t seed_byte,
                      std::string_view input) {
  std::vector<std::vector<int64_t>> shapes;
  for (const auto* mappings : {&rule.operand_mappings, &rule.result_mappings}) {
    for (const TensorMapping& m : *mappings) shapes.push_back(shapeOf(m, rule));
  }
  std::vector<TensorShapeView> views(shapes.begin(), shapes.end());
  size_t num_operands = rule.operand_mappings.size();
  std::vector<TensorShapeView> operand_views(views.begin(),
                                             views.begin() + num_operands);
  std::vector<TensorShapeView> result_views(views.begin() + num_operands,
                                            views.end());
  if (!verifyOpShardingRule(rule, operand_views, result_views).ok()) return;

  MeshTable meshes;
  meshes.add("m", mesh());
  uint32_t seed = seed_byte;
  std::vector<TensorSharding> shardings;
  for (const std::vector<int64_t>& shape : shapes) {
    shardings.push_back(pickSharding(shape, seed));
  }
  std::vector<const TensorSharding*> pointers;
  for (size_t i = 0; i < shardings.size(); ++i) {
    // Some tensors have no sharding at all; invalid picks (e.g. an axis on
    // a dimension of size 0) are dropped: the step takes valid shardings.
    seed = seed * 1103515245u + 12345u;
    bool valid = verifyTensorSharding(shardings[i], meshes, views[i]).ok();
    pointers.push_back((seed >> 16) % 4 == 0 || !valid ? nullptr
                                                       : &shardings[i]);
  }
  OpShardings op{absl::MakeConstSpan(pointers).subspan(0, num_operands),
                 absl::MakeConstSpan(pointers).subspan(num_operands)};
  for (const FactorPropagation* strategy :
       {static_cast<const FactorPropagation*>(&basicFactorPropagation()),
        static_cast<const FactorPropagation*>(
            &aggressiveFactorPropagation())}) {
    for (PropagationDirection direction :
         {PropagationDirection::kBoth, PropagationDirection::kForward,
          PropagationDirection::kBackward}) {
      PropagateOpOptions options;
      options.strategy = strategy;
      options.direction = direction;
      options.conservative = seed_byte & 1;
      absl::StatusOr<PropagateOpResult> result =
          propagateOpShardings(op, rule, mesh(), MeshOrRef::ref("m"), options);
      if (!result.ok()) continue;
      for (const ShardingUpdate& update : result->updates) {
        if (update.tensor < 0 ||
            update.tensor >= static_cast<int64_t>(shapes.size())) {
          fuzz::fail("update of a tensor the op does not have", input);
        }
        // As the driver does: dimensions of size 0 keep their old sharding
        // (the step sees factors, not shapes; docs/propagation.md).
        TensorSharding checked = update.sharding;
        const std::vector<int64_t>& shape = shapes[update.tensor];
        for (size_t d = 0; d < shape.size() && d < checked.dim_shardings.size();
             ++d) {
          if (shape[d] == 0) checked.dim_shardings[d].axes.clear();
        }
        absl::Status valid =
            verifyTensorSharding(checked, meshes, views[update.tensor]);
        if (!valid.ok()) {
          fuzz::fail("propagation proposed an invalid sharding", input,
                     strCat(toString(update.sharding), "\n",
                            fromAbsl(valid.message())));
        }
      }
    }
  }
}

void roundTrip(const OpShardingRule& rule, std::string_view input) {
  std::string printed = toString(rule);
  absl::StatusOr<OpShardingRule> again = parseOpShardingRule(printed);
  if (!again.ok()) {
    fuzz::fail("printed rule does not parse", input,
               strCat(printed, "\n", fromAbsl(again.status().message())));
  }
  if (!(*again == rule)) fuzz::fail("re-parsed rule differs", input, printed);
  if (toString(*again) != printed) {
    fuzz::fail("printing again differs", input, printed);
  }
}

// Interprets `program` as builder calls on small shapes: each call reads a
// few bytes. Misuse must be reported by build(), never crash.
absl::StatusOr<OpShardingRule> runBuilderProgram(fuzz::ByteReader& in) {
  auto shape = [&] {
    Shape s(in.byte() % 4);
    for (int64_t& d : s) d = in.byte() % 9;
    return s;
  };
  std::vector<Shape> operands(1 + in.byte() % 3), results(1 + in.byte() % 2);
  for (Shape& s : operands) s = shape();
  for (Shape& s : results) s = shape();
  OpShardingRuleBuilder builder(operands, results);
  auto dim = [&] { return static_cast<int64_t>(in.byte() % 6) - 1; };
  auto type = [&] { return static_cast<FactorType>(in.byte() % 4); };
  for (int calls = 0; calls < 16 && !in.empty(); ++calls) {
    switch (in.byte() % 6) {
      case 0: {
        std::vector<int64_t> ods(operands.size()), rds(results.size());
        for (int64_t& d : ods) d = dim();
        for (int64_t& d : rds) d = dim();
        builder.addFactor(ods, rds, in.byte() % 9, type(), in.byte() & 1);
        break;
      }
      case 1:
        builder.addFactor(dim(), in.byte() % 9, type(), in.byte() & 1);
        break;
      case 2:
        builder.addPointwise(shape(), nullptr, in.byte() & 1);
        break;
      case 3:
        builder.addPointwiseIfDimSizesMatch(shape(), shape());
        break;
      case 4: {
        int64_t f = builder.newFactor(in.byte() % 9, type());
        builder.mapOperandDim(dim(), dim(), f);
        builder.mapResultDim(dim(), dim(), f);
        break;
      }
      case 5:
        builder.addPointwiseWithDiffTypeForMismatch(shape(), shape(), type(),
                                                    in.byte() & 1);
        break;
    }
  }
  return builder.build();
}

}  // namespace
}  // namespace shardkit

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace shardkit;
  fuzz::ByteReader in(data, size);
  uint8_t selector = in.byte();
  uint8_t seed = in.byte();
  absl::StatusOr<OpShardingRule> rule;
  std::string_view text;
  switch (selector % 3) {
    case 0:
      text = in.rest();
      rule = parseOpShardingRule(text);
      break;
    case 1:
      text = in.rest();
      rule = parseRuleNotation(text);
      break;
    case 2:
      rule = runBuilderProgram(in);
      break;
  }
  std::string_view input(reinterpret_cast<const char*>(data), size);
  if (!rule.ok()) {
    if (selector % 3 == 0 &&
        !fuzz::isLocated(fromAbsl(rule.status().message()), "", false)) {
      fuzz::fail("rule error without a location", input,
                 fromAbsl(rule.status().message()));
    }
    return 0;
  }
  roundTrip(*rule, input);
  propagateThrough(*rule, seed, input);
  return 0;
}
