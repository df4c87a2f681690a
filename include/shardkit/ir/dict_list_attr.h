// DictListAttr: an op's list of attribute dictionaries, one per argument or
// result (func.func's `arg_attrs` and `res_attrs`, mpmd.for's `arg_attrs`),
// kept as MLIR keeps it: an array attribute of dictionaries, absent when all
// of them are empty.
#ifndef SHARDKIT_IR_DICT_LIST_ATTR_H_
#define SHARDKIT_IR_DICT_LIST_ATTR_H_

#include <string_view>

#include "absl/types/span.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

class DictListAttr {
 public:
  // The list `name` of `op`, of `count` dictionaries (`name` must outlive
  // this view).
  DictListAttr(Op op, std::string_view name, unsigned count)
      : op_(op), name_(name), count_(count) {}

  // Dictionary `i`; empty when the list or the dictionary is absent.
  AttrDict dict(unsigned i) const;
  // The entries of dictionary `i`, read in place (valid until the op's
  // attributes change); empty when the list or the dictionary is absent.
  absl::Span<const NamedAttribute> entries(unsigned i) const {
    return entriesOf(op_, name_, i);
  }
  // Entry `name` of dictionary `i`, or the null attribute.
  const Attribute& entry(unsigned i, std::string_view name) const {
    return entryOf(op_, name_, i, name);
  }
  // The same for the list `list` of `op`, which reading needs no count for.
  static absl::Span<const NamedAttribute> entriesOf(Op op,
                                                    std::string_view list,
                                                    unsigned i);
  static const Attribute& entryOf(Op op, std::string_view list, unsigned i,
                                  std::string_view name);
  void setDict(unsigned i, const AttrDict& updated) const;
  // Adds or replaces entry `name` of dictionary `i`.
  void setEntry(unsigned i, std::string_view name, Attribute value) const;
  // Removes entry `name` of dictionary `i` (the list is left alone when it
  // has no such entry).
  void removeEntry(unsigned i, std::string_view name) const;
  // Removes entry `name` of every dictionary.
  void removeEntryEverywhere(std::string_view name) const;
  // The number of dictionaries (of arguments or results).
  unsigned size() const { return count_; }

 private:
  // setDict with the entries of the dictionary.
  void setEntries(unsigned i, std::vector<NamedAttribute> entries) const;

  Op op_;
  std::string_view name_;
  unsigned count_;
};

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_IR_DICT_LIST_ATTR_H_
