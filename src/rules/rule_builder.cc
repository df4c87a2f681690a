#include "shardkit/rules/rule_builder.h"

#include <algorithm>
#include <string>
#include <utility>

#include "shardkit/support/strings.h"
#include "shardkit/text/parse.h"

namespace shardkit {
namespace {

std::vector<std::vector<std::vector<int64_t>>> emptyMappings(
    const std::vector<Shape>& shapes) {
  std::vector<std::vector<std::vector<int64_t>>> mappings;
  mappings.reserve(shapes.size());
  for (const Shape& shape : shapes) mappings.emplace_back(shape.size());
  return mappings;
}

std::vector<TensorMapping> toTensorMappings(
    const std::vector<std::vector<std::vector<int64_t>>>& mappings,
    std::vector<int64_t>& factor_sizes) {
  std::vector<TensorMapping> result;
  result.reserve(mappings.size());
  for (const auto& tensor : mappings) {
    TensorMapping mapping;
    mapping.dim_mappings.reserve(tensor.size());
    for (const std::vector<int64_t>& factors : tensor) {
      if (factors.empty()) {
        // Every dimension needs a factor: give it a fresh one of size 1.
        mapping.dim_mappings.push_back(
            DimMapping{{static_cast<int64_t>(factor_sizes.size())}});
        factor_sizes.push_back(1);
      } else {
        mapping.dim_mappings.push_back(DimMapping{factors});
      }
    }
    result.push_back(std::move(mapping));
  }
  return result;
}

}  // namespace

OpShardingRuleBuilder::OpShardingRuleBuilder(std::vector<Shape> operand_shapes,
                                             std::vector<Shape> result_shapes)
    : operand_shapes_(std::move(operand_shapes)),
      result_shapes_(std::move(result_shapes)),
      operand_mappings_(emptyMappings(operand_shapes_)),
      result_mappings_(emptyMappings(result_shapes_)) {}

absl::StatusOr<OpShardingRule> OpShardingRuleBuilder::buildPointwise(
    std::vector<Shape> operand_shapes, std::vector<Shape> result_shapes) {
  if (result_shapes.empty()) {
    return absl::InvalidArgumentError(
        "pointwise rule needs at least one result");
  }
  const Shape shape = result_shapes.front();
  OpShardingRuleBuilder builder(std::move(operand_shapes),
                                std::move(result_shapes));
  for (int64_t size : shape) builder.rule_.factor_sizes.push_back(size);
  auto map_all = [&](std::vector<Mapping>& mappings, std::string_view what) {
    for (size_t t = 0; t < mappings.size(); ++t) {
      Mapping& mapping = mappings[t];
      if (!mapping.empty() && mapping.size() != shape.size()) {
        builder.fail(strCat("pointwise rule: ", what, " ", t, " has rank ",
                            mapping.size(), ", expected ", shape.size(),
                            " or 0"));
        return;
      }
      for (size_t d = 0; d < mapping.size(); ++d) {
        mapping[d].push_back(static_cast<int64_t>(d));
      }
    }
  };
  map_all(builder.operand_mappings_, "operand");
  map_all(builder.result_mappings_, "result");
  return builder.build();
}

bool OpShardingRuleBuilder::fail(std::string_view message) {
  if (status_.ok()) status_ = absl::InvalidArgumentError(toAbsl(message));
  return false;
}

bool OpShardingRuleBuilder::checkDim(const std::vector<Shape>& shapes,
                                     int64_t tensor, int64_t dim,
                                     std::string_view what) {
  int64_t rank = static_cast<int64_t>(shapes[tensor].size());
  if (dim == kNullDim || (dim >= 0 && dim < rank)) return true;
  return fail(strCat("rule builder: dimension ", dim, " of ", what, " ", tensor,
                     " is out of range for rank ", rank));
}

void OpShardingRuleBuilder::setFactorKind(int64_t factor, FactorType type,
                                          bool blocked) {
  switch (type) {
    case FactorType::kReduction:
      rule_.reduction_factors.push_back(factor);
      break;
    case FactorType::kNeedReplication:
      rule_.need_replication_factors.push_back(factor);
      break;
    case FactorType::kPermutation:
      rule_.permutation_factors.push_back(factor);
      break;
    case FactorType::kPassThrough:
      break;
  }
  if (blocked) rule_.blocked_propagation_factors.push_back(factor);
}

OpShardingRuleBuilder& OpShardingRuleBuilder::addFactor(
    absl::Span<const int64_t> operand_dims,
    absl::Span<const int64_t> result_dims, int64_t size, FactorType type,
    bool blocked) {
  if (!status_.ok()) return *this;
  if (operand_dims.size() != operand_shapes_.size() ||
      result_dims.size() != result_shapes_.size()) {
    fail(strCat("rule builder: addFactor got ", operand_dims.size(),
                " operand dims and ", result_dims.size(),
                " result dims for an op with ", operand_shapes_.size(),
                " operands and ", result_shapes_.size(), " results"));
    return *this;
  }
  if (size < 0 && size != kDynamicSize) {
    fail(strCat("rule builder: negative factor size ", size));
    return *this;
  }
  for (size_t i = 0; i < operand_dims.size(); ++i) {
    if (!checkDim(operand_shapes_, i, operand_dims[i], "operand")) return *this;
  }
  for (size_t i = 0; i < result_dims.size(); ++i) {
    if (!checkDim(result_shapes_, i, result_dims[i], "result")) return *this;
  }
  // A size-1 factor only maps to size-1 dimensions (it cannot carry a
  // sharding of a larger one); without any, the factor is not created.
  auto maps = [&](const std::vector<Shape>& shapes, size_t tensor,
                  int64_t dim) {
    return dim != kNullDim && (size != 1 || shapes[tensor][dim] == 1);
  };
  bool any = false;
  for (size_t i = 0; i < operand_dims.size(); ++i) {
    any |= maps(operand_shapes_, i, operand_dims[i]);
  }
  for (size_t i = 0; i < result_dims.size(); ++i) {
    any |= maps(result_shapes_, i, result_dims[i]);
  }
  if (size == 1 && !any) return *this;

  int64_t factor = numFactors();
  for (size_t i = 0; i < operand_dims.size(); ++i) {
    if (maps(operand_shapes_, i, operand_dims[i])) {
      operand_mappings_[i][operand_dims[i]].push_back(factor);
    }
  }
  for (size_t i = 0; i < result_dims.size(); ++i) {
    if (maps(result_shapes_, i, result_dims[i])) {
      result_mappings_[i][result_dims[i]].push_back(factor);
    }
  }
  rule_.factor_sizes.push_back(size);
  setFactorKind(factor, type, blocked);
  return *this;
}

OpShardingRuleBuilder& OpShardingRuleBuilder::addFactor(int64_t dim,
                                                        int64_t size,
                                                        FactorType type,
                                                        bool blocked) {
  auto dims_for = [dim](const std::vector<Shape>& shapes) {
    std::vector<int64_t> dims;
    dims.reserve(shapes.size());
    for (const Shape& shape : shapes) {
      dims.push_back(shape.empty() ? kNullDim : dim);
    }
    return dims;
  };
  if (dim < 0) {
    fail(strCat("rule builder: negative dimension ", dim));
    return *this;
  }
  return addFactor(dims_for(operand_shapes_), dims_for(result_shapes_), size,
                   type, blocked);
}

OpShardingRuleBuilder& OpShardingRuleBuilder::addPointwise(
    absl::Span<const int64_t> shape, const FactorTypeFn& type, bool blocked) {
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t dim = static_cast<int64_t>(d);
    addFactor(dim, shape[d], type ? type(dim) : FactorType::kPassThrough,
              blocked);
  }
  return *this;
}

