// shardkit.Mesh over shardkit::Mesh.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include "absl/hash/hash.h"
#include "ext_bindings.h"
#include "ext_status.h"
#include "ext_types.h"
#include "shardkit/core/verify_mesh.h"
#include "shardkit/text/parse.h"

namespace nb = nanobind;

namespace shardkit::python {
namespace {

// The axes of `axes`: a dict {name: size} (in its order) or a sequence of
// (name, size) pairs.
std::vector<MeshAxis> axesOf(nb::handle axes) {
  std::vector<MeshAxis> out;
  auto add = [&](nb::handle name, nb::handle size) {
    if (!nb::isinstance<nb::str>(name))
      throwError("a mesh axis name must be a str");
    if (!nb::isinstance<nb::int_>(size) || nb::isinstance<nb::bool_>(size))
      throwError("the size of mesh axis '" + nb::cast<std::string>(name) +
                 "' must be an int");
    out.push_back(
        MeshAxis{nb::cast<std::string>(name), nb::cast<int64_t>(size)});
  };
  if (nb::isinstance<nb::dict>(axes)) {
    for (auto [name, size] : nb::borrow<nb::dict>(axes)) add(name, size);
    return out;
  }
  if (nb::isinstance<nb::str>(axes))
    throwError(
        "Mesh takes a dict {name: size} or (name, size) pairs; to "
        "read mesh text use Mesh.parse");
  for (nb::handle pair : nb::iter(axes)) {
    nb::tuple t = nb::cast<nb::tuple>(pair);
    if (t.size() != 2) throwError("a mesh axis is a (name, size) pair");
    add(t[0], t[1]);
  }
  return out;
}

// An explicit iota device list is dropped: it is the default, and the
// verifier (as the reference's) rejects it written out.
PyMesh makeMesh(Mesh mesh, std::string name) {
  if (mesh.hasIotaDeviceIds()) mesh.device_ids.clear();
  throwIfError(verifyMesh(mesh));
  if (name.empty()) throwError("a mesh name must not be empty");
  return PyMesh{std::move(mesh), std::move(name)};
}

std::string meshRepr(const PyMesh& m) {
  std::string out = "Mesh({";
  for (size_t i = 0; i < m.mesh.axes.size(); ++i) {
    if (i) out += ", ";
    out +=
        "'" + m.mesh.axes[i].name + "': " + std::to_string(m.mesh.axes[i].size);
  }
  out += "}";
  if (!m.mesh.device_ids.empty() && !m.mesh.hasIotaDeviceIds()) {
    out += ", device_ids=[";
    for (size_t i = 0; i < m.mesh.device_ids.size(); ++i)
      out += (i ? ", " : "") + std::to_string(m.mesh.device_ids[i]);
    out += "]";
  }
  if (m.name != "mesh") out += ", name='" + m.name + "'";
  return out + ")";
}

bool meshEqual(const PyMesh& a, const PyMesh& b) {
  return a.name == b.name && a.mesh.sameDevicesAndAxes(b.mesh);
}

size_t meshHash(const PyMesh& m) {
  // Consistent with meshEqual: an explicit iota hashes as no device list.
  std::vector<int64_t> ids;
  if (!m.mesh.hasIotaDeviceIds()) ids = m.mesh.device_ids;
  return absl::HashOf(m.name, m.mesh.axes, ids);
}

}  // namespace

void bindMesh(nb::module_& m) {
  nb::class_<PyMesh>(m, "Mesh",
                     "A named mesh of devices: axes with sizes, and the "
                     "device order (iota by default).")
      .def(
          "__init__",
          [](PyMesh* self, nb::handle axes,
             std::optional<std::vector<int64_t>> device_ids, std::string name) {
            new (self) PyMesh(makeMesh(
                Mesh(axesOf(axes), device_ids.value_or(std::vector<int64_t>{})),
                std::move(name)));
          },
          nb::arg("axes"), nb::kw_only(), nb::arg("device_ids") = nb::none(),
          nb::arg("name") = "mesh",
          "Mesh({'data': 4, 'model': 2}) or Mesh([('x', 2)]); the mesh is "
          "verified (positive sizes, distinct names, device ids a "
          "permutation).")
      .def_static(
          "parse",
          [](std::string_view text, std::string name) {
            return makeMesh(valueOrThrow(parseMesh(text)), std::move(name));
          },
          nb::arg("text"), nb::arg("name") = "mesh",
          "Reads `#sdy.mesh<[\"x\"=2]>` or `<[\"x\"=2], device_ids=[1, 0]>`.")
      .def_prop_ro(
          "name", [](const PyMesh& m) { return m.name; },
          "The symbol shardings use for this mesh (`@mesh`).")
      .def_prop_ro(
          "axis_names",
          [](const PyMesh& m) {
            nb::list out;
            for (const MeshAxis& a : m.mesh.axes) out.append(a.name);
            return nb::tuple(out);
          },
          "The axis names, in mesh order.")
      .def_prop_ro(
          "shape",
          [](const PyMesh& m) {
            nb::dict out;
            for (const MeshAxis& a : m.mesh.axes) out[a.name.c_str()] = a.size;
            return out;
          },
          "{axis name: size}, in mesh order.")
      .def_prop_ro(
          "size", [](const PyMesh& m) { return m.mesh.totalSize(); },
          "The number of devices.")
      .def_prop_ro(
          "device_ids",
          [](const PyMesh& m) {
            return nb::tuple(nb::cast(m.mesh.deviceIdsOrIota()));
          },
          "The device ids in mesh order (iota when none were given).")
      .def(
          "axis_size",
          [](const PyMesh& m, std::string_view name) {
            if (!m.mesh.hasAxis(name))
              throwError("the mesh has no axis '" + std::string(name) + "'");
            return m.mesh.axisSize(name);
          },
          nb::arg("name"), "The size of axis `name`.")
      .def(
          "with_name",
          [](const PyMesh& m, std::string name) {
            return makeMesh(m.mesh, std::move(name));
          },
          nb::arg("name"), "The same mesh under another symbol name.")
      .def(
          "__str__",
          [](const PyMesh& m) { return "#sdy.mesh" + toString(m.mesh); },
          "`#sdy.mesh<[\"data\"=4, \"model\"=2]>`.")
      .def("__repr__", &meshRepr)
      .def("__eq__", &meshEqual, nb::is_operator())
      .def("__hash__", &meshHash)
      .def("__len__", [](const PyMesh& m) { return m.mesh.axes.size(); });
}

}  // namespace shardkit::python
