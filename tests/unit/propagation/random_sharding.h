// Randomness, meshes and shardings for the random module generator
// (random_module.h): a seeded random source and valid random shardings as
// MLIR text.
#ifndef SHARDKIT_TESTS_UNIT_PROPAGATION_RANDOM_SHARDING_H_
#define SHARDKIT_TESTS_UNIT_PROPAGATION_RANDOM_SHARDING_H_

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace shardkit::testing::random_module_internal {

using Shape = std::vector<int64_t>;

// `a, b, c` from the strings `fn(0)`, ..., `fn(n - 1)`.
template <typename Fn>
std::string join(size_t n, Fn&& fn) {
  std::string text;
  for (size_t i = 0; i < n; ++i) text += (i ? ", " : "") + fn(i);
  return text;
}

inline std::string intList(const Shape& v) {
  return "[" + join(v.size(), [&](size_t i) { return std::to_string(v[i]); }) +
         "]";
}

inline std::string typeText(const Shape& shape, std::string_view elem = "f32") {
  std::string text = "tensor<";
  for (int64_t d : shape) text += std::to_string(d) + "x";
  return text + std::string(elem) + ">";
}

inline Shape iota(size_t n) {
  Shape v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<int64_t>(i);
  return v;
}

struct MeshSpec {
  std::string name;
  std::vector<std::pair<std::string, int64_t>> axes;
};

// An axis ref: a full axis when it covers the whole axis.
struct Axis {
  size_t mesh_axis = 0;  // index into MeshSpec::axes
  int64_t pre_size = 1;
  int64_t size = 1;
};

// Random choices from a std::mt19937_64 seeded by the caller, without std::
// distributions (their output differs between standard libraries), so a seed
// means the same everywhere.
class Random {
 public:
  explicit Random(uint64_t seed) : rng_(seed) {}

  uint64_t next() { return rng_(); }
  int64_t between(int64_t lo, int64_t hi) {  // uniform in [lo, hi]
    return lo +
           static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  bool chance(double p) { return uniform() < p; }
  template <typename T>
  const T& pick(const std::vector<T>& v) {
    return v[next() % v.size()];
  }
  template <typename T>
  void shuffle(std::vector<T>& v) {
    for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[next() % i]);
  }

 private:
  std::mt19937_64 rng_;
};

// The meshes of a module and random valid shardings on them.
//
// A sharding is valid by construction: each mesh axis is used whole or cut
// into sub-axes, and each piece goes to at most one dimension or to the
// replicated axes, so no axis appears twice and no sub-axes overlap;
// adjacent consecutive sub-axes never share a dimension; replicated axes are
// sorted in mesh order and merged; no priority is put on an empty closed
// dimension; a size-0 dimension takes pieces like any other.
class RandomShardings {
 public:
  explicit RandomShardings(Random& random) : r_(random) {}

  // One mesh `@mesh` of 1-3 axes sized from {1, 2, 3, 4, 8}, sometimes a
  // second `@mesh2` (other axes, or the same names with other sizes).
  void makeMeshes();
  // The `sdy.mesh` declarations.
  std::string meshText() const;
  // A valid sharding (`<@mesh, [...]>`) of a tensor of `shape`: each
  // dimension open or closed at random, or all closed, or all open; sometimes
  // priorities.
  std::string randomSharding(const Shape& shape);

 private:
  int64_t randomAxisSize() { return r_.pick(Shape{1, 2, 2, 3, 4, 4, 8}); }
  // Axis `i` of `mesh`, whole or split into sub-axes (major to minor).
  std::vector<Axis> axisPieces(const MeshSpec& mesh, size_t i);

  static bool consecutive(const Axis& a, const Axis& b) {
    return a.mesh_axis == b.mesh_axis && a.pre_size * a.size == b.pre_size;
  }
  static std::string axisText(const MeshSpec& mesh, const Axis& a) {
    const auto& [name, size] = mesh.axes[a.mesh_axis];
    std::string text = "\"" + name + "\"";
    if (a.pre_size == 1 && a.size == size) return text;
    return text + ":(" + std::to_string(a.pre_size) + ")" +
           std::to_string(a.size);
  }
  static std::string axesText(const MeshSpec& mesh,
                              const std::vector<Axis>& axes) {
    return join(axes.size(), [&](size_t i) { return axisText(mesh, axes[i]); });
  }

  Random& r_;
  std::vector<MeshSpec> meshes_;
};

inline void RandomShardings::makeMeshes() {
  std::vector<std::string> names = {"a", "b", "c", "d"};
  r_.shuffle(names);
  MeshSpec first{"mesh", {}};
  for (int64_t i = r_.between(1, 3) - 1; i >= 0; --i) {
    first.axes.push_back({names[i], randomAxisSize()});
  }
  meshes_.push_back(first);
  if (!r_.chance(0.3)) return;
  MeshSpec second{"mesh2", {}};
  if (r_.chance(0.5)) {
    second.axes = {{"x", randomAxisSize()}, {"y", randomAxisSize()}};
  } else {
    for (const auto& [name, size] : first.axes) {
      second.axes.push_back({name, size == 2 ? 4 : 2});
    }
  }
  meshes_.push_back(second);
}

inline std::string RandomShardings::meshText() const {
  std::string text;
  for (const MeshSpec& mesh : meshes_) {
    text += "sdy.mesh @" + mesh.name + " = <[" +
            join(mesh.axes.size(),
                 [&](size_t i) {
                   return "\"" + mesh.axes[i].first +
                          "\"=" + std::to_string(mesh.axes[i].second);
                 }) +
            "]>\n";
  }
  return text;
}

inline std::vector<Axis> RandomShardings::axisPieces(const MeshSpec& mesh,
                                                     size_t i) {
  int64_t size = mesh.axes[i].second;
  if ((size != 4 && size != 8) || !r_.chance(0.3)) return {{i, 1, size}};
  if (size == 4) return {{i, 1, 2}, {i, 2, 2}};
  switch (r_.between(0, 2)) {
    case 0:
      return {{i, 1, 2}, {i, 2, 4}};
    case 1:
      return {{i, 1, 4}, {i, 4, 2}};
    default:
      return {{i, 1, 2}, {i, 2, 2}, {i, 4, 2}};
  }
}

inline std::string RandomShardings::randomSharding(const Shape& shape) {
  const MeshSpec& mesh = r_.pick(meshes_);
  const size_t rank = shape.size();
  std::vector<Axis> pieces;
  for (size_t i = 0; i < mesh.axes.size(); ++i) {
    for (const Axis& piece : axisPieces(mesh, i)) pieces.push_back(piece);
  }
  r_.shuffle(pieces);
  // Each piece shards a dimension, is replicated, or is left out.
  std::vector<std::vector<Axis>> dims(rank);
  std::vector<Axis> replicated;
  for (const Axis& piece : pieces) {
    double r = r_.uniform();
    if (r < 0.5 && rank > 0) {
      size_t d = r_.next() % rank;
      if (!dims[d].empty() && consecutive(dims[d].back(), piece)) continue;
      dims[d].push_back(piece);
    } else if (r < 0.65) {
      replicated.push_back(piece);
    }
  }
  std::sort(replicated.begin(), replicated.end(),
            [](const Axis& a, const Axis& b) {
              return a.mesh_axis != b.mesh_axis ? a.mesh_axis < b.mesh_axis
                                                : a.pre_size < b.pre_size;
            });
  std::vector<Axis> merged;
  for (const Axis& a : replicated) {
    if (!merged.empty() && consecutive(merged.back(), a)) {
      merged.back().size *= a.size;
    } else {
      merged.push_back(a);
    }
  }
  int style = r_.chance(0.5) ? 0 : (r_.chance(0.55) ? 1 : 2);
  bool priorities = r_.chance(0.3);
  auto dim_text = [&](size_t d) {
    bool open = style == 2 || (style == 0 && r_.chance(0.5));
    std::string dim = "{" + axesText(mesh, dims[d]);
    if (open) dim += dims[d].empty() ? "?" : ", ?";
    dim += "}";
    if (priorities && (open || !dims[d].empty()) && r_.chance(0.6)) {
      dim += "p" + std::to_string(r_.between(0, 2));
    }
    return dim;
  };
  std::string text = "<@" + mesh.name + ", [" + join(rank, dim_text) + "]";
  if (!merged.empty()) {
    text += ", replicated={" + axesText(mesh, merged) + "}";
  }
  return text + ">";
}

}  // namespace shardkit::testing::random_module_internal

#endif  // SHARDKIT_TESTS_UNIT_PROPAGATION_RANDOM_SHARDING_H_