OpShardingRuleBuilder& OpShardingRuleBuilder::addPointwiseIf(
    absl::Span<const int64_t> shape, const DimPredicate& pred,
    const FactorTypeFn& type) {
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t dim = static_cast<int64_t>(d);
    if (pred(dim)) {
      addFactor(dim, shape[d], type ? type(dim) : FactorType::kPassThrough);
    }
  }
  return *this;
}

OpShardingRuleBuilder& OpShardingRuleBuilder::addPointwiseIfDimSizesMatch(
    absl::Span<const int64_t> in_shape, absl::Span<const int64_t> out_shape,
    const MismatchFn& on_mismatch) {
  if (in_shape.size() != out_shape.size()) {
    fail(strCat("rule builder: shapes of rank ", in_shape.size(), " and ",
                out_shape.size(), " cannot be matched pointwise"));
    return *this;
  }
  for (size_t d = 0; d < in_shape.size(); ++d) {
    int64_t dim = static_cast<int64_t>(d);
    if (in_shape[d] == out_shape[d]) {
      addFactor(dim, in_shape[d]);
    } else if (on_mismatch) {
      on_mismatch(dim, *this);
    }
  }
  return *this;
}

OpShardingRuleBuilder&
OpShardingRuleBuilder::addPointwiseWithDiffTypeForMismatch(
    absl::Span<const int64_t> in_shape, absl::Span<const int64_t> out_shape,
    FactorType mismatch_type, bool mismatch_blocked) {
  if (in_shape.size() != out_shape.size()) {
    fail(strCat("rule builder: shapes of rank ", in_shape.size(), " and ",
                out_shape.size(), " cannot be matched pointwise"));
    return *this;
  }
  for (size_t d = 0; d < in_shape.size(); ++d) {
    bool same = in_shape[d] == out_shape[d];
    addFactor(static_cast<int64_t>(d), in_shape[d],
              same ? FactorType::kPassThrough : mismatch_type,
              !same && mismatch_blocked);
  }
  return *this;
}

