// UnchangedVisits (src/passes/export/unchanged_visits.h): a visit is found
// again by the value of its inputs, and by the addresses of shardings held
// by attributes, which the set keeps alive so an address is never reused.
#include "src/passes/export/unchanged_visits.h"

#include <catch2/catch.hpp>
#include <vector>

#include "shardkit/text/parse.h"

namespace shardkit::passes_internal {
namespace {

TensorSharding sharding(std::string_view text) {
  absl::StatusOr<TensorSharding> s = parseTensorSharding(text);
  REQUIRE(s.ok());
  return *s;
}

// The inputs of a visit of `rule` to tensors whose shardings are held by
// `holders` (null attributes stand for tensors without a sharding).
struct Inputs {
  std::vector<const void*> types;
  std::vector<const TensorSharding*> shardings;
  std::vector<Attribute> holders;
  std::vector<const Attribute*> holder_addresses;  // into `holders`
  VisitInputs view(const OpShardingRule* rule, bool held = true) const {
    return {rule, types, shardings,
            held ? absl::MakeConstSpan(holder_addresses)
                 : absl::Span<const Attribute* const>()};
  }
};

Inputs inputsOf(const std::vector<Attribute>& attrs) {
  Inputs in;
  static const int kTypeA = 0;
  for (const Attribute& a : attrs) {
    in.types.push_back(&kTypeA);
    in.shardings.push_back(a ? a.as<TensorSharding>() : nullptr);
    in.holders.push_back(a);
  }
  // After the last push: the addresses stay valid when `in` is moved.
  for (const Attribute& a : in.holders) {
    in.holder_addresses.push_back(a ? &a : nullptr);
  }
  return in;
}

TEST_CASE("unchanged visits are found by value and by address") {
  OpShardingRule rule, other_rule;
  Attribute x = Attribute::of(sharding(R"(<@mesh, [{"x"}, {}]>)"));
  Attribute y = Attribute::of(sharding(R"(<@mesh, [{}, {"y"}]>)"));
  Attribute x_again = Attribute::of(sharding(R"(<@mesh, [{"x"}, {}]>)"));
  REQUIRE(x.as<TensorSharding>() != x_again.as<TensorSharding>());

  UnchangedVisits visits;
  Inputs first = inputsOf({x, y, Attribute()});
  CHECK_FALSE(visits.contains(first.view(&rule)));
  visits.insert(first.view(&rule));
  CHECK(visits.contains(first.view(&rule)));
  CHECK(visits.contains(first.view(&rule, /*held=*/false)));
  // Equal shardings at other addresses, with or without holders.
  Inputs equal = inputsOf({x_again, y, Attribute()});
  CHECK(visits.contains(equal.view(&rule)));
  CHECK(visits.contains(equal.view(&rule, /*held=*/false)));
  // Another sharding, another rule, a missing sharding: not the same visit.
  CHECK_FALSE(visits.contains(inputsOf({y, y, Attribute()}).view(&rule)));
  CHECK_FALSE(visits.contains(first.view(&other_rule)));
  CHECK_FALSE(visits.contains(inputsOf({x, y, x}).view(&rule)));
  CHECK(visits.size() == 1);
}

TEST_CASE("an unchanged visit keeps the shardings it knows by address") {
  OpShardingRule rule;
  UnchangedVisits visits;
  const TensorSharding* address = nullptr;
  {
    Attribute x = Attribute::of(sharding(R"(<@mesh, [{"x"}, {}]>)"));
    address = x.as<TensorSharding>();
    visits.insert(inputsOf({x}).view(&rule));
  }
  // The caller's attribute is gone; the set's copy keeps its sharding, so
  // new shardings are made elsewhere and are told apart by value.
  for (int i = 0; i < 100; ++i) {
    Attribute y = Attribute::of(sharding(R"(<@mesh, [{}, {"y"}]>)"));
    CHECK(y.as<TensorSharding>() != address);
    CHECK_FALSE(visits.contains(inputsOf({y}).view(&rule)));
  }
  CHECK(*address == sharding(R"(<@mesh, [{"x"}, {}]>)"));
}

}  // namespace
}  // namespace shardkit::passes_internal
