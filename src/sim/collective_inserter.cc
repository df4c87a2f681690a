// The collective inserter: the reference's reshard-to-collectives algorithm.
//
// State, per dimension d:
//   in_[d]   the current axes that still differ from the target, after the
//            common prefix of current and target axes (decomposed so that
//            overlapping current and target sub-axes are equal pieces);
//   out_[d]  the target axes not reached yet, likewise;
//   cur_[d]  all current axes, merged, as the next out sharding prints them.
// Each collective updates the three; the reshard is done when in_ and out_
// are empty and the mesh is the target's. `in_set_` holds every axis of in_,
// `out_pos_` maps an axis of out_ to its dimension and index (rebuilt only
// when out_ axes are split, so indices may be stale by a constant shift).
#include "collective_inserter.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>
#include <utility>

#include "axis_pieces.h"
#include "shardkit/core/axis_ref_list.h"
#include "shardkit/core/tensor_shape.h"

namespace shardkit::sim_internal {
namespace {

using AxisList = AxisRefVector;

struct OutPos {
  int64_t dim;
  int64_t index;
};

bool sizesDivide(int64_t a, int64_t b) { return a % b == 0 || b % a == 0; }

class CollectiveInserter {
 public:
  CollectiveInserter(const InserterInput& input, std::vector<Collective>& out)
      : mesh_(*input.mesh),
        current_mesh_(input.current_mesh),
        target_mesh_(input.target_mesh),
        unreduced_(input.unreduced_axes),
        unreduced_kind_(input.unreduced_kind),
        in_(input.current_dims),
        out_(input.target_dims),
        cur_(input.current_dims),
        capacity_(input.current_dims.size(), 1),
        shape_(input.shape),
        emitted_(out) {
    alignPieces();
    for (size_t d = 0; d < in_.size(); ++d) {
      size_t common = 0;
      while (common < in_[d].size() && common < out_[d].size() &&
             in_[d][common] == out_[d][common]) {
        ++common;
      }
      in_[d].erase(in_[d].begin(), in_[d].begin() + common);
      out_[d].erase(out_[d].begin(), out_[d].begin() + common);
      in_set_.insert(in_set_.end(), in_[d].begin(), in_[d].end());
    }
    rebuildOutPositions();
  }

  // Power-of-two axes always finish in one round; other sizes need at most
  // two.
  bool run() {
    for (int round = 0; round < 2 && !done(); ++round) {
      tryAllSlice();
      tryCollectivePermute();
      tryAllToAlls(/*allow_out_of_order_target=*/false);
      tryAllToAlls(/*allow_out_of_order_target=*/true);
      tryAllGather();
    }
    return done();
  }

 private:
  int64_t rank() const { return static_cast<int64_t>(in_.size()); }

  bool done() const {
    if (!(current_mesh_ == target_mesh_)) return false;
    for (int64_t d = 0; d < rank(); ++d) {
      if (!in_[d].empty() || !out_[d].empty()) return false;
    }
    return true;
  }

  // Cuts current and target axes at each other's boundaries.
  void alignPieces() {
    AxisList all_in, all_out;
    for (int64_t d = 0; d < rank(); ++d) {
      all_in.insert(all_in.end(), in_[d].begin(), in_[d].end());
      all_out.insert(all_out.end(), out_[d].begin(), out_[d].end());
    }
    for (int64_t d = 0; d < rank(); ++d) {
      cutAtBoundaries(in_[d], all_out, mesh_);
      cutAtBoundaries(out_[d], all_in, mesh_);
    }
  }

  int64_t product(const AxisList& axes) const {
    return axesProduct(axes, mesh_);
  }
  int64_t size(const AxisRef& axis) const { return axis.size(mesh_); }

  bool inSetHas(const AxisRef& axis) const {
    return std::find(in_set_.begin(), in_set_.end(), axis) != in_set_.end();
  }
  void inSetAdd(const AxisRef& axis) {
    if (!inSetHas(axis)) in_set_.push_back(axis);
  }
  void inSetRemove(const AxisRef& axis) {
    auto it = std::find(in_set_.begin(), in_set_.end(), axis);
    if (it != in_set_.end()) in_set_.erase(it);
  }

