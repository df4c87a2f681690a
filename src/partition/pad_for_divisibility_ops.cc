// -sdy-pad-for-divisibility: the rewrites of the ops whose padding needs
// more than new result types (slice, pad, the contractions and the sdy
// collectives); pad_for_divisibility.h states the contract.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>
#include <vector>

#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/dialect/stablehlo/stablehlo_attrs.h"
#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/partition/device_groups.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/partition/pad_for_divisibility.h"

namespace shardkit::partition {
namespace {

std::vector<int64_t> ints(const Attribute& attr) {
  std::optional<std::vector<int64_t>> v = attr.intList();
  return v ? *v : std::vector<int64_t>();
}

// The integers of a dense integer literal in order (a splat as one value).
std::vector<int64_t> literalInts(const Attribute& attr) {
  std::vector<int64_t> values;
  const ElementsValue* elements = attr.asElements();
  if (elements == nullptr) return values;
  const std::string& text = elements->literal;
  for (size_t i = 0; i < text.size();) {
    const bool digit = std::isdigit(static_cast<unsigned char>(text[i]));
    const bool minus = text[i] == '-' && i + 1 < text.size() &&
                       std::isdigit(static_cast<unsigned char>(text[i + 1]));
    if (!digit && !minus) {
      ++i;
      continue;
    }
    char* end = nullptr;
    values.push_back(std::strtoll(text.c_str() + i, &end, 10));
    i = end - text.c_str();
  }
  return values;
}

// Entry `i` of an optional per-dimension list, or `fallback`.
int64_t at(const std::vector<int64_t>& list, size_t i, int64_t fallback) {
  if (list.size() == 1) return list[0];
  return i < list.size() ? list[i] : fallback;
}

// The result shape of a convolution of `lhs` by `rhs` with `op`'s window,
// dimension numbers and group counts, by StableHLO's shape rules; nullopt
// without dimension numbers.
std::optional<std::vector<int64_t>> convolutionShape(
    Op op, absl::Span<const int64_t> lhs, absl::Span<const int64_t> rhs,
    const ConvDimensionNumbers& dims) {
  const size_t spatial = dims.input_spatial.size();
  if (dims.kernel_spatial.size() != spatial ||
      dims.output_spatial.size() != spatial) {
    return std::nullopt;
  }
  std::vector<int64_t> strides = ints(op.attr("window_strides"));
  std::vector<int64_t> lhs_dilation = ints(op.attr("lhs_dilation"));
  std::vector<int64_t> rhs_dilation = ints(op.attr("rhs_dilation"));
  std::vector<int64_t> padding = literalInts(op.attr("padding"));
  const int64_t batch_groups =
      std::max<int64_t>(1, op.attr("batch_group_count").intValue().value_or(1));
  std::vector<int64_t> out(lhs.size(), 0);
  out[dims.output_batch] = lhs[dims.input_batch] / batch_groups;
  out[dims.output_feature] = rhs[dims.kernel_output_feature];
  for (size_t i = 0; i < spatial; ++i) {
    const int64_t in = lhs[dims.input_spatial[i]];
    const int64_t window = rhs[dims.kernel_spatial[i]];
    const int64_t dilated_in =
        in == 0 ? 0 : (in - 1) * at(lhs_dilation, i, 1) + 1;
    const int64_t padded_in =
        dilated_in + at(padding, 2 * i, 0) + at(padding, 2 * i + 1, 0);
    const int64_t dilated_window =
        window == 0 ? 0 : (window - 1) * at(rhs_dilation, i, 1) + 1;
    const int64_t stride = std::max<int64_t>(1, at(strides, i, 1));
    out[dims.output_spatial[i]] =
        padded_in < dilated_window ? 0
                                   : (padded_in - dilated_window) / stride + 1;
  }
  return out;
}

// The dimensions of a slice that need no data of another device when both
// sides are sharded alike: unsharded ones, and ones that start at 0 with
// stride 1 and keep the per-device piece size.
bool isCommunicationFreeSliceDim(PadForDivisibility& p, Op op, int64_t dim,
                                 const TensorSharding* sharding) {
  if (sharding == nullptr || dim >= sharding->rank()) return true;
  const Mesh* mesh = p.meshOf(*sharding);
  const AxisRefVector& axes = sharding->dim_shardings[dim].axes;
  const int64_t shards = mesh && !axes.empty() ? totalAxesSize(axes, *mesh) : 1;
  if (shards <= 1) return true;
  if (ints(op.attr("start_indices"))[dim] != 0 ||
      ints(op.attr("strides"))[dim] != 1) {
    return false;
  }
  const int64_t in = p.originalType(op.operand(0)).shape()[dim];
  const int64_t out = p.originalType(op.result(0)).shape()[dim];
  if (in == kDynamicSize || out == kDynamicSize) return false;
  return (in + shards - 1) / shards == (out + shards - 1) / shards;
}

// Pads the operand of a collective `op` to `padded` (zeros where its
// padding was unknown) and gives the result that type; the result is known
// zero-padded when the operand's padding is.
void padCollectiveOperand(PadForDivisibility& p, Op op, Type padded) {
  Value input = op.operand(0);
  bool zero = p.isZeroPadded(input);
  const bool padded_before = input.type() != p.originalType(input);
  if (padded != input.type()) {
    // Padding an unpadded value with zeros makes it zero-padded; padding a
    // padded one further keeps what was known of it.
    zero = !padded_before || zero;
    HloEmitter e(p.module(), op);
    Value pad = p.padWithZeros(e, input, padded);
    if (zero) p.markZeroPadded(pad);
    op.setOperand(0, pad);
  }
  p.retype(op.result(0), padded);
  if (zero) p.markZeroPadded(op.result(0));
}

}  // namespace

absl::Status padSlice(PadForDivisibility& p, Op op) {
  Value result = op.result(0);
  Type type = p.originalType(result);
  Type padded = p.paddedTypeOf(result);
  if (padded == type) {
    p.padGeneric(op);
    return absl::OkStatus();
  }
  std::vector<int64_t> starts = ints(op.attr("start_indices"));
  std::vector<int64_t> limits = ints(op.attr("limit_indices"));
  std::vector<int64_t> strides = ints(op.attr("strides"));
  const TensorSharding* in = p.sharding(op.operand(0));
  std::optional<TensorSharding> in_copy;
  if (in != nullptr) in_copy = *in;
  for (int64_t d = 0; d < padded.rank(); ++d) {
    if (padded.shape()[d] == type.shape()[d]) continue;
    const int64_t limit = starts[d] + padded.shape()[d];
    if (limit != limits[d] &&
        !isCommunicationFreeSliceDim(p, op, d, in_copy ? &*in_copy : nullptr)) {
      return p.error(op, strCat("dimension ", d,
                                " of the slice cannot be padded for "
                                "divisibility without communication."));
    }
    limits[d] = limit;
  }
  op.setAttr("limit_indices", Attribute::i64Array(limits));
  p.retype(result, padded);
  return absl::OkStatus();
}

absl::Status padPad(PadForDivisibility& p, Op op) {
  Value input = op.operand(0);
  Value result = op.result(0);
  Type padded = p.paddedTypeOf(result);
  std::vector<int64_t> low = ints(op.attr("edge_padding_low"));
  std::vector<int64_t> high = ints(op.attr("edge_padding_high"));
  std::vector<int64_t> interior = ints(op.attr("interior_padding"));
  const int64_t rank = input.type().rank();
  if (static_cast<int64_t>(low.size()) != rank ||
      static_cast<int64_t>(high.size()) != rank ||
      static_cast<int64_t>(interior.size()) != rank) {
    return p.error(op, "expected a padding per dimension");
  }
  // The high padding that makes the result its padded size from the
  // (possibly padded) input: padded = in + low + high + (in - 1) * interior.
  // The input's own padding rows land right after its data. Where the high
  // padding shrinks they stand in for it, and where they land inside the
  // original result they are part of it: either way they must hold the
  // padding value first. (The reference masks in the first case only, and
  // so leaves the widened rows of a slice, say, in the result.)
  Type original_in = p.originalType(input);
  Type original_out = p.originalType(result);
  std::vector<int64_t> new_high;
  bool visible = false;
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t in = input.type().shape()[d];
    new_high.push_back(padded.shape()[d] - in - low[d] -
                       std::max<int64_t>(0, in - 1) * interior[d]);
    const int64_t data_end =
        low[d] + original_in.shape()[d] * (interior[d] + 1);
    visible =
        visible || new_high[d] < high[d] ||
        (in > original_in.shape()[d] && data_end < original_out.shape()[d]);
  }
  if (visible) {
    HloEmitter e(p.module(), op);
    op.setOperand(0,
                  p.maskPadding(e, input, original_in, op.operand(1), nullptr));
  }
  op.setAttr("edge_padding_high", Attribute::i64Array(new_high));
  p.retype(result, padded);
  return absl::OkStatus();
}