int64_t OpShardingRuleBuilder::newFactor(int64_t size, FactorType type,
                                         bool blocked) {
  int64_t factor = numFactors();
  rule_.factor_sizes.push_back(size);
  setFactorKind(factor, type, blocked);
  return factor;
}

void OpShardingRuleBuilder::mapDim(std::vector<Mapping>& mappings,
                                   const std::vector<Shape>& shapes,
                                   int64_t tensor, int64_t dim, int64_t factor,
                                   std::string_view what) {
  if (!status_.ok()) return;
  if (tensor < 0 || tensor >= std::ssize(shapes)) {
    fail(strCat("rule builder: no ", what, " ", tensor));
  } else if (factor < 0 || factor >= numFactors()) {
    fail(strCat("rule builder: no factor ", factor));
  } else if (dim != kNullDim && checkDim(shapes, tensor, dim, what)) {
    mappings[tensor][dim].push_back(factor);
  }
}

OpShardingRuleBuilder& OpShardingRuleBuilder::mapOperandDim(int64_t operand,
                                                            int64_t dim,
                                                            int64_t factor) {
  mapDim(operand_mappings_, operand_shapes_, operand, dim, factor, "operand");
  return *this;
}

OpShardingRuleBuilder& OpShardingRuleBuilder::mapResultDim(int64_t result,
                                                           int64_t dim,
                                                           int64_t factor) {
  mapDim(result_mappings_, result_shapes_, result, dim, factor, "result");
  return *this;
}

OpShardingRuleBuilder& OpShardingRuleBuilder::setCustom(bool custom) {
  rule_.is_custom_rule = custom;
  return *this;
}

absl::StatusOr<OpShardingRule> OpShardingRuleBuilder::build() const {
  if (!status_.ok()) return status_;
  OpShardingRule rule = rule_;
  rule.operand_mappings =
      toTensorMappings(operand_mappings_, rule.factor_sizes);
  rule.result_mappings = toTensorMappings(result_mappings_, rule.factor_sizes);
  return rule;
}

absl::StatusOr<OpShardingRule> parseRuleNotation(std::string_view text) {
  size_t start = text.find_first_not_of(" \t\r\n");
  if (start != std::string_view::npos &&
      (text[start] == '<' || text[start] == '#')) {
    return parseOpShardingRule(text);
  }
  std::string wrapped;
  wrapped.reserve(text.size() + 2);
  wrapped += '<';
  wrapped.append(text);
  wrapped += '>';
  return parseOpShardingRule(wrapped);
}

}  // namespace shardkit
