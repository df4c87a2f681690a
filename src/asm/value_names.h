// Internal to the module reader: the SSA names in scope while a module is
// read. The names MLIR prints (`%12`, `%arg3`) live in arrays indexed by
// their number, so binding and finding them costs no hashing; any other name
// lives in a hash map of its scope. Scopes nest (one per region); a lookup
// does not see past an isolated scope (a function body), and an inner scope
// may shadow a name of an outer one.
#ifndef SHARDKIT_SRC_ASM_VALUE_NAMES_H_
#define SHARDKIT_SRC_ASM_VALUE_NAMES_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "src/asm/text_hash.h"

namespace shardkit {

class ValueNames {
 public:
  // `text_size`: the size of the text being read, which bounds the numbers
  // kept in arrays (a larger one goes to the maps), and so their memory.
  explicit ValueNames(size_t text_size)
      : max_number_(static_cast<uint32_t>(std::min<size_t>(
            std::max<size_t>(text_size / 8, 1024), size_t{1} << 26))) {}

  // A named group of consecutive values (`%0:2` or a single `%a`).
  struct Group {
    uint32_t first = 0;
    uint32_t count = 0;
  };

  void pushScope(bool isolated);
  void popScope();

  // Binds `name` (with its '%') in the innermost scope; false if that scope
  // already binds it.
  bool bind(std::string_view name, Group group);
  // True if the innermost scope binds `name`.
  bool boundInInnermost(std::string_view name) const;
  // The group `name` names in the scopes visible from the innermost one, or
  // null. Valid until the next bind or popScope.
  const Group* find(std::string_view name) const;

 private:
  static constexpr uint32_t kNoScope = UINT32_MAX;

  struct Entry {
    Group group;
    uint32_t scope = kNoScope;  // the scope that binds it
  };
  // Which array a name's number indexes: `%N` or `%argN`.
  enum class Table : uint8_t { kNumbered, kArgument };
  struct Undo {
    Table table;
    uint32_t number;
    Entry previous;
  };
  struct Scope {
    absl::flat_hash_map<std::string_view, Group, TextHash> names;
    std::vector<Undo> undo;  // restored by popScope, last first
    bool isolated = false;
  };

  // The table and number of a name MLIR prints (`%7`, `%arg7`: decimal
  // without leading zeros, below max_number_); false for any other name.
  bool classify(std::string_view name, Table& table, uint32_t& number) const;
  std::vector<Entry>& tableOf(Table table) {
    return table == Table::kNumbered ? numbered_ : arguments_;
  }
  const std::vector<Entry>& tableOf(Table table) const {
    return table == Table::kNumbered ? numbered_ : arguments_;
  }
  // The innermost scope a lookup sees.
  uint32_t visibleFloor() const { return floors_.empty() ? 0 : floors_.back(); }

  uint32_t max_number_;
  std::vector<Scope> scopes_;
  // Indices of the isolated scopes, innermost last.
  std::vector<uint32_t> floors_;
  std::vector<Entry> numbered_, arguments_;
};

}  // namespace shardkit

#endif  // SHARDKIT_SRC_ASM_VALUE_NAMES_H_
