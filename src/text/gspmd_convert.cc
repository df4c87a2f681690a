// Conversion between sdy shardings on a mesh and HloSharding tilings.
//
// A mesh's devices, row-major over its axes, split each axis into "pieces"
// at every sub-axis boundary the sharding uses. A sub-axis "x":(pre)size is
// the part of "x" after (minor to) parts of total size `pre`, so within an
// axis the piece with the smallest pre-size is the major one, and a device's
// digit in "x":(pre)size has weight size(x) / (pre * size). The HloSharding's
// tile assignment is then iota over the pieces, transposed so that each tensor
// dimension's pieces come first (in its major-to-minor order), then manual and
// replicated pieces: the V2 iota form, canonicalized as XLA does.
#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "absl/container/flat_hash_map.h"
#include "shardkit/support/budgets.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/hlo_sharding.h"

namespace shardkit {
namespace {

absl::Status gspmdError(std::string_view message) {
  return absl::InvalidArgumentError(strCat("GSPMD: ", message));
}

// One piece of a mesh axis: the sub-axis "axis":(pre)size.
struct Piece {
  int axis;
  int64_t pre;
  int64_t size;
};

// XLA's canonical iota: size-1 dimensions dropped, runs of reshape
// dimensions that stay consecutive under the permutation merged.
void canonicalizeIota(std::vector<int64_t>& dims, std::vector<int64_t>& perm) {
  while (true) {
    std::vector<int64_t> new_index(dims.size(), -1);
    std::vector<int64_t> kept_dims;
    for (size_t i = 0; i < dims.size(); ++i) {
      if (dims[i] != 1) {
        new_index[i] = static_cast<int64_t>(kept_dims.size());
        kept_dims.push_back(dims[i]);
      }
    }
    std::vector<int64_t> kept_perm;
    for (int64_t p : perm) {
      if (new_index[p] >= 0) kept_perm.push_back(new_index[p]);
    }
    dims = std::move(kept_dims);
    perm = std::move(kept_perm);
    bool changed = false;
    for (size_t i = 1, base = 0; i < perm.size(); ++i) {
      if (perm[base] + static_cast<int64_t>(i - base) == perm[i]) {
        dims[perm[base]] *= dims[perm[i]];
        dims[perm[i]] = 1;
        changed = true;
      } else {
        base = i;
      }
    }
    if (!changed) break;
  }
  if (dims.empty()) {
    dims = {1};
    perm = {0};
  }
}

// The pieces of every axis of `mesh` split at `cuts[axis]` (pre-sizes),
// major piece (smallest pre-size) first within an axis, axes in mesh order.
std::vector<Piece> meshPieces(const Mesh& mesh,
                              const std::vector<std::set<int64_t>>& cuts) {
  std::vector<Piece> pieces;
  for (size_t a = 0; a < mesh.axes.size(); ++a) {
    std::vector<int64_t> points(cuts[a].begin(), cuts[a].end());
    for (size_t i = 0; i + 1 < points.size(); ++i) {
      pieces.push_back(
          {static_cast<int>(a), points[i], points[i + 1] / points[i]});
    }
  }
  return pieces;
}

}  // namespace

absl::StatusOr<HloSharding> toHloSharding(
    const TensorSharding& sharding, const Mesh& mesh,
    absl::Span<const std::string> manual_axes) {
  if (std::optional<int64_t> device = mesh.maximalDeviceId()) {
    return HloSharding::maximal(*device);
  }
  if (!sharding.unreduced_axes.empty()) {
    return gspmdError("unreduced axes have no HloSharding equivalent");
  }
  std::vector<std::set<int64_t>> cuts(mesh.axes.size());
  for (size_t a = 0; a < mesh.axes.size(); ++a)
    cuts[a] = {1, mesh.axes[a].size};
  auto axisOf = [&](const AxisRef& ref) -> absl::StatusOr<int> {
    int a = mesh.axisIndex(ref.name);
    if (a < 0) return gspmdError(strCat("unknown axis \"", ref.name, "\""));
    int64_t size = mesh.axes[a].size;
    if (ref.sub_axis_info &&
        (ref.preSize() < 1 || ref.sub_axis_info->size < 1 ||
         size % ref.sub_axis_info->nextPreSize() != 0)) {
      return gspmdError(strCat("invalid sub-axis of \"", ref.name, "\""));
    }
    return a;
  };
  auto addCuts = [&](const AxisRef& ref) -> absl::Status {
    SK_ASSIGN_OR_RETURN(int a, axisOf(ref));
    cuts[a].insert(ref.preSize());
    cuts[a].insert(ref.nextPreSize(mesh));
    return absl::OkStatus();
  };
  for (const DimensionSharding& dim : sharding.dim_shardings) {
    for (const AxisRef& ref : dim.axes) SK_RETURN_IF_ERROR(addCuts(ref));
  }
  for (const AxisRef& ref : sharding.replicated_axes)
    SK_RETURN_IF_ERROR(addCuts(ref));
  std::vector<bool> is_manual(mesh.axes.size(), false);
  for (const std::string& name : manual_axes) {
    int a = mesh.axisIndex(name);
    if (a < 0) return gspmdError(strCat("unknown manual axis \"", name, "\""));
    is_manual[a] = true;
  }
  std::vector<Piece> pieces = meshPieces(mesh, cuts);
  std::vector<bool> used(pieces.size(), false);
  auto pieceOf = [&](const AxisRef& ref) -> absl::StatusOr<size_t> {
    SK_ASSIGN_OR_RETURN(int a, axisOf(ref));
    for (size_t i = 0; i < pieces.size(); ++i) {
      if (pieces[i].axis == a && pieces[i].pre == ref.preSize()) {
        // A ref that spans several pieces overlaps another ref of its axis.
        if (used[i] || is_manual[a] || pieces[i].size != ref.size(mesh))
          return gspmdError(strCat("axis \"", ref.name, "\" used twice"));
        used[i] = true;
        return i;
      }
    }
    return gspmdError(strCat("invalid sub-axis of \"", ref.name, "\""));
  };

  HloSharding result;
  result.kind = HloShardingKind::kTiled;
  std::vector<int64_t> perm;
  int64_t data_tiles = 1;
  for (const DimensionSharding& dim : sharding.dim_shardings) {
    int64_t tiles = 1;
    for (const AxisRef& ref : dim.axes) {
      SK_ASSIGN_OR_RETURN(size_t piece, pieceOf(ref));
      perm.push_back(static_cast<int64_t>(piece));
      tiles *= pieces[piece].size;
    }
    result.tile_dims.push_back(tiles);
    data_tiles *= tiles;
  }
  int64_t manual_size = 1, replicated_size = 1;
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (!used[i] && is_manual[pieces[i].axis]) {
      perm.push_back(static_cast<int64_t>(i));
      manual_size *= pieces[i].size;
    }
  }
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (!used[i] && !is_manual[pieces[i].axis]) {
      perm.push_back(static_cast<int64_t>(i));
      replicated_size *= pieces[i].size;
    }
  }
  if (data_tiles == 1 && manual_size == 1) return HloSharding::replicated();
  if (data_tiles == 1 && replicated_size == 1) return HloSharding::manual();
  if (manual_size > 1) {
    result.tile_dims.push_back(manual_size);
    result.last_tile_dims.push_back(HloSubgroup::kManual);
  }
  if (replicated_size > 1) {
    result.tile_dims.push_back(replicated_size);
    if (manual_size > 1) {
      result.last_tile_dims.push_back(HloSubgroup::kReplicated);
    } else {
      result.last_tile_dim_replicate = true;
    }
  }
  std::vector<int64_t> reshape;
  reshape.reserve(pieces.size());
  for (const Piece& piece : pieces) reshape.push_back(piece.size);
  canonicalizeIota(reshape, perm);
  result.iota_reshape_dims = std::move(reshape);
  result.iota_perm = std::move(perm);
  if (!mesh.device_ids.empty() && !mesh.hasIotaDeviceIds()) {
    // Devices other than iota: the tiles list them (V1).
    std::vector<int64_t> positions = result.tileDevices();
    for (int64_t& p : positions) p = mesh.device_ids[static_cast<size_t>(p)];
    result.devices = std::move(positions);
    result.iota_reshape_dims.clear();
    result.iota_perm.clear();
  }
  return result;
}

