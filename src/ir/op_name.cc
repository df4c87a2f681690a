#include "shardkit/ir/op_name.h"

#include <algorithm>
#include <memory>
#include <mutex>

#include "absl/container/flat_hash_map.h"
#include "shardkit/core/strings.h"

namespace shardkit {

void registerBuiltinOps();  // op_registry.cc

namespace {

class Registry {
 public:
  static Registry& get() {
    static Registry* registry = new Registry();
    return *registry;
  }

  OpName find(std::string_view name) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(toAbsl(name));
    return it == entries_.end() ? OpName() : OpName(it->second.get());
  }

  OpName set(std::string_view name, OpInfo info) {
    std::lock_guard<std::mutex> lock(mu_);
    auto& entry = entries_[toAbsl(name)];
    if (!entry) {
      entry = std::make_unique<OpNameEntry>();
      entry->name = std::string(name);
    }
    infos_.push_back(std::make_unique<OpInfo>(std::move(info)));
    entry->info.store(infos_.back().get(), std::memory_order_release);
    return OpName(entry.get());
  }

 private:
  std::mutex mu_;
  absl::flat_hash_map<std::string, std::unique_ptr<OpNameEntry>> entries_;
  std::vector<std::unique_ptr<OpInfo>> infos_;
};

void ensureBuiltinsRegistered() {
  static std::once_flag once;
  std::call_once(once, [] { registerBuiltinOps(); });
}

}  // namespace

bool OpInfo::isInherent(std::string_view attr) const {
  return std::find(inherent_attrs.begin(), inherent_attrs.end(), attr) !=
         inherent_attrs.end();
}

OpName OpName::registered(std::string_view name) {
  ensureBuiltinsRegistered();
  return Registry::get().find(name);
}

std::string_view OpName::dialect() const {
  std::string_view s = str();
  return s.substr(0, s.find('.'));
}

// Used by registerBuiltinOps, which runs inside the once-flag.
OpName registerBuiltinOpInfo(std::string_view name, OpInfo info) {
  return Registry::get().set(name, std::move(info));
}

OpName registerOpInfo(std::string_view name, OpInfo info) {
  ensureBuiltinsRegistered();
  return Registry::get().set(name, std::move(info));
}

}  // namespace shardkit