  const OutPos* findOut(const AxisRef& axis) const {
    for (const auto& [out_axis, pos] : out_pos_) {
      if (out_axis == axis) return &pos;
    }
    return nullptr;
  }
  void rebuildOutPositions() {
    out_pos_.clear();
    for (int64_t d = 0; d < rank(); ++d) {
      for (size_t i = 0; i < out_[d].size(); ++i) {
        if (!findOut(out_[d][i])) {
          out_pos_.push_back({out_[d][i], {d, static_cast<int64_t>(i)}});
        }
      }
    }
  }

  TensorSharding currentSharding() const {
    std::vector<DimensionSharding> dims;
    dims.reserve(cur_.size());
    for (const AxisList& axes : cur_) dims.emplace_back(axes, true);
    TensorSharding sharding(current_mesh_, std::move(dims), {}, unreduced_);
    sharding.unreduced_kind = unreduced_kind_;
    return sharding;
  }

  void emit(Collective collective) {
    collective.out_sharding = currentSharding();
    emitted_.push_back(std::move(collective));
  }

  // Moves axes from each dimension's available list into in_[d] (at the
  // front or the back) while the dimension has capacity, splitting an axis
  // larger than the capacity left; `consume` sees every axis added.
  void distribute(bool to_front,
                  const std::function<AxisList&(int64_t)>& available,
                  const std::function<void(const AxisRef&, int64_t)>& consume) {
    AxisList split_added;
    for (int64_t d = 0; d < rank(); ++d) {
      AxisList& in = in_[d];
      size_t insert_at = to_front ? 0 : in.size();
      AxisList& avail = available(d);
      size_t i = 0;
      while (i < avail.size() && capacity_[d] > 1) {
        AxisWithinCapacity fit =
            fitAxisInCapacity(avail[i], capacity_[d], mesh_);
        if (!fit.within) {
          ++i;
          continue;
        }
        avail.erase(avail.begin() + i);
        in.insert(in.begin() + insert_at++, *fit.within);
        inSetAdd(*fit.within);
        consume(*fit.within, d);
        if (fit.remainder) {
          split_added.push_back(*fit.within);
          avail.insert(avail.begin(), *fit.remainder);
          ++i;
        }
      }
    }
    // Target axes that were split must be split the same way.
    std::sort(split_added.begin(), split_added.end());
    for (AxisList& out : out_) cutAtBoundaries(out, split_added, mesh_);
  }

  // ---- all_slice ----

  struct SliceForAllToAll {
    int64_t tgt;
    size_t begin, end;  // range of out_[tgt]
  };

  // Slicing at `src` the target axes that follow in_[src] in its target
  // dimension, so that one all_to_all later moves them all there in order
  // instead of a collective_permute reordering them. Requires: in_[src]
  // non-empty and out_[src] empty; its last axis belongs to the empty in_ of
  // another dimension tgt; the out_[tgt] axes after it are free to slice;
  // in_[src] ends with a run of out_[tgt] in the same order and has no other
  // out_[tgt] axis; and the dimension size is divisible by the new sharding.
  // Borrows the capacity of tgt.
  std::optional<SliceForAllToAll> sliceForAllToAll(int64_t src) {
    AxisList& src_in = in_[src];
    if (src_in.empty() || !out_[src].empty()) return std::nullopt;
    const OutPos* last = findOut(src_in.back());
    if (!last) return std::nullopt;
    const int64_t tgt = last->dim;
    if (!in_[tgt].empty()) return std::nullopt;
    AxisList& tgt_out = out_[tgt];
    auto found = std::find(tgt_out.begin(), tgt_out.end(), src_in.back());
    if (found == tgt_out.end()) return std::nullopt;
    const size_t begin = (found - tgt_out.begin()) + 1;
    if (begin == tgt_out.size() || inSetHas(tgt_out[begin])) {
      return std::nullopt;
    }
    int64_t common_size = 1;
    ptrdiff_t i = static_cast<ptrdiff_t>(src_in.size()) - 1;
    for (ptrdiff_t j = begin - 1; i >= 0 && j >= 0 && src_in[i] == tgt_out[j];
         --i, --j) {
      common_size *= size(src_in[i]);
    }
    for (; i >= 0; --i) {
      const OutPos* pos = findOut(src_in[i]);
      if (pos && pos->dim == tgt) return std::nullopt;
    }
    size_t end = begin;
    int64_t added_size = 1;
    while (end < tgt_out.size() && !inSetHas(tgt_out[end])) {
      added_size *= size(tgt_out[end++]);
    }
    const int64_t dim_size =
        src < static_cast<int64_t>(shape_.size()) ? shape_[src] : kDynamicSize;
    if (dim_size < 0 || dim_size % (product(cur_[src]) * added_size) != 0) {
      return std::nullopt;
    }
    capacity_[tgt] /= common_size * added_size;
    return SliceForAllToAll{tgt, begin, end};
  }

