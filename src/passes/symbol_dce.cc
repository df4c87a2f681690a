// -symbol-dce (symbol_dce.h).
#include "shardkit/passes/symbol_dce.h"

#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/passes/pass.h"
#include "src/passes/pass_list.h"

namespace shardkit {
namespace {

// The root symbol of a reference `@a::@b` is `a`.
std::string_view rootSymbol(std::string_view ref) {
  return ref.substr(0, ref.find("::"));
}

void collectReferences(const Attribute& attr, std::vector<std::string>& out) {
  if (const std::string* ref = attr.asSymbolRef()) {
    out.emplace_back(rootSymbol(*ref));
  } else if (const std::vector<Attribute>* elements = attr.asArray()) {
    for (const Attribute& element : *elements) collectReferences(element, out);
  } else if (const std::vector<NamedAttribute>* dict = attr.asDict()) {
    for (const NamedAttribute& entry : *dict) {
      collectReferences(entry.value, out);
    }
  }
}

// The symbols `op` and the ops nested in it refer to.
std::vector<std::string> referencesOf(Op op) {
  std::vector<std::string> refs;
  auto visit = [&refs](Op nested) {
    for (const AttrDict* dict :
         {&nested.inherentAttrs(), &nested.discardableAttrs()}) {
      for (const NamedAttribute& entry : *dict) {
        collectReferences(entry.value, refs);
      }
    }
  };
  Module::walkOp(op, visit);
  return refs;
}

bool isDiscardable(Op op) {
  auto func = dynCast<FuncOp>(op);
  return func && func.visibility() == "private";
}

}  // namespace

absl::Status symbolDce(Module& module) {
  absl::flat_hash_map<std::string, Op> discardable;
  std::vector<Op> worklist;
  for (Op op : module.body().ops()) {
    if (isDiscardable(op)) {
      discardable[std::string(FuncOp(op).name())] = op;
    } else {
      worklist.push_back(op);
    }
  }
  // Only private functions go: without any, there is nothing to look for.
  if (discardable.empty()) return absl::OkStatus();
  absl::flat_hash_set<std::string> live;
  while (!worklist.empty()) {
    Op op = worklist.back();
    worklist.pop_back();
    for (const std::string& ref : referencesOf(op)) {
      auto it = discardable.find(ref);
      if (it != discardable.end() && live.insert(ref).second) {
        worklist.push_back(it->second);
      }
    }
  }
  for (const auto& [name, op] : discardable) {
    if (!live.contains(name)) op.erase();
  }
  return absl::OkStatus();
}

void registerSymbolDcePass() {
  registerPass(optionlessPass(
      "symbol-dce", "Erases the private functions nothing live refers to.",
      symbolDce));
}

}  // namespace shardkit
