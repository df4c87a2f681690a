// OpName: an interned op name ("stablehlo.add"), and OpInfo, what shardkit
// knows about an op kind (its inherent attributes and traits).
//
// Registered op kinds (sdy, func, stablehlo, ...) are interned in a
// process-wide registry; names of unknown ops are interned by the Module that
// holds them (Module::opName), so arbitrary input never grows global state.
#ifndef SHARDKIT_IR_OP_NAME_H_
#define SHARDKIT_IR_OP_NAME_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace shardkit {

// Static facts about a registered op kind.
struct OpInfo {
  // Attributes that are part of the op's definition (MLIR "properties"),
  // printed in `<{...}>` in the generic form.
  std::vector<std::string> inherent_attrs;
  bool is_terminator = false;
  // Regions cannot use values defined outside (func.func,
  // sdy.manual_computation, sdy.named_computation).
  bool isolated_from_above = false;
  bool isInherent(std::string_view attr) const;
};

// The interned storage of a name; see OpName.
struct OpNameEntry {
  std::string name;
  std::atomic<const OpInfo*> info{nullptr};
};

class OpName {
 public:
  OpName() = default;
  explicit OpName(const OpNameEntry* entry) : entry_(entry) {}

  // The registered op kind called `name`; a null OpName when not registered.
  static OpName registered(std::string_view name);

  explicit operator bool() const { return entry_ != nullptr; }
  std::string_view str() const {
    return entry_ ? std::string_view(entry_->name) : std::string_view();
  }
  // The part before the first '.', e.g. "stablehlo".
  std::string_view dialect() const;
  // Registered facts, or null for an unknown op.
  const OpInfo* info() const {
    return entry_ ? entry_->info.load(std::memory_order_acquire) : nullptr;
  }
  bool isRegistered() const { return info() != nullptr; }
  bool isInherentAttr(std::string_view attr) const {
    const OpInfo* i = info();
    return i && i->isInherent(attr);
  }

  friend bool operator==(OpName a, OpName b) {
    return a.entry_ == b.entry_ || a.str() == b.str();
  }
  friend bool operator==(OpName a, std::string_view b) { return a.str() == b; }
  template <typename H>
  friend H AbslHashValue(H h, OpName n) {
    return H::combine(std::move(h), n.str());
  }

 private:
  const OpNameEntry* entry_ = nullptr;
};

// Registers (or replaces) the facts of an op kind and returns its name.
// Thread-safe. shardkit registers the sdy, func and stablehlo ops it knows on
// first use of the registry.
OpName registerOpInfo(std::string_view name, OpInfo info);

}  // namespace shardkit

#endif  // SHARDKIT_IR_OP_NAME_H_
