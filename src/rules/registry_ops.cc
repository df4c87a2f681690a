// The built-in rules: one adapter per op kind that reads the op (shapes,
// attributes, surroundings) and calls the rule factory of its family.
#include <functional>
#include <string_view>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/stablehlo/stablehlo_attrs.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/rules/op_rules.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/rules/registry_internal.h"

namespace shardkit::rules_internal {
namespace {

using Adapter = RuleResult (*)(const OpView&, const RuleOptions&);
using Shapes = absl::Span<const Shape>;

RuleResult done(const OpView& op, absl::StatusOr<OpShardingRule> rule) {
  if (!rule.ok()) return op.wrap(rule.status());
  return std::optional<OpShardingRule>(*std::move(rule));
}

RuleResult done(const OpView& op,
                absl::StatusOr<std::optional<OpShardingRule>> rule) {
  if (!rule.ok()) return op.wrap(rule.status());
  return rule;
}

// Attribute `name` of `op` as read by `get`, or the error that it must be a
// `#stablehlo.<kind>`.
template <typename Dims>
absl::StatusOr<Dims> dimensionNumbers(
    const OpView& op, std::string_view name, std::string_view kind,
    std::optional<Dims> (*get)(const Attribute&)) {
  const Attribute& attr = op.op().attr(name);
  std::optional<Dims> dims = get(attr);
  if (!dims) {
    return op.error(strCat("attribute '", name, "' must be a #stablehlo.", kind,
                           ", got ", attr ? toString(attr) : "nothing"));
  }
  return *std::move(dims);
}

// The first `count` operands.
Shapes firstOperands(const OpView& op, size_t count) {
  return Shapes(op.operands()).subspan(0, count);
}

// Variadic ops with `n` inputs followed by `n` init values and `n` results.
absl::Status expectInputsAndInits(const OpView& op) {
  if (op.numResults() == 0 || op.numOperands() != 2 * op.numResults()) {
    return op.error(strCat("expected one input and one init value per result (",
                           op.numResults(), " results), got ", op.numOperands(),
                           " operands"));
  }
  return absl::OkStatus();
}

// ---- pointwise and collectives ----

RuleResult pointwise(const OpView& op, const RuleOptions&) {
  return done(op, pointwiseRule(op.operands(), op.results()));
}

// all_gather and reduce_scatter: `rule` of the dimension the attribute
// `attr` names.
RuleResult oneDimCollective(const OpView& op, std::string_view attr,
                            absl::StatusOr<OpShardingRule> (*rule)(Shapes,
                                                                   Shapes,
                                                                   int64_t)) {
  SK_RETURN_IF_ERROR(op.expectAtLeast(1, 1));
  SK_ASSIGN_OR_RETURN(int64_t dim, op.intAttr(attr));
  return done(op, rule(op.operands(), op.results(), dim));
}

RuleResult allGather(const OpView& op, const RuleOptions&) {
  return oneDimCollective(op, "all_gather_dim", &allGatherRule);
}

RuleResult allToAll(const OpView& op, const RuleOptions&) {
  SK_RETURN_IF_ERROR(op.expectAtLeast(1, 1));
  SK_ASSIGN_OR_RETURN(int64_t split, op.intAttr("split_dimension"));
  SK_ASSIGN_OR_RETURN(int64_t concat, op.intAttr("concat_dimension"));
  return done(op, allToAllRule(op.operands(), op.results(), split, concat));
}

RuleResult reduceScatter(const OpView& op, const RuleOptions&) {
  return oneDimCollective(op, "scatter_dimension", &reduceScatterRule);
}

// ---- ops with one-to-one dimension maps ----

// batch_norm_inference, _training and _grad (`kOperands` operands and
// `kResults` results): `Rule` of the operand and the feature index.
template <size_t kOperands, size_t kResults, auto Rule>
RuleResult batchNorm(const OpView& op, const RuleOptions&) {
  SK_RETURN_IF_ERROR(op.expectCounts(kOperands, kResults));
  SK_ASSIGN_OR_RETURN(int64_t feature, op.intAttr("feature_index"));
  return done(op, Rule(op.operands()[0], feature));
}

RuleResult bitcastConvert(const OpView& op, const RuleOptions&) {
  SK_RETURN_IF_ERROR(op.expectCounts(1, 1));
  return done(op, bitcastConvertRule(op.operands()[0], op.results()[0]));
}

RuleResult broadcastInDim(const OpView& op, const RuleOptions&) {
  SK_RETURN_IF_ERROR(op.expectCounts(1, 1));
  SK_ASSIGN_OR_RETURN(std::vector<int64_t> dims,
                      op.intListAttr("broadcast_dimensions"));
  return done(op, broadcastInDimRule(op.operands()[0], op.results()[0], dims));
}

RuleResult cholesky(const OpView& op, const RuleOptions&) {
  SK_RETURN_IF_ERROR(op.expectCounts(1, 1));
  return done(op, choleskyRule(op.operands()[0]));
}

RuleResult clamp(const OpView& op, const RuleOptions&) {
  SK_RETURN_IF_ERROR(op.expectCounts(3, 1));
  const std::vector<Shape>& in = op.operands();
  return done(op, clampRule(in[0], in[1], in[2], op.results()[0]));
}

RuleResult select(const OpView& op, const RuleOptions&) {
  SK_RETURN_IF_ERROR(op.expectCounts(3, 1));
  const std::vector<Shape>& in = op.operands();
  return done(op, selectRule(in[0], in[1], in[2], op.results()[0]));
}

RuleResult transpose(const OpView& op, const RuleOptions&) {
  SK_RETURN_IF_ERROR(op.expectCounts(1, 1));
  SK_ASSIGN_OR_RETURN(std::vector<int64_t> perm, op.intListAttr("permutation"));
  return done(op, transposeRule(op.operands()[0], op.results()[0], perm));
}

RuleResult reverse(const OpView& op, const RuleOptions&) {
  SK_RETURN_IF_ERROR(op.expectCounts(1, 1));
  SK_ASSIGN_OR_RETURN(std::vector<int64_t> dims, op.intListAttr("dimensions"));
  return done(op, reverseRule(op.operands()[0], dims));
}

RuleResult fft(const OpView& op, const RuleOptions&) {
  SK_RETURN_IF_ERROR(op.expectCounts(1, 1));
  SK_ASSIGN_OR_RETURN(std::vector<int64_t> lengths,
                      op.intListAttr("fft_length"));
  return done(op, fftRule(op.operands()[0], op.results()[0],
                          static_cast<int64_t>(lengths.size())));
}

RuleResult sort(const OpView& op, const RuleOptions&) {
  SK_RETURN_IF_ERROR(op.expectAtLeast(1, 1));
  // StableHLO's default sort dimension is -1, the minor-most.
  SK_ASSIGN_OR_RETURN(int64_t dim, op.intAttr("dimension", -1));
  if (dim < 0) dim += static_cast<int64_t>(op.operands()[0].size());
  return done(op, sortRule(op.operands(), dim));
}

RuleResult rngBitGenerator(const OpView& op, const RuleOptions&) {
  SK_RETURN_IF_ERROR(op.expectCounts(1, 2));
  return done(op, rngBitGeneratorRule(op.operands()[0], op.results()[0],
                                      op.results()[1]));
}

RuleResult reshape(const OpView& op, const RuleOptions&) {
  SK_RETURN_IF_ERROR(op.expectCounts(1, 1));
  return done(op, reshapeRule(op.operands()[0], op.results()[0]));
}

// ---- slicing ----

RuleResult concatenate(const OpView& op, const RuleOptions& options) {
  SK_RETURN_IF_ERROR(op.expectAtLeast(1, 1));
  SK_ASSIGN_OR_RETURN(int64_t dim, op.intAttr("dimension"));
  // Which operands are static slices, and of which value: pieces cut out of
  // the same tensors can be moved into place instead of replicated.
  std::vector<ConcatOperandSource> sources;
  for (Value operand : op.op().operands()) {
    Op def = operand.definingOp();
    bool is_slice = isa<stablehlo::SliceOp>(def) && def.numOperands() == 1;
    Value source = is_slice ? def.operand(0) : operand;
    sources.push_back({is_slice, static_cast<int64_t>(source.id())});
  }
  return done(op, concatenateRule(op.operands(), op.results()[0], dim, sources,
                                  options.conservative_propagation));
}

RuleResult slice(const OpView& op, const RuleOptions& options) {
  SK_RETURN_IF_ERROR(op.expectCounts(1, 1));
  return done(op, sliceRule(op.operands()[0], op.results()[0],
                            options.conservative_propagation));
}

RuleResult pad(const OpView& op, const RuleOptions& options) {
  SK_RETURN_IF_ERROR(op.expectCounts(2, 1));
  SK_ASSIGN_OR_RETURN(auto low, op.optionalIntListAttr("edge_padding_low"));
  SK_ASSIGN_OR_RETURN(auto high, op.optionalIntListAttr("edge_padding_high"));
  SK_ASSIGN_OR_RETURN(auto interior,
                      op.optionalIntListAttr("interior_padding"));
  return done(op, padRule(op.operands()[0], op.results()[0],
                          options.conservative_propagation,
                          low.value_or(std::vector<int64_t>{}),
                          high.value_or(std::vector<int64_t>{}),
                          interior.value_or(std::vector<int64_t>{})));
}

RuleResult dynamicSlice(const OpView& op, const RuleOptions&) {
  SK_RETURN_IF_ERROR(op.expectAtLeast(1, 1));
  return done(op, dynamicSliceRule(op.operands()[0], op.results()[0]));
}

RuleResult dynamicUpdateSlice(const OpView& op, const RuleOptions&) {
  SK_RETURN_IF_ERROR(op.expectAtLeast(2, 1));
  // A sliced dim whose start index is a constant can keep the update
  // sharded: every device knows where its piece goes.
  const size_t rank = op.operands()[0].size();
  std::vector<bool> constant(rank, false);
  for (size_t d = 0; d < rank && 2 + d < op.numOperands(); ++d) {
    constant[d] =
        isConstantValue(op.op().operand(static_cast<unsigned>(2 + d)));
  }
  return done(op, dynamicUpdateSliceRule(op.operands()[0], op.operands()[1],
                                         op.results()[0], constant));
}

// ---- contraction ----

RuleResult dot(const OpView& op, const RuleOptions&) {
  SK_RETURN_IF_ERROR(op.expectCounts(2, 1));
  return done(op, dotRule(op.operands()[0], op.operands()[1], op.results()[0]));
}

// An op of two operands and one result whose `rule` takes its dimension
// numbers, the attribute `attr` (a `#stablehlo.<kind>`, read by `get`).
template <typename Dims>
RuleResult binaryWithDims(
    const OpView& op, std::string_view attr, std::string_view kind,
    std::optional<Dims> (*get)(const Attribute&),
    absl::StatusOr<OpShardingRule> (*rule)(const Shape&, const Shape&,
                                           const Shape&, const Dims&)) {
  SK_RETURN_IF_ERROR(op.expectCounts(2, 1));
  SK_ASSIGN_OR_RETURN(Dims dims, dimensionNumbers(op, attr, kind, get));
  return done(op,
              rule(op.operands()[0], op.operands()[1], op.results()[0], dims));
}

RuleResult dotGeneral(const OpView& op, const RuleOptions&) {
  return binaryWithDims(op, "dot_dimension_numbers", "dot",
                        &getDotDimensionNumbers, &dotGeneralRule);
}

RuleResult convolution(const OpView& op, const RuleOptions& options) {
  SK_RETURN_IF_ERROR(op.expectCounts(2, 1));
  SK_ASSIGN_OR_RETURN(ConvDimensionNumbers dims,
                      dimensionNumbers(op, "dimension_numbers", "conv",
                                       &getConvDimensionNumbers));
  SK_ASSIGN_OR_RETURN(int64_t batch_groups, op.intAttr("batch_group_count", 1));
  SK_ASSIGN_OR_RETURN(int64_t feature_groups,
                      op.intAttr("feature_group_count", 1));
  return done(
      op, convolutionRule(op.operands()[0], op.operands()[1], op.results()[0],
                          dims, batch_groups, feature_groups,
                          options.conservative_propagation));
}

RuleResult triangularSolve(const OpView& op, const RuleOptions&) {
  SK_RETURN_IF_ERROR(op.expectCounts(2, 1));
  SK_ASSIGN_OR_RETURN(bool left_side, op.boolAttr("left_side", false));
  bool transpose_a = false;
  if (op.op().hasAttr("transpose_a")) {
    SK_ASSIGN_OR_RETURN(std::string value, op.enumAttr("transpose_a"));
    if (value == "TRANSPOSE" || value == "ADJOINT") {
      transpose_a = true;
    } else if (value != "NO_TRANSPOSE") {
      return op.error(strCat("unknown transpose_a value '", value, "'"));
    }
  }
  return done(op, triangularSolveRule(op.operands()[0], op.operands()[1],
                                      op.results()[0], left_side, transpose_a));
}

// ---- reductions ----

RuleResult reduce(const OpView& op, const RuleOptions&) {
  SK_RETURN_IF_ERROR(expectInputsAndInits(op));
  SK_ASSIGN_OR_RETURN(std::vector<int64_t> dims, op.intListAttr("dimensions"));
  return done(
      op, reduceRule(firstOperands(op, op.numResults()), op.results(), dims));
}

RuleResult reduceWindow(const OpView& op, const RuleOptions& options) {
  SK_RETURN_IF_ERROR(expectInputsAndInits(op));
  SK_ASSIGN_OR_RETURN(WindowPadding padding, op.paddingAttr("padding"));
  return done(op,
              reduceWindowRule(firstOperands(op, op.numResults()), op.results(),
                               padding, options.conservative_propagation));
}

RuleResult selectAndScatter(const OpView& op, const RuleOptions& options) {
  SK_RETURN_IF_ERROR(op.expectCounts(3, 1));
  SK_ASSIGN_OR_RETURN(WindowPadding padding, op.paddingAttr("padding"));
  return done(op, selectAndScatterRule(op.operands()[0], op.operands()[1],
                                       op.results()[0], padding,
                                       options.conservative_propagation));
}

// ---- gather / scatter ----

RuleResult gather(const OpView& op, const RuleOptions&) {
  return binaryWithDims(op, "dimension_numbers", "gather",
                        &getGatherDimensionNumbers, &gatherRule);
}

RuleResult scatter(const OpView& op, const RuleOptions&) {
  const size_t n = op.numResults();
  if (n == 0 || op.numOperands() != 2 * n + 1) {
    return op.error(strCat("expected N inputs, the indices and N updates for ",
                           n, " results, got ", op.numOperands(), " operands"));
  }
  SK_ASSIGN_OR_RETURN(ScatterDimensionNumbers dims,
                      dimensionNumbers(op, "scatter_dimension_numbers",
                                       "scatter", &getScatterDimensionNumbers));
  Shapes operands(op.operands());
  return done(op, scatterRule(operands.subspan(0, n), operands[n],
                              operands.subspan(n + 1), dims,
                              scatterCombinerIsReduction(op.op())));
}

// ---- custom calls ----

RuleResult customCall(const OpView& op, const RuleOptions&) {
  SK_ASSIGN_OR_RETURN(std::string target, op.stringAttr("call_target_name"));
  CustomCallContext context;
  context.used_by_rng_bit_generator = usedByRngBitGenerator(op.op());
  return done(op, customCallRule(target, op.operands(), op.results(), context));
}

using AdapterTable = absl::flat_hash_map<const OpNameEntry*, Adapter>;

template <typename OpT>
void add(AdapterTable& table, Adapter adapter) {
  table[OpT::opName().entry()] = adapter;
}

// The ops with an adapter of their own, by interned name.
const AdapterTable& adapters() {
  static const auto* table = [] {
    using namespace stablehlo;  // NOLINT
    auto* t = new AdapterTable();
    // Collectives that keep every dimension.
    add<AllReduceOp>(*t, &pointwise);
    add<CollectivePermuteOp>(*t, &pointwise);
    add<CrossReplicaSumOp>(*t, &pointwise);
    add<AllGatherOp>(*t, &allGather);
    add<AllToAllOp>(*t, &allToAll);
    add<BatchNormGradOp>(*t, &batchNorm<5, 3, &batchNormGradRule>);
    add<BatchNormInferenceOp>(*t, &batchNorm<5, 1, &batchNormInferenceRule>);
    add<BatchNormTrainingOp>(*t, &batchNorm<3, 3, &batchNormTrainingRule>);
    add<BitcastConvertOp>(*t, &bitcastConvert);
    add<BroadcastInDimOp>(*t, &broadcastInDim);
    add<CholeskyOp>(*t, &cholesky);
    add<ClampOp>(*t, &clamp);
    add<ConcatenateOp>(*t, &concatenate);
    add<ConvolutionOp>(*t, &convolution);
    add<CustomCallOp>(*t, &customCall);
    add<DotOp>(*t, &dot);
    add<DotGeneralOp>(*t, &dotGeneral);
    add<DynamicSliceOp>(*t, &dynamicSlice);
    add<DynamicUpdateSliceOp>(*t, &dynamicUpdateSlice);
    add<FftOp>(*t, &fft);
    add<GatherOp>(*t, &gather);
    add<PadOp>(*t, &pad);
    add<ReduceOp>(*t, &reduce);
    add<ReduceScatterOp>(*t, &reduceScatter);
    add<ReduceWindowOp>(*t, &reduceWindow);
    add<ReshapeOp>(*t, &reshape);
    add<ReverseOp>(*t, &reverse);
    add<RngBitGeneratorOp>(*t, &rngBitGenerator);
    add<ScatterOp>(*t, &scatter);
    add<SelectOp>(*t, &select);
    add<SelectAndScatterOp>(*t, &selectAndScatter);
    add<SliceOp>(*t, &slice);
    add<SortOp>(*t, &sort);
    add<TransposeOp>(*t, &transpose);
    add<TriangularSolveOp>(*t, &triangularSolve);
    return t;
  }();
  return *table;
}

// The adapter of `op`: its own, or the pointwise one for an elementwise op
// without regions. sdy's reshard and propagation barrier get none:
// propagation treats them as identities itself (a barrier only in its
// allowed direction).
Adapter adapterOf(Op op) {
  auto it = adapters().find(op.opName().entry());
  if (it != adapters().end()) return it->second;
  if (op.hasTrait(OpTrait::kElementwise) && op.numRegions() == 0 &&
      !isa<sdy::ReshardOp, sdy::PropagationBarrierOp>(op)) {
    return &pointwise;
  }
  return nullptr;
}

}  // namespace

RuleResult builtinRule(const OpView& op, const RuleOptions& options) {
  Adapter adapter = adapterOf(op.op());
  if (!adapter) return std::optional<OpShardingRule>();
  // Rules are defined on static shapes (the verifier rejects factors of
  // unknown size): an op with a dynamic dimension propagates nothing.
  if (op.hasDynamicShape()) return std::optional<OpShardingRule>();
  return adapter(op, options);
}

}  // namespace shardkit::rules_internal
