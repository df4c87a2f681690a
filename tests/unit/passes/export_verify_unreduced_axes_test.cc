// -sdy-verify-unreduced-axes: which transitions of unreduced axes are errors.
#include <catch2/catch.hpp>
#include <string>

#include "shardkit/passes/export_passes.h"
#include "unit/passes/import_test_util.h"

namespace shardkit {
namespace {

using import_testing::message;
using import_testing::parse;

std::string verify(std::string_view body, std::string_view arg_unreduced) {
  auto m = parse(std::string(R"(
sdy.mesh @m = <["x"=2, "y"=2]>
func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}])") +
                 (arg_unreduced.empty() ? "" : ", ") +
                 std::string(arg_unreduced) + R"(>}) -> tensor<8xf32> {
)" + std::string(body) +
                 R"(
})");
  return message(verifyUnreducedAxes(*m));
}

TEST_CASE("StableHLO ops keep unreduced axes; reshards may drop them") {
  CHECK(verify(R"(
  %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}]>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>)",
               R"(unreduced={"y"})")
            .find("'stablehlo.negate' op dropped unreduced axis 'y'") !=
        std::string::npos);
  CHECK(verify(R"(
  %0 = sdy.reshard %a <@m, [{"x"}]> : tensor<8xf32>
  %1 = stablehlo.negate %0 {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}]>]>} : tensor<8xf32>
  return %1 : tensor<8xf32>)",
               R"(unreduced={"y"})")
            .empty());
}

TEST_CASE("reduction kinds of unreduced axes are kept, and new ones are sums") {
  CHECK(verify(R"(
  %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}], unreduced={"y"}>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>)",
               R"(unreduced=max{"y"})")
            .find("cannot change the reduction operator of kept unreduced "
                  "axes from max to sum.") != std::string::npos);
  CHECK(verify(R"(
  %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@m, [{"x"}], unreduced=max{"y"}>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>)",
               "")
            .find("cannot introduce 'max' unreduced axes. Expected 'sum'.") !=
        std::string::npos);
}

}  // namespace
}  // namespace shardkit
