// input_scaling [--check] [--kind=NAME] [SMALL [LARGE]]: feeds shardkit-opt's
// path (read and verify, -sdy-propagation-pipeline, print) modules that are
// large along one input dimension at a time, at SMALL (default 10^4) and
// LARGE (default 10^5) elements, and prints the time per element at both
// sizes. Linear work costs the same per element at both; a ratio well above
// 1 is a superlinear algorithm. With --check the exit code is 1 when a ratio
// exceeds 4 (a quadratic algorithm gives about LARGE / SMALL = 10). One line
// per kind:
//   axes_per_sharding  n=10000 1.2 us/elem  n=100000 1.3 us/elem  ratio 1.1
// An input that is rejected (e.g. a limit on nesting) is timed all the same:
// reading up to the error must be linear too.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/asm/module_io.h"
#include "shardkit/passes/pass.h"
#include "shardkit/support/strings.h"

using namespace shardkit;

namespace {

// `count` copies of `piece(i)` joined by `separator`.
std::string joined(int64_t count, std::string_view separator,
                   const std::function<std::string(int64_t)>& piece) {
  std::string out;
  for (int64_t i = 0; i < count; ++i) {
    if (i > 0) out += separator;
    out += piece(i);
  }
  return out;
}

std::string meshOfSizeOneAxes(int64_t n) {
  return strCat(
      "sdy.mesh @m = <[",
      joined(n, ", ", [](int64_t i) { return strCat("\"a", i, "\"=1"); }),
      "]>\n");
}

std::string axisNames(int64_t n) {
  return joined(n, ", ", [](int64_t i) { return strCat("\"a", i, "\""); });
}

// A function of one sharded argument through one abs.
std::string absFunction(std::string_view type, std::string_view sharding) {
  return strCat("func.func @f(%arg0: ", type, " {sdy.sharding = ", sharding,
                "}) -> ", type, " {\n  %0 = stablehlo.abs %arg0 : ", type,
                "\n  return %0 : ", type, "\n}\n");
}

constexpr std::string_view kMeshX = "sdy.mesh @m = <[\"x\"=2]>\n";
constexpr std::string_view kT = "tensor<8xf32>";
constexpr std::string_view kShardedArg =
    "%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m, [{\"x\"}]>}";

// The name of factor `i` in the rule syntax: i..z, then z_1, z_2, ...
std::string factorName(int64_t i) {
  if (i < 18) return std::string(1, static_cast<char>('i' + i));
  return strCat("z_", i - 17);
}

struct Kind {
  const char* name;
  std::function<std::string(int64_t)> generate;
};

std::vector<Kind> kinds() {
  return {
      {"mesh_axes",
       [](int64_t n) {
         return strCat(meshOfSizeOneAxes(n),
                       absFunction(kT, "#sdy.sharding<@m, [{}]>"));
       }},
      {"axes_per_sharding",
       [](int64_t n) {
         return strCat(meshOfSizeOneAxes(n),
                       absFunction(kT, strCat("#sdy.sharding<@m, [{",
                                              axisNames(n), "}]>")));
       }},
      {"replicated_axes",
       [](int64_t n) {
         return strCat(meshOfSizeOneAxes(n),
                       absFunction(kT, strCat("#sdy.sharding<@m, [{}], "
                                              "replicated={",
                                              axisNames(n), "}>")));
       }},
      {"dims_per_tensor",
       [](int64_t n) {
         std::string type = strCat(
             "tensor<", joined(n, "x", [](int64_t) { return "1"; }), "xf32>");
         return strCat(meshOfSizeOneAxes(n),
                       absFunction(type, strCat("#sdy.sharding<@m, [",
                                                joined(n, ", ",
                                                       [](int64_t i) {
                                                         return strCat(
                                                             "{\"a", i, "\"}");
                                                       }),
                                                "]>")));
       }},
      {"operands_per_op",
       [](int64_t n) {
         return strCat(kMeshX, "func.func @f(", kShardedArg, ") -> tensor<",
                       8 * n, "xf32> {\n  %0 = stablehlo.concatenate ",
                       joined(n, ", ", [](int64_t) { return "%arg0"; }),
                       ", dim = 0 : (",
                       joined(n, ", ", [](int64_t) { return std::string(kT); }),
                       ") -> tensor<", 8 * n, "xf32>\n  return %0 : tensor<",
                       8 * n, "xf32>\n}\n");
       }},
      {"results_per_op",
       [](int64_t n) {
         return strCat(kMeshX, "func.func @f(", kShardedArg, ") -> ", kT,
                       " {\n  %0:", n, " = \"x.op\"(%arg0) : (", kT, ") -> (",
                       joined(n, ", ", [](int64_t) { return std::string(kT); }),
                       ")\n  return %0#0 : ", kT, "\n}\n");
       }},
      {"arguments_per_function",
       [](int64_t n) {
         return strCat(kMeshX, "func.func @f(",
                       joined(n, ", ",
                              [](int64_t i) {
                                return strCat("%a", i,
                                              ": tensor<8xf32> {sdy.sharding = "
                                              "#sdy.sharding<@m, [{\"x\"}]>}");
                              }),
                       ") -> ", kT, " {\n  return %a0 : ", kT, "\n}\n");
       }},
      {"functions_per_module",
       [](int64_t n) {
         return strCat(kMeshX, joined(n, "", [](int64_t i) {
                         return strCat("func.func @f", i, "(", kShardedArg,
                                       ") -> ", kT,
                                       " {\n  %0 = stablehlo.abs %arg0 : ", kT,
                                       "\n  return %0 : ", kT, "\n}\n");
                       }));
       }},
      {"calls_per_function",
       [](int64_t n) {
         return strCat(kMeshX, "func.func private @g(%arg0: ", kT, ") -> ", kT,
                       " {\n  return %arg0 : ", kT, "\n}\nfunc.func @f(",
                       kShardedArg, ") -> ", kT, " {\n",
                       joined(n, "",
                              [](int64_t i) {
                                return strCat("  %", i, " = call @g(",
                                              i == 0 ? std::string("%arg0")
                                                     : strCat("%", i - 1),
                                              ") : (", kT, ") -> ", kT, "\n");
                              }),
                       "  return %", n - 1, " : ", kT, "\n}\n");
       }},
      {"values_per_block",
       [](int64_t n) {
         return strCat(kMeshX, "func.func @f(", kShardedArg, ") -> ", kT,
                       " {\n",
                       joined(n, "",
                              [](int64_t i) {
                                return strCat("  %", i, " = stablehlo.abs ",
                                              i == 0 ? std::string("%arg0")
                                                     : strCat("%", i - 1),
                                              " : ", kT, "\n");
                              }),
                       "  return %", n - 1, " : ", kT, "\n}\n");
       }},
      {"uses_per_value",
       [](int64_t n) {
         return strCat(
             kMeshX, "func.func @f(", kShardedArg, ") -> ", kT, " {\n",
             joined(n, "",
                    [](int64_t i) {
                      return strCat("  %", i, " = stablehlo.abs %arg0 : ", kT,
                                    "\n");
                    }),
             "  return %", n - 1, " : ", kT, "\n}\n");
       }},
      {"meshes_per_module",
       [](int64_t n) {
         return strCat(joined(n, "",
                              [](int64_t i) {
                                return strCat("sdy.mesh @m", i,
                                              " = <[\"x\"=2]>\n");
                              }),
                       absFunction(kT, "#sdy.sharding<@m0, [{\"x\"}]>"));
       }},
      {"device_ids_per_mesh",
       [](int64_t n) {
         return strCat(
             "sdy.mesh @m = <[\"x\"=", n, "], device_ids=[",
             joined(n, ", ", [n](int64_t i) { return strCat(n - 1 - i); }),
             "]>\n", absFunction(kT, "#sdy.sharding<@m, [{\"x\"}]>"));
       }},
      {"factors_per_rule",
       [](int64_t n) {
         std::string type = strCat(
             "tensor<", joined(n, "x", [](int64_t) { return "1"; }), "xf32>");
         std::string factors = joined(n, ", ", factorName);
         return strCat(
             "func.func @f(%arg0: ", type, ") -> ", type,
             " {\n  %0 = stablehlo.custom_call @foo(%arg0) "
             "{sdy.sharding_rule = #sdy.op_sharding_rule<([",
             factors, "])->([", factors, "]) {",
             joined(n, ", ",
                    [](int64_t i) { return strCat(factorName(i), "=1"); }),
             "}>} : (", type, ") -> ", type, "\n  return %0 : ", type, "\n}\n");
       }},
      {"attributes_per_op",
       [](int64_t n) {
         return strCat(
             "func.func @f(%arg0: ", kT, ") -> ", kT,
             " {\n  %0 = stablehlo.abs %arg0 {",
             joined(n, ", ",
                    [](int64_t i) { return strCat("a", i, " = ", i); }),
             "} : ", kT, "\n  return %0 : ", kT, "\n}\n");
       }},
      {"sharding_groups",
       [](int64_t n) {
         return strCat(
             kMeshX, "func.func @f(", kShardedArg, ") -> ", kT, " {\n",
             joined(n, "",
                    [](int64_t i) {
                      return strCat("  sdy.sharding_group %arg0 group_id=", i,
                                    " : ", kT, "\n");
                    }),
             "  return %arg0 : ", kT, "\n}\n");
       }},
      {"name_length",
       [](int64_t n) {
         std::string name(n, 'a');
         return strCat("sdy.mesh @", name, " = <[\"", name, "\"=2]>\n",
                       absFunction(kT, strCat("#sdy.sharding<@", name, ", [{\"",
                                              name, "\"}]>")));
       }},
      {"dense_elements",
       [](int64_t n) {
         return strCat("func.func @f() -> tensor<", n,
                       "xf32> {\n  %0 = stablehlo.constant dense<[",
                       joined(n, ", ", [](int64_t) { return "1.0"; }),
                       "]> : tensor<", n, "xf32>\n  return %0 : tensor<", n,
                       "xf32>\n}\n");
       }},
      {"nesting_depth",
       [](int64_t n) {
         return strCat(
             "func.func @f(%arg0: ", kT, ") -> ", kT, " {\n",
             joined(n, "",
                    [](int64_t i) {
                      return strCat("  %", i, " = \"x.op\"() ({\n");
                    }),
             "  \"x.yield\"() : () -> ()\n",
             joined(n, "",
                    [](int64_t) {
                      return std::string("  }) : () -> tensor<8xf32>\n");
                    }),
             "  return %arg0 : ", kT, "\n}\n");
       }},
  };
}

using Clock = std::chrono::steady_clock;

// Reads, propagates and prints `text`; returns the seconds it took.
double runOnce(const std::string& text, bool& ok) {
  Clock::time_point start = Clock::now();
  absl::StatusOr<std::unique_ptr<Module>> module = parseModule(text, "in.mlir");
  ok = module.ok();
  if (ok) {
    ok = runPass(**module, "sdy-propagation-pipeline", PassOptions()).ok();
    std::string out = printModule(**module);
    ok = ok && !out.empty();
  }
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The fastest of a few runs (fewer for slow ones), per element.
double secondsPerElement(const Kind& kind, int64_t n, bool& ok) {
  std::string text = kind.generate(n);
  double best = runOnce(text, ok);
  for (int run = 1; run < 3 && best < 1.0; ++run) {
    best = std::min(best, runOnce(text, ok));
  }
  return best / static_cast<double>(n);
}

}  // namespace

int main(int argc, char** argv) {
  bool check = false;
  std::string only;
  std::vector<int64_t> sizes;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--check") {
      check = true;
    } else if (arg.starts_with("--kind=")) {
      only = std::string(arg.substr(7));
    } else {
      sizes.push_back(std::atoll(argv[i]));
    }
  }
  int64_t small = sizes.size() > 0 ? sizes[0] : 10000;
  int64_t large = sizes.size() > 1 ? sizes[1] : 100000;
  if (small < 1 || large <= small || sizes.size() > 2) {
    std::fprintf(stderr,
                 "usage: input_scaling [--check] [--kind=NAME] [SMALL "
                 "[LARGE]]\n");
    return 2;
  }
  int status = 0;
  for (const Kind& kind : kinds()) {
    if (!only.empty() && only != kind.name) continue;
    bool ok_small = false, ok_large = false;
    double a = secondsPerElement(kind, small, ok_small);
    double b = secondsPerElement(kind, large, ok_large);
    double ratio = b / a;
    bool superlinear = ratio > 4;
    std::printf(
        "%-24s n=%-7lld %8.3f us/elem  n=%-7lld %8.3f us/elem  ratio "
        "%5.2f%s%s\n",
        kind.name, static_cast<long long>(small), a * 1e6,
        static_cast<long long>(large), b * 1e6, ratio,
        ok_small && ok_large ? "" : "  (rejected)",
        superlinear ? "  SUPERLINEAR" : "");
    std::fflush(stdout);
    if (superlinear && check) status = 1;
  }
  return status;
}