  // The slicing axes per dimension, or nullopt. Capacity of d: how much more
  // out_[d] shards d than in_[d] (over their gcd). Axes not yet sharding
  // anything are sliced (1) at a source dimension for an all_to_all, (2) in
  // their own target dimension within its capacity, (3) in the first
  // dimension with capacity left.
  std::optional<std::vector<AxisList>> slicingAxes() {
    std::vector<AxisList> slicing(rank());
    bool any = false;
    for (int64_t d = 0; d < rank(); ++d) {
      int64_t in_size = product(in_[d]), out_size = product(out_[d]);
      capacity_[d] = out_size / std::gcd(in_size, out_size);
    }
    for (int64_t src = 0; src < rank(); ++src) {
      std::optional<SliceForAllToAll> range = sliceForAllToAll(src);
      if (!range) continue;
      any = true;
      for (size_t k = range->begin; k < range->end; ++k) {
        const AxisRef axis = out_[range->tgt][k];
        in_[src].push_back(axis);
        inSetAdd(axis);
        appendOrMerge(slicing[src], axis, mesh_);
        appendOrMerge(cur_[src], axis, mesh_);
      }
    }
    AxisList available;
    for (int64_t d = 0; d < rank(); ++d) {
      AxisList& out = out_[d];
      size_t k = 0;
      while (k < out.size()) {
        const AxisRef axis = out[k];
        if (inSetHas(axis)) {
          ++k;
          continue;
        }
        AxisWithinCapacity fit = fitAxisInCapacity(axis, capacity_[d], mesh_);
        if (!fit.within) {
          available.push_back(axis);
          ++k;
          continue;
        }
        any = true;
        appendOrMerge(slicing[d], *fit.within, mesh_);
        appendOrMerge(cur_[d], *fit.within, mesh_);
        if (in_[d].empty() && k == 0) {
          out.erase(out.begin());  // Sliced where it belongs.
        } else {
          inSetAdd(*fit.within);
          in_[d].push_back(*fit.within);
          out[k++] = *fit.within;
        }
        if (fit.remainder) {
          out.insert(out.begin() + k++, *fit.remainder);
          available.push_back(*fit.remainder);
        }
      }
    }
    distribute(
        /*to_front=*/false, [&](int64_t) -> AxisList& { return available; },
        [&](const AxisRef& axis, int64_t d) {
          any = true;
          appendOrMerge(slicing[d], axis, mesh_);
          appendOrMerge(cur_[d], axis, mesh_);
        });
    rebuildOutPositions();
    if (!any) return std::nullopt;
    return slicing;
  }

  void tryAllSlice() {
    std::optional<std::vector<AxisList>> slicing = slicingAxes();
    if (!slicing) return;
    Collective slice;
    slice.kind = CollectiveKind::kAllSlice;
    for (AxisList& axes : *slicing) {
      slice.axes_per_dim.items.emplace_back(std::move(axes));
    }
    emit(std::move(slice));
  }

  // ---- collective_permute ----