absl::Status padDotGeneral(PadForDivisibility& p, Op op) {
  std::optional<DotDimensionNumbers> dims =
      getDotDimensionNumbers(op.attr("dot_dimension_numbers"));
  if (!dims || op.numOperands() != 2) {
    return p.error(op, "expected dot dimension numbers");
  }
  // Padding along a contracted dimension must be zero to add nothing.
  HloEmitter e(p.module(), op);
  op.setOperand(0,
                p.ensureZeroPadding(e, op.operand(0), dims->lhs_contracting));
  op.setOperand(1,
                p.ensureZeroPadding(e, op.operand(1), dims->rhs_contracting));
  p.padGeneric(op);
  return absl::OkStatus();
}

absl::Status padReduce(PadForDivisibility& p, Op op) {
  // Inputs, then as many init values: the padding along a reduced dimension
  // must hold the init value (the reduction's identity) to change nothing.
  std::vector<int64_t> reduced = ints(op.attr("dimensions"));
  const unsigned inputs = op.numOperands() / 2;
  HloEmitter e(p.module(), op);
  for (unsigned i = 0; i < inputs; ++i) {
    Value input = op.operand(i);
    op.setOperand(i, p.maskPadding(e, input, p.originalType(input),
                                   op.operand(inputs + i), &reduced));
  }
  p.padGeneric(op);
  return absl::OkStatus();
}

