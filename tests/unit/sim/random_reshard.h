// Random reshard cases (mesh, source sharding, target sharding, shape) for
// the reshard property test and the reshard benchmark.
//
// Every mesh axis is cut into a random chain of factors; each sharding uses
// pieces made of consecutive factors of that chain (so its sub-axes are
// valid, and usually coexist with the other sharding's), and sends each
// piece to a dimension, the replicated or unreduced axes, or nowhere.
// Occasionally an axis uses another chain on the target side (sub-axes that
// cannot coexist), the target mesh orders the devices differently, or a
// side is replicated everywhere.
#ifndef SHARDKIT_TESTS_UNIT_SIM_RANDOM_RESHARD_H_
#define SHARDKIT_TESTS_UNIT_SIM_RANDOM_RESHARD_H_

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "shardkit/core/axis_ref_list.h"
#include "shardkit/core/mesh_table.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/core/verify.h"

namespace shardkit::testing {

struct ReshardCase {
  MeshTable meshes;  // "m", and "m2" when the target orders devices anew
  TensorSharding source;
  TensorSharding target;
  std::vector<int64_t> shape;

  const Mesh& sourceMesh() const { return *meshes.resolve(source); }
  const Mesh& targetMesh() const { return *meshes.resolve(target); }
  std::string describe() const {
    std::string text = "shape [";
    for (size_t i = 0; i < shape.size(); ++i) {
      text += (i ? "x" : "") + std::to_string(shape[i]);
    }
    text += "] mesh " + toString(sourceMesh()) + " source " + toString(source) +
            " target " + toString(target);
    if (!(source.mesh == target.mesh)) {
      text += " target mesh " + toString(targetMesh());
    }
    return text;
  }
};

// Random choices from a seeded std::mt19937_64 without std:: distributions,
// so a seed means the same cases with every standard library.
class ReshardGenerator {
 public:
  explicit ReshardGenerator(uint64_t seed) : rng_(seed) {}

  // A valid case (both shardings verify against the shape).
  ReshardCase next() {
    while (true) {
      ReshardCase c = attempt();
      if (verifyTensorShardingWithMesh(c.source, c.sourceMesh(), c.shape)
              .ok() &&
          verifyTensorShardingWithMesh(c.target, c.targetMesh(), c.shape)
              .ok() &&
          verifyUnreducedTransition(c.source, c.target).ok()) {
        return c;
      }
    }
  }

 private:
  int64_t below(int64_t n) {
    return static_cast<int64_t>(rng_() % static_cast<uint64_t>(n));
  }
  bool chance(int percent) { return below(100) < percent; }
  template <typename List>
  void shuffle(List& values) {
    for (size_t i = values.size(); i > 1; --i) {
      std::swap(values[i - 1], values[below(static_cast<int64_t>(i))]);
    }
  }
  template <typename T>
  const T& pick(const std::vector<T>& values) {
    return values[below(static_cast<int64_t>(values.size()))];
  }

  Mesh randomMesh() {
    static const std::vector<int64_t> kSizes = {1, 2, 2, 2, 3, 4, 4, 6, 8, 16};
    while (true) {
      std::vector<MeshAxis> axes;
      const int64_t count = 1 + below(4);
      for (int64_t i = 0; i < count; ++i) {
        axes.push_back(
            {std::string(1, static_cast<char>('a' + i)), pick(kSizes)});
      }
      Mesh mesh(std::move(axes));
      if (mesh.totalSize() <= 64) return mesh;
    }
  }

  // A random ordered factorization of n into factors > 1.
  std::vector<int64_t> chainOf(int64_t n) {
    std::vector<int64_t> chain;
    while (n > 1) {
      std::vector<int64_t> divisors;
      for (int64_t f = 2; f <= n; ++f) {
        if (n % f == 0) divisors.push_back(f);
      }
      int64_t f = pick(divisors);
      chain.push_back(f);
      n /= f;
    }
    return chain;
  }

