// Propagates a small module with the installed library and checks the
// result's sharding and the version macros.
#include <cstdio>

#include "shardkit/asm/module_io.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/passes/pipeline.h"
#include "shardkit/version.h"

static_assert(SHARDKIT_VERSION_MAJOR == 0 && SHARDKIT_VERSION >= 100);

int main() {
  absl::StatusOr<std::unique_ptr<shardkit::Module>> module =
      shardkit::parseModule(R"(
sdy.mesh @mesh = <["x"=2]>
func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> tensor<8xf32> {
  %0 = stablehlo.negate %a : tensor<8xf32>
  return %0 : tensor<8xf32>
})");
  if (!module.ok()) return 1;
  if (!shardkit::runPropagationPipeline(**module).ok()) return 2;
  shardkit::Op negate = (*module)->functions()[0].region(0).front().front();
  std::optional<shardkit::TensorSharding> s = getSharding(negate.result(0));
  if (!s || toString(*s) != R"(<@mesh, [{"x"}]>)") return 3;
  std::printf("shardkit %s: ok\n", shardkit::version());
  return 0;
}
