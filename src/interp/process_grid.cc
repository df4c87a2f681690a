#include "src/interp/process_grid.h"

#include <algorithm>

#include "shardkit/ir/diagnostic.h"
#include "shardkit/support/strings.h"
#include "src/interp/evaluator.h"

namespace shardkit::interp {
namespace {

std::string processText(ProcessId p) {
  return strCat("(", p.replica, ", ", p.partition, ")");
}

std::string groupText(const ProcessGroup& group) {
  std::string out = "[";
  for (size_t i = 0; i < group.size(); ++i) {
    if (i) out += ", ";
    out += processText(group[i]);
  }
  out += ']';
  return out;
}

}  // namespace

absl::StatusOr<std::vector<ProcessGroup>> processGroups(
    const std::vector<std::vector<int64_t>>& groups, GroupStrategy strategy,
    uint32_t num_replicas, uint32_t num_partitions, bool unique) {
  int64_t limit = 0;
  std::string_view what;
  switch (strategy) {
    case GroupStrategy::kCrossReplica:
    case GroupStrategy::kCrossReplicaAndPartition:
      limit = num_replicas;
      what = "replica";
      break;
    case GroupStrategy::kCrossPartition:
      limit = num_partitions;
      what = "partition";
      break;
    case GroupStrategy::kFlattenedIds:
      limit = int64_t{num_replicas} * num_partitions;
      what = "flattened";
      break;
  }
  std::vector<bool> seen(limit, false);
  for (const std::vector<int64_t>& group : groups) {
    for (int64_t id : group) {
      if (id < 0 || id >= limit) {
        return evalError(strCat(what, " id ", id,
                                " of replica_groups is not "
                                "in [0, ",
                                limit, ")"));
      }
      if (unique && seen[id]) {
        return evalError(
            strCat(what, " id ", id, " appears twice in replica_groups"));
      }
      seen[id] = true;
    }
  }
  std::vector<ProcessGroup> out;
  auto id = [](int64_t replica, int64_t partition) {
    return ProcessId{static_cast<uint32_t>(replica),
                     static_cast<uint32_t>(partition)};
  };
  for (const std::vector<int64_t>& group : groups) {
    if (group.empty()) continue;
    switch (strategy) {
      case GroupStrategy::kCrossReplica:
        for (uint32_t p = 0; p < num_partitions; ++p) {
          ProcessGroup g;
          for (int64_t r : group) g.push_back(id(r, p));
          out.push_back(std::move(g));
        }
        break;
      case GroupStrategy::kCrossPartition:
        for (uint32_t r = 0; r < num_replicas; ++r) {
          ProcessGroup g;
          for (int64_t p : group) g.push_back(id(r, p));
          out.push_back(std::move(g));
        }
        break;
      case GroupStrategy::kCrossReplicaAndPartition: {
        ProcessGroup g;
        for (uint32_t p = 0; p < num_partitions; ++p) {
          for (int64_t r : group) g.push_back(id(r, p));
        }
        out.push_back(std::move(g));
        break;
      }
      case GroupStrategy::kFlattenedIds: {
        ProcessGroup g;
        for (int64_t f : group) {
          g.push_back(id(f / num_partitions, f % num_partitions));
        }
        out.push_back(std::move(g));
        break;
      }
    }
  }
  return out;
}

const ProcessGroup* findGroup(const std::vector<ProcessGroup>& groups,
                              ProcessId process) {
  for (const ProcessGroup& g : groups) {
    if (std::find(g.begin(), g.end(), process) != g.end()) return &g;
  }
  return nullptr;
}

ProcessGrid::ProcessGrid(uint32_t num_replicas, uint32_t num_partitions)
    : num_replicas_(num_replicas),
      num_partitions_(num_partitions),
      live_(num_replicas * num_partitions) {}

absl::Status ProcessGrid::deadlockError(Op op, const ProcessGroup& group,
                                        const Meeting& meeting) const {
  ProcessGroup missing;
  for (ProcessId p : group) {
    if (!meeting.arrivals.contains(p)) missing.push_back(p);
  }
  return diagnosticStatus(
      Diagnostic{
          locationOf(op),
          Severity::kError,
          strCat("'", op.name(), "' op of process group ", groupText(group),
                 " waits for process ", groupText(missing),
                 ", which ended or waits at another collective "
                 "(deadlock)"),
          {}},
      absl::StatusCode::kAborted);
}

absl::Status ProcessGrid::mismatchError(const ProcessGroup& group,
                                        const Meeting& meeting) {
  const Meeting::Arrival& first = meeting.arrivals.at(group[0]);
  for (ProcessId p : group) {
    const Meeting::Arrival& a = meeting.arrivals.at(p);
    if (a.signature == first.signature) continue;
    return opError(
        a.op, strCat("of process ", processText(p),
                     " meets a collective of another kind or other "
                     "operand types (",
                     first.signature, ") of process ", processText(group[0]),
                     " in process group ", groupText(group)));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::vector<Tensor>>> ProcessGrid::rendezvous(
    ProcessId self, const ProcessGroup& group, int64_t channel, Op op,
    std::vector<Tensor> values) {
  std::string signature(op.name());
  for (const Tensor& t : values) strAppend(signature, " ", t.typeText());
  std::unique_lock<std::mutex> lock(mutex_);
  if (failed_) return absl::CancelledError("another process failed");
  int64_t round = visits_[{self, group, channel}]++;
  auto it = meetings_.try_emplace(Key{group, channel, round}).first;
  Meeting& meeting = it->second;
  meeting.arrivals[self] = {std::move(signature), op, std::move(values)};
  if (meeting.arrivals.size() == group.size()) {
    meeting.complete = true;
    meeting.readers = group.size();
    meeting.mismatch = mismatchError(group, meeting);
    waiting_ -= static_cast<uint32_t>(group.size() - 1);
    changed_.notify_all();
  } else {
    ++waiting_;
    if (waiting_ == live_) {
      deadlocked_ = true;
      changed_.notify_all();
    }
    changed_.wait(lock,
                  [&] { return meeting.complete || failed_ || deadlocked_; });
    if (!meeting.complete) {
      --waiting_;
      if (failed_) return absl::CancelledError("another process failed");
      return deadlockError(op, group, meeting);
    }
  }
  absl::Status mismatch = meeting.mismatch;
  std::vector<std::vector<Tensor>> out;
  if (mismatch.ok()) {
    out.reserve(group.size());
    for (ProcessId p : group) out.push_back(meeting.arrivals[p].values);
  }
  if (--meeting.readers == 0) meetings_.erase(it);
  if (!mismatch.ok()) return mismatch;
  return out;
}

void ProcessGrid::processEnded() {
  std::lock_guard<std::mutex> lock(mutex_);
  --live_;
  if (live_ > 0 && waiting_ == live_) {
    deadlocked_ = true;
    changed_.notify_all();
  }
}

void ProcessGrid::fail() {
  std::lock_guard<std::mutex> lock(mutex_);
  failed_ = true;
  changed_.notify_all();
}

}  // namespace shardkit::interp