  // Pieces of axis `name` merging random runs of consecutive factors.
  AxisRefVector piecesOf(const std::string& name,
                         const std::vector<int64_t>& chain, const Mesh& mesh) {
    AxisRefVector pieces;
    int64_t pre = 1;
    size_t i = 0;
    while (i < chain.size()) {
      int64_t size = chain[i++];
      while (i < chain.size() && chance(40)) size *= chain[i++];
      pieces.push_back(makeAxisRef(name, pre, size, mesh));
      pre *= size;
    }
    return pieces;
  }

  TensorSharding randomSharding(
      const std::string& mesh_name, const Mesh& mesh, int64_t rank,
      const std::vector<std::vector<int64_t>>& chains) {
    TensorSharding sharding =
        TensorSharding::fullyClosed(MeshOrRef::ref(mesh_name), rank);
    if (chance(8)) return sharding;
    const int unreduced_percent = chance(30) ? 25 : 0;
    for (size_t a = 0; a < mesh.axes.size(); ++a) {
      for (AxisRef& piece : piecesOf(mesh.axes[a].name, chains[a], mesh)) {
        int64_t roll = below(100);
        if (roll < 55) {
          sharding.dim_shardings[below(rank)].axes.push_back(piece);
        } else if (roll < 65) {
          sharding.replicated_axes.push_back(piece);
        } else if (roll < 65 + unreduced_percent) {
          sharding.unreduced_axes.push_back(piece);
        }
      }
    }
    for (DimensionSharding& dim : sharding.dim_shardings) {
      shuffle(dim.axes);
      mergeAdjacentSubAxes(dim.axes, mesh);
      if (chance(10)) dim.is_closed = false;
    }
    sortAndMergeAxes(sharding.replicated_axes, mesh);
    sortAndMergeAxes(sharding.unreduced_axes, mesh);
    if (!sharding.unreduced_axes.empty() && chance(15)) {
      sharding.unreduced_kind =
          chance(50) ? ReductionKind::kMax : ReductionKind::kMin;
    }
    return sharding;
  }

  // Kept unreduced axes keep their kind; new ones must be a sum.
  void fixUnreducedKind(const TensorSharding& source, TensorSharding& target) {
    bool keeps = false;
    for (const AxisRef& axis : target.unreduced_axes) {
      keeps = keeps || std::count(source.unreduced_axes.begin(),
                                  source.unreduced_axes.end(), axis) > 0;
    }
    target.unreduced_kind = keeps ? source.unreduced_kind : ReductionKind::kSum;
  }

  std::vector<int64_t> randomShape(const ReshardCase& c) {
    std::vector<int64_t> shape;
    int64_t elements = 1;
    for (int64_t d = 0; d < c.source.rank(); ++d) {
      int64_t in = c.source.dim_shardings[d].shardedSize(c.sourceMesh());
      int64_t out = c.target.dim_shardings[d].shardedSize(c.targetMesh());
      int64_t size =
          chance(75) ? std::lcm(in, out) * (1 + below(2)) : 1 + below(12);
      if (elements * size > 2048) size = 1 + below(3);
      elements *= size;
      shape.push_back(size);
    }
    return shape;
  }

  ReshardCase attempt() {
    ReshardCase c;
    Mesh mesh = randomMesh();
    std::vector<std::vector<int64_t>> chains, target_chains;
    for (const MeshAxis& axis : mesh.axes) {
      chains.push_back(chainOf(axis.size));
      target_chains.push_back(chance(10) ? chainOf(axis.size) : chains.back());
    }
    c.meshes.add("m", mesh);
    std::string target_mesh = "m";
    if (mesh.totalSize() > 1 && chance(15)) {
      std::vector<int64_t> ids(mesh.totalSize());
      std::iota(ids.begin(), ids.end(), 0);
      shuffle(ids);
      if (!std::is_sorted(ids.begin(), ids.end())) {
        c.meshes.add("m2", Mesh(mesh.axes, ids));
        target_mesh = "m2";
      }
    }
    const int64_t rank = 1 + below(4);
    c.source = randomSharding("m", mesh, rank, chains);
    c.target = randomSharding(target_mesh, mesh, rank, target_chains);
    fixUnreducedKind(c.source, c.target);
    c.shape = randomShape(c);
    return c;
  }

  std::mt19937_64 rng_;
};

}  // namespace shardkit::testing

#endif  // SHARDKIT_TESTS_UNIT_SIM_RANDOM_RESHARD_H_