  // A collective_permute helps when, for some dimension: the first current
  // and target axes have sizes dividing one another (replace one by the
  // other); an axis to gather and an axis to slice anywhere have sizes
  // dividing one another; current axes headed for one target dimension are
  // out of order or not contiguous there; or an axis to move to another
  // dimension precedes one to gather in a dimension with no target axes.
  bool shouldCollectivePermute() const {
    std::optional<AxisRef> free_in, free_out;
    for (int64_t d = 0; d < rank(); ++d) {
      const AxisList& in = in_[d];
      const AxisList& out = out_[d];
      if (!in.empty() && !out.empty() &&
          sizesDivide(size(in.front()), size(out.front()))) {
        return true;
      }
      for (const AxisRef& axis : out) {
        if (!inSetHas(axis)) free_out = axis;
      }
      std::optional<int64_t> last_dim;
      int64_t last_index = 0;
      std::vector<bool> seen(rank(), false);
      for (const AxisRef& axis : in) {
        std::optional<int64_t> dim;
        if (const OutPos* pos = findOut(axis)) {
          dim = pos->dim;
          if ((pos->dim == d || seen[pos->dim]) &&
              (last_dim != dim || pos->index != last_index + 1)) {
            return true;
          }
          seen[pos->dim] = true;
          last_index = pos->index;
        } else if (last_dim && out.empty()) {
          return true;
        } else {
          free_in = axis;
        }
        last_dim = dim;
      }
    }
    return free_in && free_out && sizesDivide(size(*free_out), size(*free_in));
  }

  // Rearranges the current axes keeping every dimension's shard count:
  // (1) target axes that fit go in place at the front of their dimension;
  // (2) other target axes go to any dimension with capacity left;
  // (3) axes to gather go back to their own dimension, in front;
  // (4) and then to any dimension with capacity left, in front.
  void performCollectivePermute() {
    AxisList free_out;
    std::vector<AxisList> free_in(rank());
    in_set_.clear();
    for (int64_t d = 0; d < rank(); ++d) {
      AxisList& in = in_[d];
      AxisList& out = out_[d];
      capacity_[d] = product(in);
      int64_t replaced = capacity_[d];
      popBackAxes(cur_[d], in, 0);
      while (capacity_[d] > 1 && !out.empty()) {
        AxisWithinCapacity fit =
            fitAxisInCapacity(out.front(), capacity_[d], mesh_);
        if (!fit.within) break;
        out.erase(out.begin());
        appendOrMerge(cur_[d], *fit.within, mesh_);
        if (fit.remainder) out.insert(out.begin(), *fit.remainder);
      }
      free_out.insert(free_out.end(), out.begin(), out.end());
      replaced /= capacity_[d];
      // Axes the target keeps are placed from free_out; of the others, those
      // replaced by target axes go last, the rest first.
      in.erase(
          std::remove_if(in.begin(), in.end(),
                         [&](const AxisRef& axis) { return findOut(axis); }),
          in.end());
      while (replaced > 1 && !in.empty()) {
        AxisWithinCapacity fit = fitAxisInCapacity(in.front(), replaced, mesh_);
        if (!fit.within) break;
        in.erase(in.begin());
        free_in[d].push_back(*fit.within);
        if (fit.remainder) in.insert(in.begin(), *fit.remainder);
      }
      free_in[d].insert(free_in[d].begin(), in.begin(), in.end());
      in.clear();
    }
    auto ignore = [](const AxisRef&, int64_t) {};
    distribute(
        /*to_front=*/false, [&](int64_t) -> AxisList& { return free_out; },
        ignore);
    distribute(
        /*to_front=*/true, [&](int64_t d) -> AxisList& { return free_in[d]; },
        ignore);
    AxisList all_free_in;
    for (const AxisList& axes : free_in) {
      all_free_in.insert(all_free_in.end(), axes.begin(), axes.end());
    }
    distribute(
        /*to_front=*/true, [&](int64_t) -> AxisList& { return all_free_in; },
        ignore);
    rebuildOutPositions();
    for (int64_t d = 0; d < rank(); ++d) {
      for (const AxisRef& axis : in_[d]) appendOrMerge(cur_[d], axis, mesh_);
    }
  }

  void tryCollectivePermute() {
    if (shouldCollectivePermute()) {
      performCollectivePermute();
    } else if (current_mesh_ == target_mesh_) {
      return;
    }
    // Also reached with no axis change when only the device order differs.
    current_mesh_ = target_mesh_;
    Collective permute;
    permute.kind = CollectiveKind::kCollectivePermute;
    emit(std::move(permute));
  }

