#include "src/asm/value_names.h"

#include "absl/base/attributes.h"

namespace shardkit {

// Inlined into its three callers: every name the reader meets goes
// through one of them.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline bool ValueNames::classify(
    std::string_view name, Table& table, uint32_t& number) const {
  std::string_view digits;
  if (name.size() >= 2 && name[0] == '%') {
    if (name[1] >= '0' && name[1] <= '9') {
      table = Table::kNumbered;
      digits = name.substr(1);
    } else if (name.size() >= 5 && name.substr(1, 3) == "arg") {
      table = Table::kArgument;
      digits = name.substr(4);
    }
  }
  // Eight digits cannot overflow; a leading zero makes another name (`%01`
  // is not `%1`).
  if (digits.empty() || digits.size() > 8 ||
      (digits[0] == '0' && digits.size() > 1)) {
    return false;
  }
  uint32_t n = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
    n = n * 10 + static_cast<uint32_t>(c - '0');
  }
  if (n >= max_number_) return false;
  number = n;
  return true;
}

void ValueNames::pushScope(bool isolated) {
  uint32_t index = static_cast<uint32_t>(scopes_.size());
  scopes_.emplace_back().isolated = isolated;
  if (isolated) floors_.push_back(index);
}

void ValueNames::popScope() {
  Scope& scope = scopes_.back();
  for (auto it = scope.undo.rbegin(); it != scope.undo.rend(); ++it) {
    tableOf(it->table)[it->number] = it->previous;
  }
  if (scope.isolated) floors_.pop_back();
  scopes_.pop_back();
}

bool ValueNames::bind(std::string_view name, Group group) {
  uint32_t innermost = static_cast<uint32_t>(scopes_.size() - 1);
  Table table;
  uint32_t number = 0;
  if (!classify(name, table, number)) {
    return scopes_.back().names.emplace(name, group).second;
  }
  std::vector<Entry>& entries = tableOf(table);
  if (number >= entries.size()) {
    entries.resize(std::max<size_t>(number + 1, entries.size() * 2));
  }
  Entry& entry = entries[number];
  if (entry.scope == innermost) return false;
  scopes_.back().undo.push_back(Undo{table, number, entry});
  entry = Entry{group, innermost};
  return true;
}

bool ValueNames::boundInInnermost(std::string_view name) const {
  Table table;
  uint32_t number = 0;
  if (!classify(name, table, number)) {
    return scopes_.back().names.contains(name);
  }
  const std::vector<Entry>& entries = tableOf(table);
  return number < entries.size() && entries[number].scope == scopes_.size() - 1;
}

const ValueNames::Group* ValueNames::find(std::string_view name) const {
  Table table;
  uint32_t number = 0;
  if (classify(name, table, number)) {
    const std::vector<Entry>& entries = tableOf(table);
    if (number >= entries.size()) return nullptr;
    const Entry& entry = entries[number];
    if (entry.scope == kNoScope || entry.scope < visibleFloor()) return nullptr;
    return &entry.group;
  }
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
    auto it = scope->names.find(name);
    if (it != scope->names.end()) return &it->second;
    if (scope->isolated) break;
  }
  return nullptr;
}

}  // namespace shardkit