namespace {

// The mesh position of every device id, and each position's coordinate
// along each axis.
struct MeshCoordinates {
  absl::flat_hash_map<int64_t, int64_t> position_of_device;
  std::vector<std::vector<int64_t>> coords;  // [position][axis]

  explicit MeshCoordinates(const Mesh& mesh) {
    std::vector<int64_t> ids = mesh.deviceIdsOrIota();
    for (size_t p = 0; p < ids.size(); ++p)
      position_of_device[ids[p]] = static_cast<int64_t>(p);
    coords.assign(ids.size(), std::vector<int64_t>(mesh.axes.size()));
    for (size_t p = 0; p < ids.size(); ++p) {
      int64_t rest = static_cast<int64_t>(p);
      for (size_t a = mesh.axes.size(); a-- > 0;) {
        coords[p][a] = rest % mesh.axes[a].size;
        rest /= mesh.axes[a].size;
      }
    }
  }
};

// The axis a position's coordinates single out: the one non-zero axis (and
// its coordinate), or -1.
int singleAxis(const std::vector<int64_t>& coords, int64_t& value) {
  int axis = -1;
  for (size_t a = 0; a < coords.size(); ++a) {
    if (coords[a] == 0) continue;
    if (axis >= 0) return -1;
    axis = static_cast<int>(a);
    value = coords[a];
  }
  return axis;
}

// Reads dimension `dim`'s axes off the tile positions: moving along the
// dimension, each run of positions that step one axis by a fixed weight is
// one (sub-)axis, minor first.
absl::StatusOr<DimensionSharding> readDimension(
    const Mesh& mesh, const MeshCoordinates& mc,
    const std::vector<int64_t>& positions, int64_t tiles, int64_t stride) {
  AxisRefVector minor_first;
  int64_t k = 1;
  while (k < tiles) {
    int64_t weight = 0;
    int axis = singleAxis(mc.coords[positions[k * stride]], weight);
    if (axis < 0) return gspmdError("a tile dimension crosses mesh axes");
    int64_t axis_size = mesh.axes[axis].size;
    int64_t run = 1;
    while (k * (run + 1) <= tiles && weight * (run + 1) <= axis_size) {
      int64_t value = 0;
      if (singleAxis(mc.coords[positions[k * run * stride]], value) != axis ||
          value != weight * run) {
        break;
      }
      ++run;
    }
    // The largest size the run allows that divides what is left of the
    // dimension and fits the axis.
    int64_t size = run;
    while (size > 1 &&
           ((tiles / k) % size != 0 || axis_size % (weight * size) != 0))
      --size;
    if (size < 2)
      return gspmdError("a tile dimension is not a product of mesh axes");
    int64_t pre = axis_size / (weight * size);
    if (pre == 1 && size == axis_size) {
      minor_first.emplace_back(mesh.axes[axis].name);
    } else {
      minor_first.emplace_back(mesh.axes[axis].name, pre, size);
    }
    k *= size;
  }
  if (k != tiles)
    return gspmdError("a tile dimension is not a product of mesh axes");
  std::reverse(minor_first.begin(), minor_first.end());
  return DimensionSharding(std::move(minor_first), /*is_closed=*/true);
}

}  // namespace

