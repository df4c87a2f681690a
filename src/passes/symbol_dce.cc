// -symbol-dce: private functions that no live symbol uses are erased.
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "shardkit/core/strings.h"
#include "shardkit/ir/func.h"
#include "shardkit/passes/call_passes.h"

namespace shardkit {
namespace {

// Calls `fn(name)` for every symbol reference in `attr` (nested in arrays and
// dictionaries too).
template <typename Fn>
void forEachSymbolRef(const Attribute& attr, Fn& fn) {
  if (const std::string* name = attr.asSymbolRef()) {
    fn(*name);
  } else if (const std::vector<Attribute>* array = attr.asArray()) {
    for (const Attribute& a : *array) forEachSymbolRef(a, fn);
  } else if (const std::vector<NamedAttribute>* dict = attr.asDict()) {
    for (const NamedAttribute& a : *dict) forEachSymbolRef(a.value, fn);
  }
}

bool isPrivate(Op op) {
  const std::string* visibility = op.attr("sym_visibility").asString();
  return visibility && *visibility == "private";
}

}  // namespace

absl::Status eraseDeadSymbols(Module& module) {
  absl::flat_hash_map<std::string, Op> symbols;
  std::vector<Op> live;
  absl::flat_hash_set<uint32_t> is_live;
  for (Op op : module.body()) {
    const std::string* name = op.attr("sym_name").asString();
    if (name) symbols.try_emplace(*name, op);
    // Public symbols and anything that isn't a symbol use what they name.
    if (!name || !isPrivate(op)) {
      live.push_back(op);
      is_live.insert(op.id());
    }
  }
  auto use = [&](const std::string& name) {
    auto it = symbols.find(name);
    if (it != symbols.end() && is_live.insert(it->second.id()).second) {
      live.push_back(it->second);
    }
  };
  for (size_t i = 0; i < live.size(); ++i) {
    auto visit = [&](Op op) {
      for (const NamedAttribute& a : op.inherentAttrs()) {
        forEachSymbolRef(a.value, use);
      }
      for (const NamedAttribute& a : op.discardableAttrs()) {
        forEachSymbolRef(a.value, use);
      }
    };
    Module::walkOp(live[i], visit);
  }
  for (Op op : module.body().ops()) {
    if (!is_live.contains(op.id()) && isa<FuncOp>(op)) op.erase();
  }
  return absl::OkStatus();
}

}  // namespace shardkit