absl::Status padConvolution(PadForDivisibility& p, Op op) {
  std::optional<ConvDimensionNumbers> dims =
      getConvDimensionNumbers(op.attr("dimension_numbers"));
  if (!dims || op.numOperands() != 2) {
    return p.error(op, "expected convolution dimension numbers");
  }
  // Zeros where the window reads (features and spatial dims); the batch and
  // output-feature dims pass through.
  std::vector<int64_t> lhs_dims = {dims->input_feature};
  lhs_dims.insert(lhs_dims.end(), dims->input_spatial.begin(),
                  dims->input_spatial.end());
  std::vector<int64_t> rhs_dims = {dims->kernel_input_feature};
  rhs_dims.insert(rhs_dims.end(), dims->kernel_spatial.begin(),
                  dims->kernel_spatial.end());
  HloEmitter e(p.module(), op);
  Value lhs = p.ensureZeroPadding(e, op.operand(0), lhs_dims);
  Value rhs = p.ensureZeroPadding(e, op.operand(1), rhs_dims);
  std::optional<std::vector<int64_t>> shape =
      convolutionShape(op, lhs.type().shape(), rhs.type().shape(), *dims);
  Value result = op.result(0);
  Type padded = p.paddedTypeOf(result);
  if (!shape || static_cast<int64_t>(shape->size()) != padded.rank()) {
    return p.error(op, "failed to infer the padded convolution's shape");
  }
  for (int64_t d : dims->output_spatial) {
    if ((*shape)[d] < padded.shape()[d]) {
      return locatedError(
          op, strCat("failed to legalize operation '", op.name(),
                     "': its output spatial dimension ", d,
                     " would be smaller than its padded size; spatial "
                     "sharding must be made divisible or replicated before "
                     "(-sdy-resolve-permutation-factors)"));
    }
  }
  op.setOperand(0, lhs);
  op.setOperand(1, rhs);
  Type conv_type = p.module().types().rankedTensor(
      *shape, p.originalType(lhs).elementType());
  p.retype(result, conv_type);
  std::optional<TensorSharding> out = getSharding(result);
  p.trimAfter(op, result, padded, dims->output_spatial, out,
              /*zero_padded=*/true);
  return absl::OkStatus();
}

