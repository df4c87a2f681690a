// Internal to the propagation layer: the driver's store of shardings. Equal
// shardings are interned, so a value's sharding is a small id, comparing two
// is comparing ids, and the few distinct shardings of a module stay together
// in memory however many values share them.
#ifndef SHARDKIT_SRC_PROPAGATION_SHARDING_POOL_H_
#define SHARDKIT_SRC_PROPAGATION_SHARDING_POOL_H_

#include <cstdint>
#include <deque>

#include "absl/container/flat_hash_map.h"
#include "shardkit/core/tensor_sharding.h"

namespace shardkit {

class ShardingPool {
 public:
  using Id = uint32_t;
  static constexpr Id kNone = ~Id{0};

  // The id of `sharding`, adding it if it is new.
  // A sharding already in the pool is only looked up, never copied.
  Id intern(const TensorSharding& sharding) {
    auto it = index_.find(sharding);
    if (it != index_.end()) return it->second;
    return add(TensorSharding(sharding));
  }
  Id intern(TensorSharding&& sharding) {
    auto it = index_.find(sharding);
    if (it != index_.end()) return it->second;
    return add(sharding);
  }

  // The sharding of `id`; references stay valid while the pool lives.
  const TensorSharding& get(Id id) const { return shardings_[id]; }
  // Null for kNone.
  const TensorSharding* find(Id id) const {
    return id == kNone ? nullptr : &shardings_[id];
  }
  size_t size() const { return shardings_.size(); }

 private:
  Id add(const TensorSharding& sharding) {
    Id id = static_cast<Id>(shardings_.size());
    shardings_.push_back(sharding);
    index_.emplace(sharding, id);
    return id;
  }

  std::deque<TensorSharding> shardings_;  // by id; a deque keeps references
  absl::flat_hash_map<TensorSharding, Id> index_;
};

}  // namespace shardkit

#endif  // SHARDKIT_SRC_PROPAGATION_SHARDING_POOL_H_
