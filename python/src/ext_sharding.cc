// shardkit.TensorSharding over shardkit::TensorSharding: text, the
// PartitionSpec-like tuples JAX users write, local shapes and GSPMD.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <algorithm>

#include "absl/hash/hash.h"
#include "ext_bindings.h"
#include "ext_status.h"
#include "ext_types.h"
#include "shardkit/core/verify_sharding.h"
#include "shardkit/partition/local_shape.h"
#include "shardkit/text/hlo_sharding.h"
#include "shardkit/text/parse.h"

namespace nb = nanobind;

namespace shardkit::python {

std::string axisSpelling(const AxisRef& axis) {
  if (!axis.sub_axis_info) return axis.name;
  return axis.name + ":(" + std::to_string(axis.sub_axis_info->pre_size) + ")" +
         std::to_string(axis.sub_axis_info->size);
}

AxisRef axisFromSpelling(std::string_view text) {
  size_t colon = text.rfind(":(");
  if (colon == std::string_view::npos) return AxisRef(std::string(text));
  size_t close = text.find(')', colon);
  std::string_view pre = text.substr(colon + 2, close - colon - 2);
  std::string_view size =
      close == std::string_view::npos ? "" : text.substr(close + 1);
  auto number = [&](std::string_view digits) -> int64_t {
    if (digits.empty() || digits.size() > 18 ||
        !std::all_of(digits.begin(), digits.end(),
                     [](char c) { return c >= '0' && c <= '9'; }))
      throwError("bad sub-axis '" + std::string(text) +
                 "': expected NAME:(PRE_SIZE)SIZE");
    return std::stoll(std::string(digits));
  };
  return AxisRef(std::string(text.substr(0, colon)), number(pre), number(size));
}

namespace {

AxisRefVector axesOfEntry(nb::handle entry) {
  AxisRefVector axes;
  if (entry.is_none()) return axes;
  if (nb::isinstance<nb::str>(entry)) {
    axes.push_back(axisFromSpelling(nb::cast<std::string>(entry)));
    return axes;
  }
  if (!nb::isinstance<nb::tuple>(entry) && !nb::isinstance<nb::list>(entry) &&
      !nb::isinstance<nb::set>(entry) && !nb::isinstance<nb::frozenset>(entry))
    throwError(
        "a dimension of a spec is None, an axis name or a tuple of "
        "axis names, got " +
        nb::cast<std::string>(nb::repr(entry)));
  for (nb::handle name : nb::iter(entry)) {
    if (!nb::isinstance<nb::str>(name))
      throwError(
          "a dimension of a spec is None, an axis name or a tuple of "
          "axis names, got " +
          nb::cast<std::string>(nb::repr(entry)));
    axes.push_back(axisFromSpelling(nb::cast<std::string>(name)));
  }
  return axes;
}

AxisRefVector axisList(nb::handle names, const Mesh& mesh) {
  AxisRefVector axes = axesOfEntry(names);
  std::sort(axes.begin(), axes.end(), MeshAxisLess(mesh));
  return axes;
}

// A shape of `rank` ones: verification without divisibility checks needs
// only the rank.
std::vector<int64_t> onesOfRank(int64_t rank) {
  return std::vector<int64_t>(rank, 1);
}

PySharding fromSpec(const PyMesh& mesh, nb::handle spec, nb::handle unreduced,
                    nb::handle replicated, bool open) {
  if (nb::isinstance<nb::str>(spec))
    throwError(
        "a spec is a tuple with one entry per dimension, e.g. "
        "('data', None); to read sharding text use "
        "TensorSharding.parse");
  std::vector<DimensionSharding> dims;
  for (nb::handle entry : nb::iter(spec))
    dims.emplace_back(axesOfEntry(entry), /*is_closed=*/!open);
  TensorSharding sharding(MeshOrRef::ref(mesh.name), std::move(dims),
                          axisList(replicated, mesh.mesh),
                          axisList(unreduced, mesh.mesh));
  throwIfError(verifyTensorShardingWithMesh(sharding, mesh.mesh,
                                            onesOfRank(sharding.rank())));
  return PySharding{std::move(sharding), mesh.mesh};
}

nb::tuple toSpec(const PySharding& s) {
  nb::list dims;
  for (const DimensionSharding& dim : s.sharding.dim_shardings) {
    if (dim.axes.empty()) {
      dims.append(nb::none());
    } else if (dim.axes.size() == 1) {
      dims.append(axisSpelling(dim.axes[0]));
    } else {
      nb::list axes;
      for (const AxisRef& a : dim.axes) axes.append(axisSpelling(a));
      dims.append(nb::tuple(axes));
    }
  }
  return nb::tuple(dims);
}

nb::tuple spellings(const AxisRefVector& axes) {
  nb::list out;
  for (const AxisRef& a : axes) out.append(axisSpelling(a));
  return nb::tuple(out);
}

const Mesh& meshFor(const PySharding& s, const PyMesh* mesh) {
  if (mesh) return mesh->mesh;
  if (s.mesh) return *s.mesh;
  if (const Mesh* inline_mesh = s.sharding.mesh.inlineMesh())
    return *inline_mesh;
  throwError("this sharding names mesh @" + std::string(s.sharding.meshName()) +
             " but carries no mesh: pass mesh=");
}

std::vector<int64_t> shardShape(const PySharding& s,
                                const std::vector<int64_t>& shape,
                                const PyMesh* mesh) {
  const Mesh& m = meshFor(s, mesh);
  ShardingVerifyOptions options;
  options.check_divisibility = true;
  throwIfError(verifyTensorShardingWithMesh(s.sharding, m, shape, options));
  std::optional<std::vector<int64_t>> local =
      partition::localShape(shape, s.sharding, m);
  if (!local) throwError("the sharding does not divide this shape");
  return *local;
}

PySharding fromHlo(std::string_view hlo, const PyMesh& mesh, int64_t rank) {
  HloSharding parsed = valueOrThrow(parseHloSharding(hlo));
  TensorSharding sharding = valueOrThrow(
      fromHloSharding(parsed, mesh.mesh, MeshOrRef::ref(mesh.name), rank));
  return PySharding{std::move(sharding), mesh.mesh};
}

std::string dimRepr(const PySharding& s) {
  return "TensorSharding('" + toAttrString(s.sharding) + "')";
}

}  // namespace

void bindTensorSharding(nb::module_& m) {
  nb::class_<PySharding>(m, "TensorSharding",
                         "How a tensor is split over a mesh's axes: per "
                         "dimension the axes that shard it (major first), "
                         "and the replicated and unreduced axes.")
      .def_static(
          "parse",
          [](std::string_view text) {
            return PySharding{valueOrThrow(parseTensorSharding(text)), {}};
          },
          nb::arg("text"),
          "Reads `#sdy.sharding<@mesh, [{\"x\"}, {}]>` or `<@mesh, ...>` "
          "(syntax only; see verify).")
      .def_static("from_spec", &fromSpec, nb::arg("mesh"), nb::arg("spec"),
                  nb::kw_only(), nb::arg("unreduced") = nb::tuple(),
                  nb::arg("replicated") = nb::tuple(), nb::arg("open") = false,
                  "A sharding from a PartitionSpec-like tuple: one entry per "
                  "dimension, None (replicated), an axis name, or a tuple of "
                  "names (major first); sub-axes as 'x:(2)4'. Closed "
                  "dimensions unless open=True.")
      .def_static("from_hlo", &fromHlo, nb::arg("hlo"), nb::arg("mesh"),
                  nb::arg("rank"),
                  "The sharding an XLA HloSharding text "
                  "(`{devices=[4,1]<=[4]}`) gives a rank-`rank` tensor on "
                  "`mesh`.")
      .def("to_spec", &toSpec,
           "The PartitionSpec-like tuple: None, 'x' or ('x', 'y') per "
           "dimension.")
      .def(
          "to_hlo",
          [](const PySharding& s, const PyMesh* mesh) {
            return toString(
                valueOrThrow(toHloSharding(s.sharding, meshFor(s, mesh))));
          },
          nb::arg("mesh") = nb::none(),
          "The XLA HloSharding text of this sharding.")
      .def("shard_shape", &shardShape, nb::arg("global_shape"),
           nb::arg("mesh") = nb::none(),
           "The shape each device holds of a tensor of `global_shape`; an "
           "Error when a dimension is not divisible.")
      .def(
          "verify",
          [](const PySharding& s, const std::vector<int64_t>& shape,
             const PyMesh* mesh, bool check_divisibility) {
            ShardingVerifyOptions options;
            options.check_divisibility = check_divisibility;
            throwIfError(verifyTensorShardingWithMesh(
                s.sharding, meshFor(s, mesh), shape, options));
          },
          nb::arg("shape"), nb::arg("mesh") = nb::none(),
          nb::arg("check_divisibility") = true,
          "Raises Error unless the sharding fits a tensor of `shape` on the "
          "mesh.")
      .def_prop_ro(
          "mesh_name",
          [](const PySharding& s) {
            return std::string(s.sharding.meshName());
          },
          "The mesh symbol (`mesh` for `@mesh`); '' for an inline mesh.")
      .def_prop_ro(
          "rank", [](const PySharding& s) { return s.sharding.rank(); },
          "The number of dimensions.")
      .def_prop_ro(
          "dims",
          [](const PySharding& s) {
            nb::list out;
            for (const DimensionSharding& d : s.sharding.dim_shardings)
              out.append(spellings(d.axes));
            return nb::tuple(out);
          },
          "Per dimension, the tuple of its axes.")
      .def_prop_ro(
          "open_dims",
          [](const PySharding& s) {
            nb::list out;
            for (size_t i = 0; i < s.sharding.dim_shardings.size(); ++i)
              if (s.sharding.dim_shardings[i].isOpen()) out.append(i);
            return nb::tuple(out);
          },
          "The indices of the open (`?`) dimensions.")
      .def_prop_ro(
          "replicated",
          [](const PySharding& s) {
            return spellings(s.sharding.replicated_axes);
          },
          "The explicitly replicated axes.")
      .def_prop_ro(
          "unreduced",
          [](const PySharding& s) {
            return spellings(s.sharding.unreduced_axes);
          },
          "The unreduced axes (partial sums, like DTensor's Partial).")
      .def_prop_ro(
          "unreduced_kind",
          [](const PySharding& s) {
            return std::string(toString(s.sharding.unreduced_kind));
          },
          "How the unreduced axes combine: 'sum', 'max' or 'min'.")
      .def_prop_ro(
          "is_replicated",
          [](const PySharding& s) { return s.sharding.isFullyReplicated(); },
          "True when no dimension is sharded and no axis is explicit.")
      .def_prop_ro(
          "mesh",
          [](const PySharding& s) -> std::optional<PyMesh> {
            if (!s.mesh) return std::nullopt;
            return PyMesh{*s.mesh, std::string(s.sharding.meshName())};
          },
          "The mesh it was made on, when known, else None.")
      .def(
          "__str__",
          [](const PySharding& s) { return toAttrString(s.sharding); },
          "`#sdy.sharding<@mesh, [{\"x\"}, {}]>`.")
      .def("__repr__", &dimRepr)
      .def(
          "__eq__",
          [](const PySharding& a, const PySharding& b) {
            return a.sharding == b.sharding;
          },
          nb::is_operator())
      .def("__hash__",
           [](const PySharding& s) { return absl::HashOf(s.sharding); });
}

}  // namespace shardkit::python