absl::Status padAllGather(PadForDivisibility& p, Op op) {
  Value result = op.result(0);
  Type original = p.originalType(result);
  const bool zero = p.isZeroPadded(op.operand(0));
  const TensorSharding out = sdy::collectiveOutSharding(op);
  Type padded_result = p.paddedType(original, &out);
  // The gather of a padded operand has the operand's shape.
  Type input = op.operand(0).type();
  std::vector<int64_t> shape(padded_result.shape().begin(),
                             padded_result.shape().end());
  for (int64_t d = 0; d < input.rank() && d < std::ssize(shape); ++d) {
    shape[d] = std::max(shape[d], input.shape()[d]);
  }
  // A gathered dimension that stays sharded but comes out larger than its
  // padded size holds its rows at the wrong devices: it is gathered whole,
  // trimmed, and sliced again by its remaining axes after. (The reference
  // trims it while sharded.)
  ListOfAxisRefLists axes = sdy::AllGatherOp(op).axes();
  const TensorSharding* in = p.sharding(op.operand(0));
  TensorSharding gathered_sharding = out;
  ListOfAxisRefLists reslice(std::vector<AxisRefList>(out.rank()));
  bool regather = false;
  std::vector<int64_t> gathered;
  for (int64_t d = 0; d < std::ssize(axes.items) && d < out.rank(); ++d) {
    if (axes.items[d].empty()) continue;
    gathered.push_back(d);
    const AxisRefVector& left = out.dim_shardings[d].axes;
    if (left.empty() || shape[d] <= padded_result.shape()[d] || in == nullptr ||
        d >= in->rank()) {
      continue;
    }
    axes.items[d] = AxisRefList(in->dim_shardings[d].axes);
    gathered_sharding.dim_shardings[d].axes.clear();
    reslice.items[d] = AxisRefList(left);
    regather = true;
  }
  if (regather) {
    op.setAttr(sdy::AllGatherOp::kAxesAttr, Attribute::of(axes));
    op.setAttr("out_sharding", Attribute::of(gathered_sharding));
  }
  p.retype(result, p.module().types().rankedTensor(shape, input.elementType()));
  if (zero) p.markZeroPadded(result);
  Type target = regather ? original : padded_result;
  if (!regather) {
    // Dims that end unsharded are trimmed to their original size.
    std::vector<int64_t> sizes(target.shape().begin(), target.shape().end());
    for (int64_t d : gathered) {
      if (out.dim_shardings[d].axes.empty()) sizes[d] = original.shape()[d];
    }
    target = p.module().types().rankedTensor(sizes, original.elementType());
  }
  Value trimmed = p.trimAfter(op, result, target, gathered,
                              regather ? gathered_sharding : out, zero);
  if (!regather) return absl::OkStatus();
  // Slice the regathered dimensions by their remaining axes.
  Op after = trimmed.definingOp() ? trimmed.definingOp() : op;
  OperationState state(sdy::AllSliceOp::opName());
  state.operands = {trimmed};
  state.result_types = {trimmed.type()};
  state.addAttr(sdy::AllSliceOp::kAxesAttr, Attribute::of(reslice));
  state.addAttr("out_sharding", Attribute::of(out));
  HloEmitter e(p.module(), after);
  Op slice = e.create(state);
  slice.moveAfter(after);
  trimmed.replaceUsesWithIf(slice.result(0), [&](const Value::Use& use) {
    return use.user() != slice;
  });
  p.rememberOriginalType(slice.result(0), original);
  return padSlicingCollective(p, slice);
}