absl::StatusOr<TensorSharding> fromHloSharding(const HloSharding& hlo,
                                               const Mesh& mesh,
                                               const MeshOrRef& mesh_ref,
                                               int64_t rank) {
  switch (hlo.kind) {
    case HloShardingKind::kReplicated:
      return TensorSharding::fullyClosed(mesh_ref, rank);
    case HloShardingKind::kMaximal:
      return TensorSharding(MeshOrRef::inlined(Mesh::maximal(hlo.device)), {});
    case HloShardingKind::kManual:
      return gspmdError(
          "{manual} has no sdy sharding: manual values live inside a manual "
          "computation");
    case HloShardingKind::kTuple:
      return gspmdError("a tuple sharding describes several values");
    case HloShardingKind::kTiled:
      break;
  }
  for (HloSubgroup subgroup : hlo.last_tile_dims) {
    if (subgroup == HloSubgroup::kManual)
      return gspmdError(
          "manual subgroups (last_tile_dims={manual}) are not supported");
  }
  if (static_cast<int64_t>(hlo.dataRank()) != rank) {
    return gspmdError(strCat("the sharding tiles ", hlo.dataRank(),
                             " dimensions, the tensor has rank ", rank));
  }
  // The tile count (at most 2^40: the parser checks it) is checked before
  // the tiles are listed, against the mesh and against the budget.
  int64_t tiles = 1;
  for (int64_t d : hlo.tile_dims) tiles *= d;
  if (tiles != mesh.totalSize()) {
    return gspmdError(strCat("the sharding has ", tiles, " devices, the mesh ",
                             mesh.totalSize()));
  }
  if (tiles > kDeviceBudget) {
    return gspmdError(strCat("the sharding's ", tiles,
                             " devices exceed the budget of ", kDeviceBudget,
                             " devices listed one by one"));
  }
  std::vector<int64_t> devices = hlo.tileDevices();
  MeshCoordinates mc(mesh);
  std::vector<int64_t> positions;
  positions.reserve(devices.size());
  for (int64_t d : devices) {
    auto it = mc.position_of_device.find(d);
    if (it == mc.position_of_device.end())
      return gspmdError(strCat("device ", d, " is not in the mesh"));
    positions.push_back(it->second);
  }
  // Each tile's replication group starts (at its smallest position) where
  // the replicated axes are all zero: those positions carry the tiling.
  int64_t group = 1;
  for (size_t i = hlo.dataRank(); i < hlo.tile_dims.size(); ++i)
    group *= hlo.tile_dims[i];
  std::vector<int64_t> firsts;
  for (size_t start = 0; start < positions.size();
       start += static_cast<size_t>(group)) {
    firsts.push_back(*std::min_element(positions.begin() + start,
                                       positions.begin() + start + group));
  }
  if (firsts[0] != 0)
    return gspmdError("the first tile does not start at the mesh's origin");
  TensorSharding result(mesh_ref, {});
  int64_t stride = static_cast<int64_t>(firsts.size());
  for (int64_t j = 0; j < rank; ++j) {
    stride /= hlo.tile_dims[j];
    SK_ASSIGN_OR_RETURN(
        DimensionSharding dim,
        readDimension(mesh, mc, firsts, hlo.tile_dims[j], stride));
    result.dim_shardings.push_back(std::move(dim));
  }
  // The axes read off one step each must reproduce every tile.
  absl::StatusOr<HloSharding> back = toHloSharding(result, mesh);
  std::vector<int64_t> want_dims, got_dims;
  if (!back.ok() ||
      hloTileGroups(hlo, rank, mesh.totalSize(), want_dims) !=
          hloTileGroups(*back, rank, mesh.totalSize(), got_dims) ||
      want_dims != got_dims) {
    return gspmdError(strCat("the tiling ", toString(hlo),
                             " is not expressible on mesh ", toString(mesh)));
  }
  return result;
}

}  // namespace shardkit
