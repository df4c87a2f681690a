// DictListAttr: reading and updating a list of attribute dictionaries.
#include "shardkit/ir/dict_list_attr.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace shardkit {

AttrDict DictListAttr::dict(unsigned i) const {
  AttrDict result;
  for (const NamedAttribute& e : entries(i)) result.set(e.name, e.value);
  return result;
}

void DictListAttr::setDict(unsigned i, const AttrDict& updated) const {
  setEntries(i, std::vector<NamedAttribute>(updated.begin(), updated.end()));
}

void DictListAttr::setEntries(unsigned i,
                              std::vector<NamedAttribute> entries) const {
  bool empty = entries.empty();
  Attribute value = Attribute::dict(std::move(entries));
  // Update in place when the op is the list's only owner: setting every
  // argument's attributes one by one stays linear.
  for (AttrDict* attrs : {&op_.inherentAttrs(), &op_.discardableAttrs()}) {
    Attribute* stored = attrs->find(name_);
    if (!stored) continue;
    if (std::vector<Attribute>* dicts = stored->mutableArrayIfUnique();
        dicts && dicts->size() == count_ && !empty) {
      (*dicts)[i] = std::move(value);
      return;
    }
  }
  std::vector<Attribute> dicts;
  if (const std::vector<Attribute>* existing = op_.attr(name_).asArray()) {
    dicts = *existing;
  }
  dicts.resize(count_, Attribute::dict({}));
  dicts[i] = std::move(value);
  bool all_empty = true;
  for (const Attribute& d : dicts) {
    const auto* entries = d.asDict();
    all_empty = all_empty && (!entries || entries->empty());
  }
  if (all_empty) {
    op_.removeAttr(name_);
  } else {
    op_.setAttr(name_, Attribute::array(std::move(dicts)));
  }
}

absl::Span<const NamedAttribute> DictListAttr::entriesOf(Op op,
                                                         std::string_view list,
                                                         unsigned i) {
  const std::vector<Attribute>* dicts = op.attr(list).asArray();
  if (!dicts || i >= dicts->size()) return {};
  const std::vector<NamedAttribute>* entries = (*dicts)[i].asDict();
  if (!entries) return {};
  return *entries;
}

const Attribute& DictListAttr::entryOf(Op op, std::string_view list, unsigned i,
                                       std::string_view name) {
  for (const NamedAttribute& e : entriesOf(op, list, i)) {
    if (sameAttrName(e.name, name)) return e.value;
  }
  return kNullAttribute;
}

void DictListAttr::setEntry(unsigned i, std::string_view name,
                            Attribute value) const {
  // The new entry replaces its namesake or is added (Attribute::dict sorts
  // the entries by name).
  absl::Span<const NamedAttribute> old = entries(i);
  std::vector<NamedAttribute> updated;
  updated.reserve(old.size() + 1);
  updated.assign(old.begin(), old.end());
  auto same = [&](const NamedAttribute& e) { return e.name == name; };
  if (auto at = std::find_if(updated.begin(), updated.end(), same);
      at != updated.end()) {
    at->value = std::move(value);
  } else {
    updated.push_back(NamedAttribute{std::string(name), std::move(value)});
  }
  setEntries(i, std::move(updated));
}

void DictListAttr::removeEntry(unsigned i, std::string_view name) const {
  AttrDict updated = dict(i);
  if (updated.erase(name)) setDict(i, updated);
}

void DictListAttr::removeEntryEverywhere(std::string_view name) const {
  // One new list for all dictionaries: removing dictionary by dictionary
  // copies the list each time one becomes empty (quadratic in arguments).
  const std::vector<Attribute>* existing = op_.attr(name_).asArray();
  if (!existing) return;
  std::vector<Attribute> dicts;
  dicts.reserve(count_);
  bool changed = false;
  bool all_empty = true;
  for (unsigned i = 0; i < count_; ++i) {
    absl::Span<const NamedAttribute> old = entries(i);
    std::vector<NamedAttribute> kept;
    kept.reserve(old.size());
    for (const NamedAttribute& e : old) {
      if (e.name != name) kept.push_back(e);
    }
    all_empty = all_empty && kept.empty();
    if (kept.size() != old.size()) {
      changed = true;
      dicts.push_back(Attribute::dict(std::move(kept)));
    } else if (i < existing->size()) {
      dicts.push_back((*existing)[i]);
    } else {
      dicts.push_back(Attribute::dict({}));
    }
  }
  if (!changed) return;
  if (all_empty) {
    op_.removeAttr(name_);
  } else {
    op_.setAttr(name_, Attribute::array(std::move(dicts)));
  }
}

}  // namespace shardkit