namespace {

// Padding a dimension its operand already shards would move every piece
// but the first: an all_slice first gathers such dimensions (an
// sdy.all_gather of the operand's axes there), then slices them by all the
// axes of its out sharding. (The reference pads the sharded operand as it
// is, which loses the rows that move to another device.)
void gatherShardedPaddedDims(PadForDivisibility& p, Op op, Type padded) {
  Value input = op.operand(0);
  const TensorSharding* in = p.sharding(input);
  if (in == nullptr) return;
  const Mesh* mesh = p.meshOf(*in);
  if (mesh == nullptr) return;
  TensorSharding gathered_sharding = *in;
  ListOfAxisRefLists gathering(std::vector<AxisRefList>(in->rank()));
  ListOfAxisRefLists slicing = sdy::AllSliceOp(op).axes();
  const TensorSharding& out = sdy::collectiveOutSharding(op);
  bool any = false;
  for (int64_t d = 0; d < in->rank() && d < padded.rank(); ++d) {
    const AxisRefVector& axes = in->dim_shardings[d].axes;
    if (padded.shape()[d] == input.type().shape()[d] || axes.empty() ||
        totalAxesSize(axes, *mesh) <= 1 || d >= std::ssize(slicing.items) ||
        d >= out.rank()) {
      continue;
    }
    gathering.items[d] = AxisRefList(axes);
    gathered_sharding.dim_shardings[d].axes.clear();
    slicing.items[d] = AxisRefList(out.dim_shardings[d].axes);
    any = true;
  }
  if (!any) return;
  const bool zero = p.isZeroPadded(input);
  Type original = p.originalType(input);
  OperationState state(sdy::AllGatherOp::opName());
  state.operands = {input};
  state.result_types = {input.type()};
  state.addAttr(sdy::AllGatherOp::kAxesAttr, Attribute::of(gathering));
  state.addAttr("out_sharding", Attribute::of(gathered_sharding));
  HloEmitter e(p.module(), op);
  Value gathered = e.create1(state);
  p.rememberOriginalType(gathered, original);
  if (zero) p.markZeroPadded(gathered);
  op.setOperand(0, gathered);
  op.setAttr(sdy::AllSliceOp::kAxesAttr, Attribute::of(slicing));
}

}  // namespace

absl::Status padSlicingCollective(PadForDivisibility& p, Op op) {
  const TensorSharding& out = sdy::collectiveOutSharding(op);
  Type padded = p.paddedType(op.operand(0).type(), &out);
  if (isa<sdy::AllSliceOp>(op)) gatherShardedPaddedDims(p, op, padded);
  padCollectiveOperand(p, op, padded);
  return absl::OkStatus();
}

