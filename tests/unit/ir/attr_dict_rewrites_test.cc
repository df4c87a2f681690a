// AttrDictRewrites: dictionaries that ops share stay shared when each op's
// dictionary is rewritten.
#include "shardkit/ir/attr_dict_rewrites.h"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/ir/attribute.h"

namespace shardkit {
namespace {

AttrDict dictOf(int64_t k, std::string_view m = "x") {
  AttrDict dict;
  dict.set("k", Attribute::integer(k));
  dict.set("m", Attribute::string(std::string(m)));
  return dict;
}

// A rewrite that sets `name` to `value` and counts its calls in `calls`.
auto countingSet(int& calls, std::string_view name, Attribute value) {
  return [&calls, name, value](AttrDict& dict) {
    ++calls;
    dict.set(name, value);
  };
}

// Sets "k" to 2 in `a`, then in `b`, through `rewrites`; returns how many
// times the rewrite ran.
int setKToTwoInBoth(AttrDictRewrites& rewrites, AttrDict& a, AttrDict& b) {
  Attribute two = Attribute::integer(2);
  int calls = 0;
  auto setK = countingSet(calls, "k", two);
  rewrites.apply(a, two.identity(), "k", setK);
  rewrites.apply(b, two.identity(), "k", setK);
  return calls;
}

TEST_CASE("AttrDictRewrites: a shared dictionary is rewritten once") {
  AttrDict a = dictOf(1);
  AttrDict b = a;
  AttrDict c = a;
  AttrDict kept = a;  // held elsewhere: must not change
  Attribute two = Attribute::integer(2);
  int calls = 0;
  auto setK = countingSet(calls, "k", two);
  AttrDictRewrites rewrites;
  for (AttrDict* dict : {&a, &b, &c}) {
    rewrites.apply(*dict, two.identity(), "k", setK);
  }
  CHECK(calls == 1);
  CHECK(a.get("k").intValue() == 2);
  CHECK(a.sharesWith(b));
  CHECK(a.sharesWith(c));
  CHECK_FALSE(a.sharesWith(kept));
  CHECK(kept.get("k").intValue() == 1);
  CHECK(kept == dictOf(1));
}

TEST_CASE("AttrDictRewrites: a rewrite is told apart by what and by name") {
  AttrDict a = dictOf(1);
  AttrDict b = a;
  AttrDict c = a;
  AttrDict held = a;
  Attribute two = Attribute::integer(2);
  Attribute three = Attribute::integer(3);
  AttrDictRewrites rewrites;
  rewrites.apply(a, two.identity(), "k",
                 [&](AttrDict& dict) { dict.set("k", two); });
  rewrites.apply(b, three.identity(), "k",
                 [&](AttrDict& dict) { dict.set("k", three); });
  rewrites.apply(c, two.identity(), "n",
                 [&](AttrDict& dict) { dict.set("n", two); });
  CHECK(a.get("k").intValue() == 2);
  CHECK(b.get("k").intValue() == 3);
  CHECK(c.get("k").intValue() == 1);
  CHECK(c.get("n").intValue() == 2);
  CHECK_FALSE(a.sharesWith(b));
  CHECK_FALSE(a.sharesWith(c));
  CHECK(held == dictOf(1));
}

TEST_CASE("AttrDictRewrites: equal but unshared dictionaries are separate") {
  // The memo is keyed by the entries' address: equal dictionaries with
  // their own entries are rewritten each in place, and stay apart.
  AttrDict a = dictOf(1);
  AttrDict b = dictOf(1);
  const NamedAttribute* a_entries = a.begin();
  AttrDictRewrites rewrites;
  CHECK(setKToTwoInBoth(rewrites, a, b) == 2);
  CHECK(a.begin() == a_entries);  // in place: nobody else held them
  CHECK(a == b);
  CHECK_FALSE(a.sharesWith(b));
}

TEST_CASE("AttrDictRewrites: empty dictionaries share their result") {
  AttrDict a;
  AttrDict b;
  AttrDictRewrites rewrites;
  CHECK(setKToTwoInBoth(rewrites, a, b) == 1);
  CHECK(a.get("k").intValue() == 2);
  CHECK(a.sharesWith(b));
  // Another rewrite of an empty dictionary is its own.
  AttrDict c;
  Attribute two = Attribute::integer(2);
  rewrites.apply(c, two.identity(), "n",
                 [&](AttrDict& dict) { dict.set("n", two); });
  CHECK(c.contains("n"));
  CHECK_FALSE(c.contains("k"));
}

TEST_CASE("AttrDictRewrites: an input's address is not reused while in use") {
  // The memo keeps the first input alive: a dictionary made after all ops
  // dropped it cannot land at its address and be taken for it.
  AttrDictRewrites rewrites;
  Attribute two = Attribute::integer(2);
  auto setK = [&](AttrDict& dict) { dict.set("k", two); };
  {
    AttrDict a = dictOf(1);
    AttrDict b = a;
    rewrites.apply(a, two.identity(), "k", setK);
    rewrites.apply(b, two.identity(), "k", setK);
  }
  for (int i = 0; i < 16; ++i) {
    AttrDict other = dictOf(7, "y");
    AttrDict shared = other;
    rewrites.apply(other, two.identity(), "k", setK);
    CHECK(other.get("k").intValue() == 2);
    CHECK(*other.get("m").asString() == "y");
    CHECK(shared.get("k").intValue() == 7);
  }
}

TEST_CASE("AttrDictRewrites: many rewrites, more than its recent slots") {
  // 300 shared dictionaries, each rewritten with one of three values, then
  // again through other holders in another order: every second rewrite is
  // a hit (the recent slots or the map behind them) giving that rewrite's
  // own result, whichever rewrites shared a slot meanwhile.
  constexpr int kDicts = 300;
  std::vector<AttrDict> first, second;
  for (int i = 0; i < kDicts; ++i) {
    first.push_back(dictOf(i));
    second.push_back(first.back());
  }
  std::vector<Attribute> values = {
      Attribute::integer(-1), Attribute::integer(-2), Attribute::integer(-3)};
  AttrDictRewrites rewrites;
  int calls = 0;
  auto rewrite = [&](AttrDict& dict, int i) {
    const Attribute& value = values[i % 3];
    rewrites.apply(dict, value.identity(), i % 2 ? "n" : "o",
                   countingSet(calls, i % 2 ? "n" : "o", value));
  };
  for (int i = 0; i < kDicts; ++i) rewrite(first[i], i);
  CHECK(calls == kDicts);
  for (int i = kDicts - 1; i >= 0; --i) rewrite(second[i], i);
  CHECK(calls == kDicts);
  for (int i = 0; i < kDicts; ++i) {
    INFO(i);
    CHECK(second[i].sharesWith(first[i]));
    CHECK(second[i].get("k").intValue() == i);
    CHECK(second[i].get(i % 2 ? "n" : "o").intValue() == -(i % 3) - 1);
  }
  // reuse() finds a result made before, and nothing for a rewrite never
  // made of those entries.
  AttrDict base = dictOf(1000);
  AttrDict a = base;
  AttrDict b = base;
  rewrite(a, 1);
  CHECK(calls == kDicts + 1);
  CHECK(rewrites.reuse(b, values[1].identity(), "n"));
  CHECK(b.sharesWith(a));
  AttrDict c = base;
  CHECK_FALSE(rewrites.reuse(c, values[2].identity(), "n"));
  CHECK(c.sharesWith(base));
}

}  // namespace
}  // namespace shardkit
