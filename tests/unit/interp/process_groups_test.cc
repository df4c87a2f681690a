// The process groups of the StableHLO spec's strategies, on its examples.
#include <catch2/catch.hpp>

#include "src/interp/process_grid.h"

namespace shardkit::interp {
namespace {

using Groups = std::vector<ProcessGroup>;

Groups groups(const std::vector<std::vector<int64_t>>& ids,
              GroupStrategy strategy, uint32_t replicas, uint32_t partitions) {
  absl::StatusOr<Groups> g = processGroups(ids, strategy, replicas, partitions);
  INFO(g.status().message());
  REQUIRE(g.ok());
  return *g;
}

TEST_CASE("cross_replica: each replica group once per partition") {
  CHECK(groups({{0, 1}, {2, 3}}, GroupStrategy::kCrossReplica, 4, 2) ==
        Groups{{{0, 0}, {1, 0}},
               {{0, 1}, {1, 1}},
               {{2, 0}, {3, 0}},
               {{2, 1}, {3, 1}}});
}

TEST_CASE("cross_partition: each partition group once per replica") {
  CHECK(groups({{0, 1}}, GroupStrategy::kCrossPartition, 4, 2) ==
        Groups{{{0, 0}, {0, 1}},
               {{1, 0}, {1, 1}},
               {{2, 0}, {2, 1}},
               {{3, 0}, {3, 1}}});
}

TEST_CASE("cross_replica_and_partition: a replica group over every partition") {
  CHECK(groups({{0, 1}, {2, 3}}, GroupStrategy::kCrossReplicaAndPartition, 4,
               2) == Groups{{{0, 0}, {1, 0}, {0, 1}, {1, 1}},
                            {{2, 0}, {3, 0}, {2, 1}, {3, 1}}});
}

TEST_CASE("flattened_ids: replica_id * num_partitions + partition_id") {
  CHECK(groups({{0, 1, 2, 3}, {4, 5, 6, 7}}, GroupStrategy::kFlattenedIds, 4,
               2) == Groups{{{0, 0}, {0, 1}, {1, 0}, {1, 1}},
                            {{2, 0}, {2, 1}, {3, 0}, {3, 1}}});
}

TEST_CASE("ids out of range or repeated are errors; pairs may repeat ids") {
  CHECK_FALSE(processGroups({{0, 2}}, GroupStrategy::kCrossReplica, 2, 1).ok());
  CHECK_FALSE(
      processGroups({{0, 1}, {1, 0}}, GroupStrategy::kCrossReplica, 2, 1).ok());
  CHECK(processGroups({{0, 1}, {1, 0}}, GroupStrategy::kCrossPartition, 1, 2,
                      /*unique=*/false)
            .ok());
  CHECK_FALSE(processGroups({{-1}}, GroupStrategy::kFlattenedIds, 1, 2).ok());
}

TEST_CASE("findGroup") {
  Groups g = groups({{0, 1}}, GroupStrategy::kCrossReplica, 2, 2);
  REQUIRE(findGroup(g, {1, 1}) != nullptr);
  CHECK(*findGroup(g, {1, 1}) == ProcessGroup{{0, 1}, {1, 1}});
  CHECK(findGroup(g, {2, 0}) == nullptr);
}

}  // namespace
}  // namespace shardkit::interp
