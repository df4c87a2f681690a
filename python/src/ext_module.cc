// shardkit._shardkit.Module: a parsed module and what the CLI does to it
// (passes by name, --explain-op, --comm-report, --dump-graph), as the
// Python class shardkit.Module uses it (python/shardkit/_module.py).
//
// Thread-safety: shardkit::Module is not safe to use from several threads at
// once; each PyModule serializes its calls with its own mutex, taken after
// the GIL is released, so distinct modules run in parallel and the same
// module from two Python threads is safe.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/unique_ptr.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <mutex>

#include "ext_bindings.h"
#include "ext_status.h"
#include "ext_types.h"
#include "shardkit/asm/module_io.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/dialect/verify_module.h"
#include "shardkit/passes/comm_report.h"
#include "shardkit/passes/pass.h"
#include "shardkit/passes/pipeline.h"
#include "shardkit/propagation/explain.h"
#include "shardkit/propagation/graph_dump.h"

namespace nb = nanobind;

namespace shardkit::python {
namespace {

struct PyModule {
  std::unique_ptr<Module> module;
  std::mutex mu;
};

// The module's lock, taken with the GIL released (a thread that holds the
// lock may need the GIL back to finish), for a caller that then builds
// Python objects under both.
std::unique_lock<std::mutex> lockModule(PyModule& m) {
  nb::gil_scoped_release release;
  return std::unique_lock<std::mutex>(m.mu);
}

// Runs `fn(module)` without the GIL, holding the module's lock.
template <typename Fn>
auto locked(PyModule& m, Fn&& fn) {
  nb::gil_scoped_release release;
  std::lock_guard<std::mutex> lock(m.mu);
  return fn(*m.module);
}

std::unique_ptr<PyModule> parse(std::string text, std::string filename) {
  absl::StatusOr<std::unique_ptr<Module>> module;
  {
    nb::gil_scoped_release release;
    module = parseModule(std::move(text), filename);
  }
  auto out = std::make_unique<PyModule>();
  out->module = valueOrThrow(std::move(module));
  return out;
}

FuncOp findFunc(Module& module, std::string_view name) {
  Op op = module.lookupSymbol(name);
  if (!op || !isa<FuncOp>(op))
    throwError("the module has no function @" + std::string(name));
  return FuncOp(op);
}

// The sharding as a Python value, with its mesh when the module defines it.
nb::object shardingObject(const std::optional<TensorSharding>& sharding,
                          const MeshTable& meshes) {
  if (!sharding) return nb::none();
  PySharding out{*sharding, {}};
  if (const Mesh* mesh = sharding->mesh.inlineMesh()) {
    out.mesh = *mesh;
  } else if (const Mesh* named = meshes.find(sharding->meshName())) {
    out.mesh = *named;
  }
  return nb::cast(std::move(out));
}

nb::list funcShardings(PyModule& m, std::string_view name, bool results) {
  std::unique_lock<std::mutex> lock = lockModule(m);
  Module& module = *m.module;
  FuncOp func = findFunc(module, name);
  MeshTable meshes = module.meshTable();
  nb::list out;
  unsigned count = results ? func.numResults() : func.numArguments();
  for (unsigned i = 0; i < count; ++i) {
    std::optional<TensorSharding> sharding;
    if (results) {
      if (const TensorSharding* s = findFuncResultSharding(func, i))
        sharding = *s;
    } else {
      sharding = getFuncArgSharding(func, i);
    }
    out.append(shardingObject(sharding, meshes));
  }
  return out;
}

// (function, name, type, sharding) for every value, numbered as the C API
// numbers them: per function its arguments, then op results in pre-order.
nb::list values(PyModule& m) {
  std::unique_lock<std::mutex> lock = lockModule(m);
  Module& module = *m.module;
  MeshTable meshes = module.meshTable();
  nb::list out;
  for (Op fn : module.functions()) {
    FuncOp func(fn);
    if (func.isDeclaration()) continue;
    std::string fname(func.name());
    auto add = [&](Value v) {
      out.append(nb::make_tuple(fname, printedName(v), v.type().str(),
                                shardingObject(getSharding(v), meshes)));
    };
    for (Value arg : func.body().arguments()) add(arg);
    auto addResults = [&](Op op) {
      for (Value result : op.results()) add(result);
    };
    Module::walkBlock(func.body(), addResults);
  }
  return out;
}

nb::dict meshes(PyModule& m) {
  std::unique_lock<std::mutex> lock = lockModule(m);
  nb::dict out;
  MeshTable table = m.module->meshTable();
  for (const std::string& name : table.names())
    out[name.c_str()] = nb::cast(PyMesh{*table.find(name), name});
  return out;
}

std::string explain(PyModule& m, std::string selector, bool basic,
                    bool conservative) {
  return locked(m, [&](Module& module) {
    Op op = findExplainedOp(module, selector);
    if (!op)
      throwError("no op named '" + selector +
                 "' and no value printed as it (e.g. '%3' or "
                 "'stablehlo.dot_general')");
    ExplainOptions options;
    options.strategy =
        basic ? PropagationStrategy::kBasic : PropagationStrategy::kAggressive;
    options.conservative = conservative;
    return valueOrThrow(explainOp(op, options));
  });
}

// (name, description, ((option, kind, description, choices), ...)) of
// every registered pass, as `shardkit-opt --help` lists them.
nb::list passes() {
  static constexpr const char* kKinds[] = {"str", "bool", "int", "choice"};
  nb::list out;
  for (const PassInfo* pass : allPasses()) {
    nb::list options;
    for (const PassOption& o : pass->options) {
      options.append(nb::make_tuple(o.name, kKinds[static_cast<int>(o.kind)],
                                    o.description,
                                    nb::tuple(nb::cast(o.choices))));
    }
    out.append(
        nb::make_tuple(pass->name, pass->description, nb::tuple(options)));
  }
  return out;
}

}  // namespace

void bindModule(nb::module_& m) {
  m.def("passes", &passes, "Every registered pass with its options.");
  nb::class_<PyModule>(m, "Module", "A parsed StableHLO/sdy module.")
      .def_static("parse", &parse, nb::arg("text"),
                  nb::arg("filename") = "<input>",
                  "Reads and verifies MLIR text.")
      .def(
          "print",
          [](PyModule& m, bool debug_info, bool generic) {
            return locked(m, [&](Module& module) {
              PrintOptions options;
              options.debug_info = debug_info;
              options.generic = generic;
              return printModule(module, options);
            });
          },
          nb::arg("debug_info") = false, nb::arg("generic") = false)
      .def(
          "run_pipeline",
          [](PyModule& m, std::string pipeline) {
            locked(m, [&](Module& module) {
              throwIfError(runPassPipeline(module, pipeline));
              return 0;
            });
          },
          nb::arg("pipeline"))
      .def("verify",
           [](PyModule& m) {
             locked(m, [&](Module& module) {
               throwIfError(verifyModule(module));
               return 0;
             });
           })
      .def("explain", &explain, nb::arg("selector"), nb::arg("basic") = false,
           nb::arg("conservative") = false)
      .def("comm_report_json",
           [](PyModule& m) {
             return locked(m, [&](Module& module) {
               return commReportJson(valueOrThrow(communicationReport(module)));
             });
           })
      .def("to_dot",
           [](PyModule& m) {
             return locked(m,
                           [](Module& module) { return dumpGraphDot(module); });
           })
      .def("to_json",
           [](PyModule& m) {
             return locked(
                 m, [](Module& module) { return dumpGraphJson(module); });
           })
      .def("values", &values)
      .def("meshes", &meshes)
      .def("functions",
           [](PyModule& m) {
             std::unique_lock<std::mutex> lock = lockModule(m);
             nb::list out;
             for (Op fn : m.module->functions())
               out.append(std::string(FuncOp(fn).name()));
             return out;
           })
      .def(
          "argument_shardings",
          [](PyModule& m, std::string_view f) {
            return funcShardings(m, f, false);
          },
          nb::arg("function"))
      .def(
          "result_shardings",
          [](PyModule& m, std::string_view f) {
            return funcShardings(m, f, true);
          },
          nb::arg("function"));
}

}  // namespace shardkit::python
