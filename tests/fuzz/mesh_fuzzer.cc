// libFuzzer target for mesh text: the sdy form `<["a"=2, "b"=4],
// device_ids=[...]>` (byte 0 even) and the axes of a `#stablehlo.mesh`
// (byte 0 odd). What parses must print back to the same mesh; a mesh that
// verifies must answer the questions passes ask (axis lookups, device
// order, size) without overflow or huge allocations, and its StableHLO form
// must read back to the same axes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "shardkit/core/verify.h"
#include "shardkit/text/parse.h"
#include "shardkit/text/stablehlo_attr_text.h"
#include "tests/fuzz/fuzz_util.h"

namespace shardkit {
namespace {

void checkVerifiedMesh(const Mesh& mesh, std::string_view input) {
  for (size_t i = 0; i < mesh.axes.size(); ++i) {
    if (mesh.axisIndex(mesh.axes[i].name) != static_cast<int>(i)) {
      fuzz::fail("axisIndex does not find a verified mesh's axis", input,
                 mesh.axes[i].name);
    }
  }
  // A name no axis has (an axis may be called anything, this one too).
  std::string absent = "\x01not an axis";
  while (
      std::any_of(mesh.axes.begin(), mesh.axes.end(),
                  [&](const MeshAxis& axis) { return axis.name == absent; })) {
    absent += "'";
  }
  if (mesh.axisIndex(absent) != -1) {
    fuzz::fail("axisIndex finds an axis that is not there", input);
  }
  if (!mesh.sameDeviceOrder(mesh) || !mesh.sameDevicesAndAxes(mesh)) {
    fuzz::fail("a mesh differs from itself", input);
  }
  Mesh copy = mesh;
  if (!(copy == mesh) ||
      copy.axisIndex(mesh.axes.empty() ? "" : mesh.axes[0].name) !=
          (mesh.axes.empty() ? -1 : 0)) {
    fuzz::fail("a copy of a mesh differs", input);
  }
  (void)mesh.hasIotaDeviceIds();
  if (mesh.totalSize() <= (int64_t{1} << 12)) {
    std::vector<int64_t> ids = mesh.deviceIdsOrIota();
    if (static_cast<int64_t>(ids.size()) != mesh.totalSize() &&
        !mesh.isMaximal()) {
      fuzz::fail("device list and size disagree", input);
    }
  }
  std::string stablehlo = printStablehloMesh(mesh);
  absl::StatusOr<Mesh> back = parseStablehloMeshAxes(stablehlo);
  if (!back.ok() || back->axes != mesh.axes) {
    fuzz::fail("the StableHLO form does not read back", input, stablehlo);
  }
}

void fuzzSdyMesh(std::string_view text, std::string_view input) {
  absl::StatusOr<Mesh> mesh = parseMesh(text);
  if (!mesh.ok()) {
    if (!fuzz::isLocated(fromAbsl(mesh.status().message()), "", false)) {
      fuzz::fail("mesh error without a location", input,
                 fromAbsl(mesh.status().message()));
    }
    return;
  }
  std::string printed = toString(*mesh);
  absl::StatusOr<Mesh> again = parseMesh(printed);
  if (!again.ok() || !(*again == *mesh) || toString(*again) != printed) {
    fuzz::fail("mesh does not print back", input, printed);
  }
  if (verifyMesh(*mesh).ok()) checkVerifiedMesh(*mesh, input);
}

void fuzzStablehloMesh(std::string_view text, std::string_view input) {
  absl::StatusOr<Mesh> mesh = parseStablehloMeshAxes(text);
  if (!mesh.ok()) return;
  if (verifyMesh(*mesh).ok()) checkVerifiedMesh(*mesh, input);
}

}  // namespace
}  // namespace shardkit

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return shardkit::fuzz::runOneOf(data, size, shardkit::fuzzSdyMesh,
                                  shardkit::fuzzStablehloMesh);
}
