#include "shardkit/ir/op_name.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <mutex>

#include "absl/container/flat_hash_map.h"
#include "shardkit/ir/op_base.h"
#include "shardkit/support/strings.h"
#include "src/ir/op_registration.h"

namespace shardkit {
namespace {

class Registry {
 public:
  static Registry& get() {
    static Registry* registry = new Registry();
    return *registry;
  }

  // The entry of `name`, or null.
  OpNameEntry* find(std::string_view name) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(name);
    return it == entries_.end() ? nullptr : it->second;
  }

  // The entry of `name`, created (without facts) if needed.
  OpNameEntry* intern(std::string_view name) {
    std::lock_guard<std::mutex> lock(mu_);
    return internLocked(name);
  }

  OpName set(std::string_view name, OpInfo info) {
    std::lock_guard<std::mutex> lock(mu_);
    OpNameEntry* entry = internLocked(name);
    infos_.push_back(std::make_unique<OpInfo>(std::move(info)));
    entry->info.store(infos_.back().get(), std::memory_order_release);
    return OpName(entry);
  }

 private:
  OpNameEntry* internLocked(std::string_view name) {
    auto it = entries_.find(name);
    if (it != entries_.end()) return it->second;
    // Entries and their names never move: OpNames and the map's keys point
    // into them.
    Stored& stored = stored_.emplace_back();
    stored.text = std::string(name);
    stored.entry.name = stored.text;
    stored.entry.index = static_cast<uint32_t>(stored_.size() - 1);
    entries_.emplace(stored.entry.name, &stored.entry);
    return &stored.entry;
  }

  struct Stored {
    std::string text;
    OpNameEntry entry;
  };

  std::mutex mu_;
  std::deque<Stored> stored_;
  absl::flat_hash_map<std::string_view, OpNameEntry*> entries_;
  std::vector<std::unique_ptr<OpInfo>> infos_;
};

// Registers shardkit's own op kinds, once, before any lookup.
void ensureBuiltinOpsRegistered() {
  static std::once_flag once;
  std::call_once(once, [] {
    ir_internal::registerSdyOps();
    ir_internal::registerFuncOps();
    ir_internal::registerStablehloOps();
  });
}

}  // namespace

bool OpInfo::isInherent(std::string_view attr) const {
  return std::find(inherent_attrs.begin(), inherent_attrs.end(), attr) !=
         inherent_attrs.end();
}

OpInfo OpInfo::of(std::initializer_list<std::string_view> inherent,
                  OpTraits traits, VerifyFn verify, OpSignature signature) {
  OpInfo info;
  for (std::string_view a : inherent) info.inherent_attrs.emplace_back(a);
  info.traits = traits;
  info.verify = verify;
  info.signature = signature;
  return info;
}

OpName OpName::registered(std::string_view name) {
  ensureBuiltinOpsRegistered();
  OpNameEntry* entry = Registry::get().find(name);
  return entry && entry->info.load(std::memory_order_acquire) ? OpName(entry)
                                                              : OpName();
}

std::string_view OpName::dialect() const {
  std::string_view s = str();
  return s.substr(0, s.find('.'));
}

OpName registerOpInfo(std::string_view name, OpInfo info) {
  ensureBuiltinOpsRegistered();
  return Registry::get().set(name, std::move(info));
}

namespace ir_internal {

const OpNameEntry* internBuiltinOpName(std::string_view name) {
  ensureBuiltinOpsRegistered();
  return Registry::get().intern(name);
}

void registerBuiltinOp(std::string_view name,
                       std::initializer_list<std::string_view> inherent,
                       OpTraits traits, OpInfo::VerifyFn verify,
                       std::string_view result_sharding_attr,
                       OpSignature signature) {
  OpInfo info = OpInfo::of(inherent, traits, verify, signature);
  info.result_sharding_attr = result_sharding_attr;
  // Inside ensureBuiltinOpsRegistered's once-flag: no re-entry.
  Registry::get().set(name, std::move(info));
}

}  // namespace ir_internal
}  // namespace shardkit
