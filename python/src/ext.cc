// shardkit._shardkit: the nanobind extension over shardkit's C++ API. The
// pure-Python package (python/shardkit/) re-exports its classes and adds the
// conveniences; docs/python.md describes the whole API.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>

#include "ext_bindings.h"
#include "ext_status.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/mpmd/dialect.h"
#include "shardkit/partition/passes.h"
#include "shardkit/version.h"

namespace nb = nanobind;

namespace shardkit::python {
namespace {

// shardkit.Error(message, file, line, col, diagnostics): the first
// diagnostic's location, and every diagnostic as (file, line, col,
// severity, message).
void raiseError(const StatusError& error) {
  nb::object cls = nb::module_::import_("shardkit._error").attr("Error");
  std::vector<Diagnostic> diagnostics = diagnosticsOf(error.status());
  nb::list all;
  for (const Diagnostic& d : diagnostics) {
    all.append(nb::make_tuple(d.location.file, d.location.line, d.location.col,
                              std::string(toString(d.severity)), d.message));
  }
  nb::object exc = cls(std::string(error.what()), all);
  PyErr_SetObject(cls.ptr(), exc.ptr());
}

}  // namespace
}  // namespace shardkit::python

NB_MODULE(_shardkit, m) {
  using namespace shardkit;
  m.doc() = "shardkit's C++ core (see the shardkit package for the API).";
  // What shardkit-opt registers: every pass and dialect the CLI knows.
  registerMpmdDialect();
  registerPartitionPasses();

  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const python::StatusError& e) {
      python::raiseError(e);
    }
  });
  // Values still referenced at interpreter exit (module globals, cycles
  // through JAX objects) are not leaks of the bindings: no report at exit.
  nb::set_leak_warnings(false);
  m.attr("__version__") = SHARDKIT_VERSION_STRING;
  python::bindMesh(m);
  python::bindTensorSharding(m);
  python::bindAttributes(m);
  python::bindModule(m);
}