  // ---- all_to_all ----

  // The longest suffix of in_[src] whose axes all belong to one other target
  // dimension tgt moves there (in place if it starts out_[tgt] and in_[tgt]
  // is empty). Without `allow_out_of_order_target`, only a suffix that is a
  // prefix of out_[tgt] moves.
  std::optional<AllToAllParam> nextAllToAll(int64_t src,
                                            bool allow_out_of_order_target) {
    AxisList& src_in = in_[src];
    size_t start = src_in.size();
    std::optional<int64_t> tgt;
    for (; start > 0; --start) {
      const OutPos* pos = findOut(src_in[start - 1]);
      if (!pos || pos->dim == src || (tgt && pos->dim != *tgt)) break;
      tgt = pos->dim;
    }
    if (!tgt) return std::nullopt;
    AxisList& tgt_out = out_[*tgt];
    const size_t moved = src_in.size() - start;
    if (!allow_out_of_order_target &&
        (tgt_out.size() < moved ||
         !std::equal(src_in.begin() + start, src_in.end(), tgt_out.begin()))) {
      return std::nullopt;
    }
    AllToAllParam param;
    param.src_dim = src;
    param.tgt_dim = *tgt;
    popBackAxes(cur_[src], src_in, start);
    AxisList& tgt_in = in_[*tgt];
    for (size_t k = start; k < src_in.size(); ++k) {
      const AxisRef& axis = src_in[k];
      appendOrMerge(param.axes, axis, mesh_);
      appendOrMerge(cur_[*tgt], axis, mesh_);
      inSetRemove(axis);
      if (tgt_in.empty() && !tgt_out.empty() && tgt_out.front() == axis) {
        tgt_out.erase(tgt_out.begin());
      } else {
        tgt_in.push_back(axis);
        inSetAdd(axis);
      }
    }
    src_in.resize(start);
    return param;
  }

  void tryAllToAlls(bool allow_out_of_order_target) {
    for (int64_t src = 0; src < rank(); ++src) {
      while (std::optional<AllToAllParam> param =
                 nextAllToAll(src, allow_out_of_order_target)) {
        Collective all_to_all;
        all_to_all.kind = CollectiveKind::kAllToAll;
        all_to_all.params.items.push_back(std::move(*param));
        emit(std::move(all_to_all));
      }
    }
  }

  // ---- all_gather ----

  // The suffix of in_[d] whose axes no target dimension has.
  AxisList gatheringAxes(int64_t d) {
    AxisList& in = in_[d];
    size_t start = in.size();
    while (start > 0 && !findOut(in[start - 1])) inSetRemove(in[--start]);
    popBackAxes(cur_[d], in, start);
    AxisList gathering;
    for (size_t k = start; k < in.size(); ++k) {
      appendOrMerge(gathering, in[k], mesh_);
    }
    in.resize(start);
    return gathering;
  }

  void tryAllGather() {
    Collective gather;
    gather.kind = CollectiveKind::kAllGather;
    bool any = false;
    for (int64_t d = 0; d < rank(); ++d) {
      AxisList axes = gatheringAxes(d);
      any = any || !axes.empty();
      gather.axes_per_dim.items.emplace_back(std::move(axes));
    }
    if (any) emit(std::move(gather));
  }

  const Mesh& mesh_;
  MeshOrRef current_mesh_;
  MeshOrRef target_mesh_;
  AxisRefVector unreduced_;
  ReductionKind unreduced_kind_;
  std::vector<AxisList> in_, out_, cur_;
  std::vector<int64_t> capacity_;
  AxisList in_set_;
  std::vector<std::pair<AxisRef, OutPos>> out_pos_;
  absl::Span<const int64_t> shape_;
  std::vector<Collective>& emitted_;
};

}  // namespace

bool insertCollectives(const InserterInput& input,
                       std::vector<Collective>& out) {
  return CollectiveInserter(input, out).run();
}

}  // namespace shardkit::sim_internal
