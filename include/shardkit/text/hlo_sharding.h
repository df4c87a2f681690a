// XLA's HloSharding (the GSPMD sharding `mhlo.sharding` attributes carry) as
// a plain value: its text form, the devices of its tiles, and conversion to
// and from sdy shardings on a mesh. docs/gspmd.md lists which forms convert
// exactly and which are refused.
//
//   {replicated}                              every device holds the tensor
//   {maximal device=3}                        one device holds it
//   {manual}                                  partitioned by hand
//   {devices=[2,1,2]0,1,2,3 last_tile_dim_replicate}   explicit devices (V1)
//   {devices=[2,4]<=[4,2]T(1,0)}              iota devices (V2): iota(8)
//                                             reshaped to [4,2], transposed
//   {devices=[2,2,2]<=[8] last_tile_dims={manual, replicated}}
//   {{replicated}, {maximal device=0}}        one per tuple element
#ifndef SHARDKIT_TEXT_HLO_SHARDING_H_
#define SHARDKIT_TEXT_HLO_SHARDING_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/export.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

enum class HloShardingKind : uint8_t {
  kReplicated,
  kManual,
  kMaximal,
  kTiled,
  kTuple,
  kLast = kTuple  // for enum tables (support/enum_table.h)
};

// The kind of a trailing tile dimension that does not tile data.
enum class HloSubgroup : uint8_t { kManual, kReplicated, kLast = kReplicated };

struct HloSharding {
  HloShardingKind kind = HloShardingKind::kReplicated;
  int64_t device = 0;  // kMaximal
  // kTiled: the tile dimensions, data dimensions first, then one per
  // subgroup (last_tile_dim_replicate or last_tile_dims).
  std::vector<int64_t> tile_dims;
  // kTiled: the devices of the tiles, row-major over tile_dims: either
  // iota(N) reshaped to iota_reshape_dims and transposed by iota_perm (V2,
  // when iota_reshape_dims is not empty), or listed in `devices` (V1).
  std::vector<int64_t> iota_reshape_dims;
  std::vector<int64_t> iota_perm;
  std::vector<int64_t> devices;
  bool last_tile_dim_replicate = false;
  std::vector<HloSubgroup> last_tile_dims;
  std::vector<HloSharding> elements;  // kTuple

  static HloSharding replicated() { return HloSharding(); }
  static HloSharding manual() {
    HloSharding s;
    s.kind = HloShardingKind::kManual;
    return s;
  }
  static HloSharding maximal(int64_t device) {
    HloSharding s;
    s.kind = HloShardingKind::kMaximal;
    s.device = device;
    return s;
  }

  bool isIota() const { return !iota_reshape_dims.empty(); }
  // kTiled: how many trailing tile dimensions are subgroups.
  size_t numSubgroupDims() const {
    return last_tile_dim_replicate ? 1 : last_tile_dims.size();
  }
  // kTiled: the number of data dimensions (the tensor's rank).
  size_t dataRank() const { return tile_dims.size() - numSubgroupDims(); }
  // kTiled: the device of every tile, row-major over tile_dims.
  std::vector<int64_t> tileDevices() const;

  friend bool operator==(const HloSharding&, const HloSharding&) = default;
};

// Reads HloSharding text. `metadata={...}` is read and dropped; `{unknown}`,
// `{unreduced}`, `shard_as`/`shard_like` groups and malformed text are
// errors ("col N: expected ..., got ...").
absl::StatusOr<HloSharding> parseHloSharding(std::string_view text);

// The text XLA prints for `sharding` (without metadata).
std::string toString(const HloSharding& sharding);

// The HloSharding of `sharding` on `mesh`: its tiles hold what the sdy
// sharding gives each device. Axes not in a dimension are replicated
// (`last_tile_dim_replicate`); `manual_axes` (full axes, e.g. those of an
// enclosing sdy.manual_computation) become a manual subgroup, or `{manual}`
// when nothing else is sharded. A mesh with iota device ids gives the V2
// form, canonicalized as XLA does; other device ids the V1 list. Errors:
// unreduced axes, axes the mesh lacks, an invalid sub-axis.
absl::StatusOr<HloSharding> toHloSharding(
    const TensorSharding& sharding, const Mesh& mesh,
    absl::Span<const std::string> manual_axes = {});

// The sdy sharding of a rank-`rank` tensor that `hlo` describes, on `mesh`
// (referred to as `mesh_ref` in the result): closed dimensions, axes and
// sub-axes of the mesh in the order that reproduces the tiles; replicated
// axes stay implicit. `{maximal device=D}` gives a sharding on an inline
// maximal mesh. Errors: `{manual}` and manual subgroups, tuples, a tiling
// whose rank is not `rank`, devices the mesh does not have, and a tiling
// the mesh's axes cannot express. toHloSharding of the result has the same
// tiles as `hlo` (devices within one replication group may be reordered).
absl::StatusOr<TensorSharding> fromHloSharding(const HloSharding& hlo,
                                               const Mesh& mesh,
                                               const MeshOrRef& mesh_ref,
                                               int64_t rank);

// The devices of each tile group of a non-tuple sharding of a rank-`rank`
// tensor on `num_devices` devices, one sorted group per data tile in tile
// order ({replicated}: one group of all; {maximal}: one group of one);
// with `tile_dims` set to the data tile dimensions. Equal groups mean the
// two shardings place the same data on the same devices.
std::vector<std::vector<int64_t>> hloTileGroups(
    const HloSharding& sharding, int64_t rank, int64_t num_devices,
    std::vector<int64_t>& tile_dims);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_TEXT_HLO_SHARDING_H_
