// DictListAttr: one dictionary per argument, the list absent when all are
// empty, entries added, replaced and removed.
#include "shardkit/ir/dict_list_attr.h"

#include <catch2/catch.hpp>

#include "shardkit/dialect/func/func_ops.h"

namespace shardkit {
namespace {

TEST_CASE("DictListAttr keeps one dictionary per entry, absent when empty") {
  Module m;
  Type t = m.types().rankedTensor({4}, "f32");
  FuncOp f = FuncOp::create(m, "fn", {t, t, t}, {});
  m.body().pushBack(f.op());
  DictListAttr list(f.op(), "arg_attrs", 3);
  CHECK(!f.op().attr("arg_attrs"));
  CHECK(!list.entry(1, "a"));
  CHECK(list.dict(1).empty());

  list.setEntry(1, "a", Attribute::integer(7));
  const std::vector<Attribute>* dicts = f.op().attr("arg_attrs").asArray();
  REQUIRE(dicts != nullptr);
  CHECK(dicts->size() == 3);
  CHECK(toString(f.op().attr("arg_attrs")) == "[{}, {a = 7 : i64}, {}]");
  CHECK(list.entry(1, "a").intValue() == 7);
  CHECK(f.argAttr(1, "a").intValue() == 7);

  list.setEntry(1, "a", Attribute::integer(8));
  list.setEntry(2, "b", Attribute::unit());
  CHECK(toString(f.op().attr("arg_attrs")) == "[{}, {a = 8 : i64}, {b}]");

  // A dictionary of several entries: the others stay, in name order, and a
  // replaced entry keeps its place.
  list.setEntry(2, "c", Attribute::integer(1));
  list.setEntry(2, "a", Attribute::integer(2));
  list.setEntry(2, "b", Attribute::integer(3));
  CHECK(toString(f.op().attr("arg_attrs")) ==
        "[{}, {a = 8 : i64}, {a = 2 : i64, b = 3 : i64, c = 1 : i64}]");
  // A list another op shares is copied, not changed under it.
  Attribute shared = f.op().attr("arg_attrs");
  list.setEntry(0, "z", Attribute::unit());
  CHECK(toString(shared) ==
        "[{}, {a = 8 : i64}, {a = 2 : i64, b = 3 : i64, c = 1 : i64}]");
  CHECK(toString(f.op().attr("arg_attrs")) ==
        "[{z}, {a = 8 : i64}, {a = 2 : i64, b = 3 : i64, c = 1 : i64}]");
  list.removeEntry(0, "z");
  list.removeEntry(2, "a");
  list.removeEntry(2, "c");
  list.setEntry(2, "b", Attribute::unit());

  list.removeEntry(0, "missing");
  list.removeEntry(1, "a");
  CHECK(toString(f.op().attr("arg_attrs")) == "[{}, {}, {b}]");
  list.removeEntry(2, "b");
  CHECK(!f.op().attr("arg_attrs"));
}

TEST_CASE("DictListAttr removes an entry from every dictionary at once") {
  Module m;
  Type t = m.types().rankedTensor({4}, "f32");
  FuncOp f = FuncOp::create(m, "fn", {t, t, t}, {});
  m.body().pushBack(f.op());
  DictListAttr list(f.op(), "arg_attrs", 3);
  list.removeEntryEverywhere("a");  // no list: nothing to do
  CHECK(!f.op().attr("arg_attrs"));

  list.setEntry(0, "a", Attribute::integer(1));
  list.setEntry(1, "a", Attribute::integer(2));
  list.setEntry(1, "b", Attribute::unit());
  Attribute before = f.op().attr("arg_attrs");
  list.removeEntryEverywhere("missing");
  CHECK(toString(f.op().attr("arg_attrs")) ==
        "[{a = 1 : i64}, {a = 2 : i64, b}, {}]");

  list.removeEntryEverywhere("a");
  CHECK(toString(f.op().attr("arg_attrs")) == "[{}, {b}, {}]");
  // The list the op held before is another's to keep: not changed.
  CHECK(toString(before) == "[{a = 1 : i64}, {a = 2 : i64, b}, {}]");
  list.removeEntryEverywhere("b");
  CHECK(!f.op().attr("arg_attrs"));
}

TEST_CASE("DictListAttr reads entries in place, without a count") {
  Module m;
  Type t = m.types().rankedTensor({4}, "f32");
  FuncOp f = FuncOp::create(m, "fn", {t, t}, {t});
  m.body().pushBack(f.op());
  CHECK(DictListAttr::entriesOf(f.op(), "arg_attrs", 0).empty());
  f.setArgAttr(1, "b", Attribute::unit());
  f.setArgAttr(1, "a", Attribute::integer(3));
  f.setResultAttr(0, "r", Attribute::integer(5));

  // The entries of the stored dictionary itself, sorted by name.
  absl::Span<const NamedAttribute> entries = f.argAttrList().entries(1);
  REQUIRE(entries.size() == 2);
  CHECK(entries[0].name == "a");
  CHECK(entries[1].name == "b");
  const std::vector<Attribute>& dicts = *f.op().attr("arg_attrs").asArray();
  CHECK(entries.data() == dicts[1].asDict()->data());
  CHECK(f.argAttrList().entries(0).empty());
  // Past the list's end: empty, as a read of an absent dictionary.
  CHECK(DictListAttr::entriesOf(f.op(), "arg_attrs", 7).empty());
  CHECK(!DictListAttr::entryOf(f.op(), "arg_attrs", 7, "a"));
  CHECK(DictListAttr::entryOf(f.op(), "arg_attrs", 1, "a").intValue() == 3);
  CHECK(f.argAttr(1, "a").intValue() == 3);
  CHECK(!f.argAttr(0, "a"));
  CHECK(f.resultAttr(0, "r").intValue() == 5);
  CHECK(!f.resultAttr(0, "a"));
}

}  // namespace
}  // namespace shardkit