namespace {

// An all_to_all that must pad a dimension its operand already shards, or
// whose source dimension stays sharded but would come out larger than its
// padded size, is done as a gather and a slice instead, so the padding and
// trimming happen where that dimension is whole: an sdy.all_gather of each
// source dimension's moving axes and of each such dimension's axes, then an
// sdy.all_slice to the out sharding (each padded in turn). False when no such
// dimension is padded.
absl::StatusOr<bool> splitAllToAll(PadForDivisibility& p, Op op) {
  Value input = op.operand(0);
  const TensorSharding out = sdy::collectiveOutSharding(op);
  Type padded = p.paddedType(input.type(), &out);
  const TensorSharding* in_ptr = p.sharding(input);
  if (in_ptr == nullptr || p.meshOf(*in_ptr) == nullptr) return false;
  const TensorSharding in = *in_ptr;
  const Mesh& mesh = *p.meshOf(in);
  const int64_t rank = in.rank();
  if (out.rank() != rank || padded.rank() != rank) return false;
  std::vector<bool> whole(rank, false);
  bool any = false;
  for (int64_t d = 0; d < rank; ++d) {
    const AxisRefVector& axes = in.dim_shardings[d].axes;
    if (padded.shape()[d] != input.type().shape()[d] && !axes.empty() &&
        totalAxesSize(axes, mesh) > 1) {
      whole[d] = any = true;
    }
  }
  // A source dimension that stays sharded but comes out larger than its
  // padded size needs the same (its gather regathers it whole).
  Type padded_out = p.paddedType(p.originalType(op.result(0)), &out);
  for (const AllToAllParam& param : sdy::AllToAllOp(op).params()) {
    const int64_t d = param.src_dim;
    if (d < rank && !out.dim_shardings[d].axes.empty() &&
        input.type().shape()[d] > padded_out.shape()[d]) {
      any = true;
    }
  }
  if (!any) return false;
  TensorSharding mid = in;
  ListOfAxisRefLists gathering{std::vector<AxisRefList>(rank)};
  for (const AllToAllParam& param : sdy::AllToAllOp(op).params()) {
    AxisRefVector& kept = mid.dim_shardings[param.src_dim].axes;
    kept.resize(kept.size() - std::min(kept.size(), param.axes.size()));
    gathering.items[param.src_dim] = AxisRefList(param.axes);
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (!whole[d]) continue;
    gathering.items[d] = AxisRefList(in.dim_shardings[d].axes);
    mid.dim_shardings[d].axes.clear();
  }
  ListOfAxisRefLists slicing{std::vector<AxisRefList>(rank)};
  for (int64_t d = 0; d < rank; ++d) {
    const AxisRefVector& have = mid.dim_shardings[d].axes;
    const AxisRefVector& want = out.dim_shardings[d].axes;
    if (have.size() > want.size() ||
        !std::equal(have.begin(), have.end(), want.begin())) {
      return p.error(op,
                     "cannot split the all_to_all into a gather and a "
                     "slice for padding");
    }
    slicing.items[d] =
        AxisRefList(AxisRefVector(want.begin() + have.size(), want.end()));
  }
  HloEmitter e(p.module(), op);
  OperationState gather(sdy::AllGatherOp::opName());
  gather.operands = {input};
  gather.result_types = {input.type()};
  gather.addAttr(sdy::AllGatherOp::kAxesAttr, Attribute::of(gathering));
  gather.addAttr("out_sharding", Attribute::of(mid));
  Op gather_op = e.create(gather);
  p.rememberOriginalType(gather_op.result(0), p.originalType(input));
  OperationState slice(sdy::AllSliceOp::opName());
  slice.operands = {gather_op.result(0)};
  slice.result_types = {input.type()};
  slice.addAttr(sdy::AllSliceOp::kAxesAttr, Attribute::of(slicing));
  slice.addAttr("out_sharding", Attribute::of(out));
  Op slice_op = e.create(slice);
  p.rememberOriginalType(slice_op.result(0), p.originalType(op.result(0)));
  op.result(0).replaceAllUsesWith(slice_op.result(0));
  op.erase();
  SK_RETURN_IF_ERROR(padAllGather(p, gather_op));
  SK_RETURN_IF_ERROR(padSlicingCollective(p, slice_op));
  return true;
}

}  // namespace

absl::Status padAllToAll(PadForDivisibility& p, Op op) {
  SK_ASSIGN_OR_RETURN(bool split, splitAllToAll(p, op));
  if (split) return absl::OkStatus();
  Value input = op.operand(0);
  Type input_original = p.originalType(input);
  const bool zero = p.isZeroPadded(input);
  const TensorSharding out = sdy::collectiveOutSharding(op);
  padCollectiveOperand(p, op, p.paddedType(input.type(), &out));
  // The source dims of each parameter are gathered: their padding, spread
  // over the devices, is cut back to the operand's size, or to the padded
  // size where they stay sharded (splitAllToAll saw to it that this is no
  // larger than what they have).
  std::vector<int64_t> sources;
  std::vector<int64_t> target(input_original.shape().begin(),
                              input_original.shape().end());
  Type padded_out = p.paddedType(p.originalType(op.result(0)), &out);
  for (const AllToAllParam& param : sdy::AllToAllOp(op).params()) {
    sources.push_back(param.src_dim);
    if (param.src_dim < out.rank() && param.src_dim < padded_out.rank() &&
        !out.dim_shardings[param.src_dim].axes.empty()) {
      target[param.src_dim] = padded_out.shape()[param.src_dim];
    }
  }
  p.trimAfter(
      op, op.result(0),
      p.module().types().rankedTensor(target, input_original.elementType()),
      sources, out, zero);
  return absl::OkStatus();
}

}  // namespace shardkit::partition
