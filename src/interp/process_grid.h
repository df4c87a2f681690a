// Internal to the interp layer: the process grid of interpreter.run_parallel
// — the process groups of the StableHLO spec's strategies (cross_replica,
// cross_partition, cross_replica_and_partition, flattened_ids) and the
// rendezvous where the processes of a group meet at a collective.
#ifndef SHARDKIT_SRC_INTERP_PROCESS_GRID_H_
#define SHARDKIT_SRC_INTERP_PROCESS_GRID_H_

#include <compare>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "absl/status/statusor.h"
#include "shardkit/interp/tensor.h"
#include "shardkit/ir/graph.h"

namespace shardkit::interp {

struct ProcessId {
  uint32_t replica = 0;
  uint32_t partition = 0;
  friend auto operator<=>(const ProcessId&, const ProcessId&) = default;
};
using ProcessGroup = std::vector<ProcessId>;

// How a collective's `replica_groups` (or `source_target_pairs`) name
// processes (the spec's "Process groups" section).
enum class GroupStrategy {
  kCrossReplica,
  kCrossPartition,
  kCrossReplicaAndPartition,
  kFlattenedIds,
};

// The process groups of `groups` under `strategy` on a grid of
// `num_replicas` x `num_partitions`. The ids of a group must be distinct and
// within the ids the strategy names (replica ids, partition ids or flattened
// ids), and with `unique` no id may appear twice in all of them (pairs of
// collective_permute repeat ids); empty groups are dropped.
absl::StatusOr<std::vector<ProcessGroup>> processGroups(
    const std::vector<std::vector<int64_t>>& groups, GroupStrategy strategy,
    uint32_t num_replicas, uint32_t num_partitions, bool unique = true);

// The group of `groups` that holds `process`, or null.
const ProcessGroup* findGroup(const std::vector<ProcessGroup>& groups,
                              ProcessId process);

class ProcessGrid {
 public:
  ProcessGrid(uint32_t num_replicas, uint32_t num_partitions);

  uint32_t numReplicas() const { return num_replicas_; }
  uint32_t numPartitions() const { return num_partitions_; }
  uint32_t numProcesses() const { return num_replicas_ * num_partitions_; }

  // Process `self` of `group` hands `values` to the collective `op`: it
  // waits until every process of the group has handed its values to its own
  // collective at this group and channel (the k-th such meeting of each),
  // and returns every member's values in the group's order. Errors: the
  // other processes' collectives are of another kind or other operand
  // types, every process left is waiting (a deadlock: some process of the
  // group ended or waits elsewhere), or another process failed.
  absl::StatusOr<std::vector<std::vector<Tensor>>> rendezvous(
      ProcessId self, const ProcessGroup& group, int64_t channel, Op op,
      std::vector<Tensor> values);

  // A process ended (returned or failed): waiting for it is a deadlock.
  void processEnded();
  // A process failed with `status`: every process waiting, or reaching a
  // collective later, gets a Cancelled error.
  void fail();

 private:
  struct Meeting {
    struct Arrival {
      std::string signature;  // the op's name and operand types
      Op op;
      std::vector<Tensor> values;
    };
    std::map<ProcessId, Arrival> arrivals;
    bool complete = false;
    // Set on completion when the members' collectives differ: every member
    // returns it, so the error does not depend on who came last.
    absl::Status mismatch;
    size_t readers = 0;  // members that still have to read the values
  };
  using Key = std::tuple<ProcessGroup, int64_t, int64_t>;

  // The error of a process that waits while every live process waits.
  absl::Status deadlockError(Op op, const ProcessGroup& group,
                             const Meeting& meeting) const;
  // The error of a complete meeting whose members' collectives differ in
  // kind or operand types (the first member, in the group's order, that
  // differs from the group's first), or OK.
  static absl::Status mismatchError(const ProcessGroup& group,
                                    const Meeting& meeting);

  uint32_t num_replicas_;
  uint32_t num_partitions_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<Key, Meeting> meetings_;
  // How many meetings each process had at a group and channel.
  std::map<std::tuple<ProcessId, ProcessGroup, int64_t>, int64_t> visits_;
  uint32_t live_;
  uint32_t waiting_ = 0;
  bool deadlocked_ = false;
  bool failed_ = false;
};

}  // namespace shardkit::interp

#endif  // SHARDKIT_SRC_INTERP_PROCESS_GRID_H_
