// Internal to the mpmd layer: the assignment options of the import passes.
//
//   assignment=NAME@MESH[/STAGE],...   names of computations and tensors to
//                                      meshes (MESH may carry `#memory_kind`)
//   input-assignment=INDEX@MESH,...    function inputs / outputs to meshes
#ifndef SHARDKIT_SRC_MPMD_ASSIGNMENT_OPTIONS_H_
#define SHARDKIT_SRC_MPMD_ASSIGNMENT_OPTIONS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/statusor.h"

namespace shardkit::mpmd::mpmd_internal {

struct MeshStage {
  std::string mesh;
  std::optional<int64_t> stage;
  friend bool operator==(const MeshStage&, const MeshStage&) = default;
};

using UserAssignment = std::map<std::string, MeshStage, std::less<>>;
using IndexedAssignment = std::map<int64_t, std::string>;

// Parses `n0@m0,n1@m1/1` (a trailing comma is allowed); errors name the
// option `option`.
absl::StatusOr<UserAssignment> parseUserAssignment(std::string_view text,
                                                   std::string_view option);
// Parses `0@m0,1@m1`.
absl::StatusOr<IndexedAssignment> parseIndexedAssignment(
    std::string_view text, std::string_view option);

// `mesh#memory_kind` split into the mesh and the memory kind (if any).
std::pair<std::string, std::optional<std::string>> splitMemoryKind(
    std::string_view mesh);

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_ASSIGNMENT_OPTIONS_H_
