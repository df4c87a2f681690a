#include "shardkit/internal/position_index.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "shardkit/core/mesh.h"
#include "shardkit/core/mesh_table.h"

namespace shardkit {
namespace {

using core_detail::PositionIndex;

// Indexes `names` in order, skipping a name already indexed (as Mesh does).
void indexNames(PositionIndex& index, const std::vector<std::string>& names,
                uint64_t (*hash)(std::string_view)) {
  for (size_t i = 0; i < names.size(); ++i) {
    auto holds = [&](int32_t p) { return names[p] == names[i]; };
    if (index.find(hash(names[i]), holds) < 0) {
      index.add(static_cast<int32_t>(i), hash(names[i]));
    }
  }
}

int32_t findName(const PositionIndex& index,
                 const std::vector<std::string>& names, std::string_view name,
                 uint64_t (*hash)(std::string_view)) {
  return index.find(hash(name), [&](int32_t p) { return names[p] == name; });
}

TEST_CASE("PositionIndex: finds every position through growth") {
  std::vector<std::string> names;
  for (int i = 0; i < 5000; ++i) names.push_back("n" + std::to_string(i));
  names.push_back("n42");  // a repeat: the first position is kept
  PositionIndex index;
  CHECK(index.find(1, [](int32_t) { return true; }) == -1);  // empty
  indexNames(index, names, core_detail::hashName);
  CHECK(index.size() == 5000);
  for (int i = 0; i < 5000; i += 7) {
    CHECK(findName(index, names, names[i], core_detail::hashName) == i);
  }
  CHECK(findName(index, names, "n42", core_detail::hashName) == 42);
  CHECK(findName(index, names, "n5000", core_detail::hashName) == -1);
  CHECK(findName(index, names, "", core_detail::hashName) == -1);
  index.clear();
  CHECK(index.size() == 0);
  CHECK(findName(index, names, "n1", core_detail::hashName) == -1);
}

TEST_CASE("PositionIndex: keys of one hash are told apart by the predicate") {
  auto same_hash = [](std::string_view) -> uint64_t { return 12345; };
  std::vector<std::string> names = {"a", "b", "c", "d", "e", "f", "g", "h",
                                    "i", "j", "k", "l", "m", "n", "o", "p"};
  PositionIndex index;
  indexNames(index, names, same_hash);
  for (size_t i = 0; i < names.size(); ++i) {
    CHECK(findName(index, names, names[i], same_hash) ==
          static_cast<int32_t>(i));
  }
  CHECK(findName(index, names, "q", same_hash) == -1);
}

TEST_CASE("PositionIndex: integer triples hash apart") {
  using core_detail::hashTriple;
  using core_detail::TripleKey;
  CHECK(hashTriple({1, 2, 3}) != hashTriple({3, 2, 1}));
  CHECK(hashTriple({0, 0, 1}) != hashTriple({0, 1, 0}));
  CHECK(TripleKey{1, 2, 3} < TripleKey{1, 3, 0});
}

TEST_CASE("Mesh: a mesh of many axes is read from several threads at once") {
  std::vector<MeshAxis> axes;
  for (int i = 0; i < 2000; ++i) axes.push_back({"t" + std::to_string(i), 2});
  const Mesh mesh(axes);  // not indexed yet: the threads race to build it
  std::vector<int> wrong(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&mesh, &wrong, t] {
      for (int i = t; i < 2000; i += 3) {
        if (mesh.axisIndex("t" + std::to_string(i)) != i) ++wrong[t];
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(wrong == std::vector<int>(4, 0));
}

TEST_CASE("MeshTable: many meshes are found and replaced by name") {
  MeshTable table;
  for (int i = 0; i < 100; ++i) {
    table.add("m" + std::to_string(i), Mesh({{"x", i + 1}}));
  }
  const Mesh* m7 = table.find("m7");
  REQUIRE(m7 != nullptr);
  table.add("m7", Mesh({{"y", 3}}));  // in place: the pointer stays valid
  CHECK(table.find("m7") == m7);
  CHECK(*m7 == Mesh({{"y", 3}}));
  CHECK(table.size() == 100);
  CHECK(table.names()[7] == "m7");
  CHECK(*table.find("m99") == Mesh({{"x", 100}}));
  CHECK(table.find("m100") == nullptr);
}

}  // namespace
}  // namespace shardkit
