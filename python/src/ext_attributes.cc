// Reading and printing any sdy attribute: shardkit.parse_attribute returns a
// Mesh, a TensorSharding, a list of them (`#sdy.sharding_per_value`), or an
// Attribute (kind and canonical text) for the other kinds.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>

#include "absl/hash/hash.h"
#include "ext_bindings.h"
#include "ext_status.h"
#include "ext_types.h"
#include "shardkit/core/verify_mesh.h"
#include "shardkit/text/parse.h"

namespace nb = nanobind;

namespace shardkit::python {
namespace {

// An sdy attribute that has no class of its own: its kind (the mnemonic
// after `#sdy.`) and its text as shardkit prints it.
struct PyAttribute {
  std::string kind;
  std::string text;
};

template <typename T>
PyAttribute attribute(std::string kind, absl::StatusOr<T> parsed) {
  std::string text = "#sdy." + kind + toString(valueOrThrow(std::move(parsed)));
  return PyAttribute{std::move(kind), std::move(text)};
}

bool startsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

nb::object parseAttribute(std::string_view text) {
  std::string_view t = text;
  while (!t.empty() && (t.front() == ' ' || t.front() == '\n'))
    t.remove_prefix(1);
  if (startsWith(t, "#sdy.mesh<")) {
    Mesh mesh = valueOrThrow(parseMesh(t));
    throwIfError(verifyMesh(mesh));
    return nb::cast(PyMesh{std::move(mesh), "mesh"});
  }
  if (startsWith(t, "#sdy.sharding<"))
    return nb::cast(PySharding{valueOrThrow(parseTensorSharding(t)), {}});
  if (startsWith(t, "#sdy.sharding_per_value<")) {
    nb::list out;
    TensorShardingPerValue list = valueOrThrow(parseTensorShardingPerValue(t));
    for (const TensorSharding& s : list) out.append(PySharding{s, {}});
    return out;
  }
  if (startsWith(t, "#sdy.op_sharding_rule<"))
    return nb::cast(attribute("op_sharding_rule", parseOpShardingRule(t)));
  if (startsWith(t, "#sdy<manual_axes"))
    return nb::cast(PyAttribute{
        "manual_axes",
        "#sdy<manual_axes" + toString(valueOrThrow(parseManualAxes(t))) + ">"});
  if (startsWith(t, "#sdy.propagation_edges<"))
    return nb::cast(attribute("propagation_edges", parsePropagationEdges(t)));
  throwError(
      "expected an sdy attribute (#sdy.mesh<...>, #sdy.sharding<...>, "
      "#sdy.sharding_per_value<...>, #sdy.op_sharding_rule<...>, "
      "#sdy.propagation_edges<...>), got '" +
      std::string(text.substr(0, 40)) + "'");
}

}  // namespace

void bindAttributes(nb::module_& m) {
  nb::class_<PyAttribute>(m, "Attribute",
                          "An sdy attribute without a class of its own (a "
                          "sharding rule, propagation edges): its kind and "
                          "canonical text.")
      .def_prop_ro(
          "kind", [](const PyAttribute& a) { return a.kind; },
          "`op_sharding_rule`, `manual_axes`, `propagation_edges`.")
      .def("__str__", [](const PyAttribute& a) { return a.text; })
      .def("__repr__",
           [](const PyAttribute& a) {
             return "shardkit.parse_attribute('" + a.text + "')";
           })
      .def(
          "__eq__",
          [](const PyAttribute& a, const PyAttribute& b) {
            return a.kind == b.kind && a.text == b.text;
          },
          nb::is_operator())
      .def("__hash__",
           [](const PyAttribute& a) { return absl::HashOf(a.kind, a.text); });
  m.def("parse_attribute", &parseAttribute, nb::arg("text"),
        "Reads an sdy attribute: a Mesh, a TensorSharding, a list of "
        "TensorSharding, or an Attribute.");
}

}  // namespace shardkit::python
