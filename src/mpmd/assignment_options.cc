// The assignment options of the import passes.
#include "src/mpmd/assignment_options.h"

#include <vector>

#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/scanner.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

absl::Status optionError(std::string_view option, std::string_view message) {
  return absl::InvalidArgumentError(
      toAbsl(strCat("invalid '", option, "' option: ", message)));
}

// The comma-separated entries of `text`, trimmed, without empty ones.
std::vector<std::string_view> entries(std::string_view text) {
  std::vector<std::string_view> result;
  while (!text.empty()) {
    size_t comma = text.find(',');
    std::string_view entry = trimSpaces(text.substr(0, comma));
    if (!entry.empty()) result.push_back(entry);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return result;
}

// Calls `fn(name, target, entry)` for each entry `name@target` of `text`,
// in order, until one fails; an entry without '@' is an error that says the
// option assigns names to `target_kind` (`a mesh`).
template <typename Fn>
absl::Status forEachAssignment(std::string_view text, std::string_view option,
                               std::string_view target_kind, Fn&& fn) {
  for (std::string_view entry : entries(text)) {
    size_t at = entry.find('@');
    if (at == std::string_view::npos) {
      return optionError(option, strCat("Assignment must contain '@' denoting "
                                        "a name assigned to ",
                                        target_kind, ", got: ", entry));
    }
    SK_RETURN_IF_ERROR(fn(entry.substr(0, at), entry.substr(at + 1), entry));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<UserAssignment> parseUserAssignment(std::string_view text,
                                                   std::string_view option) {
  UserAssignment assignment;
  SK_RETURN_IF_ERROR(forEachAssignment(
      text, option, "a mesh (and stage)",
      [&](std::string_view name, std::string_view target,
          std::string_view entry) -> absl::Status {
        MeshStage mesh_stage;
        size_t slash = target.find('/');
        mesh_stage.mesh = std::string(target.substr(0, slash));
        // The reference lets empty names through to fail later (or never);
        // an empty side of '@' is a typo, so it is reported here.
        if (name.empty() || mesh_stage.mesh.empty()) {
          return optionError(option,
                             strCat("Assignment needs a name before '@' and a "
                                    "mesh after it, got: ",
                                    entry));
        }
        if (slash != std::string_view::npos) {
          int64_t stage = 0;
          std::string_view stage_text = target.substr(slash + 1);
          if (!parseInt64(stage_text, stage)) {
            return optionError(
                option, strCat("Failed to parse stage number: ", stage_text));
          }
          mesh_stage.stage = stage;
        }
        assignment[std::string(name)] = std::move(mesh_stage);
        return absl::OkStatus();
      }));
  return assignment;
}

absl::StatusOr<IndexedAssignment> parseIndexedAssignment(
    std::string_view text, std::string_view option) {
  IndexedAssignment assignment;
  SK_RETURN_IF_ERROR(forEachAssignment(
      text, option, "a mesh",
      [&](std::string_view name, std::string_view target,
          std::string_view entry) -> absl::Status {
        if (target.empty()) {
          return optionError(
              option,
              strCat("Assignment needs a mesh after '@', got: ", entry));
        }
        int64_t index = 0;
        if (!parseInt64(name, index) || index < 0) {
          return optionError(option, strCat("Failed to parse index: ", name));
        }
        assignment[index] = std::string(target);
        return absl::OkStatus();
      }));
  return assignment;
}

std::pair<std::string, std::optional<std::string>> splitMemoryKind(
    std::string_view mesh) {
  size_t hash = mesh.find('#');
  if (hash == std::string_view::npos || hash + 1 == mesh.size()) {
    return {std::string(mesh.substr(0, hash)), std::nullopt};
  }
  return {std::string(mesh.substr(0, hash)),
          std::string(mesh.substr(hash + 1))};
}

}  // namespace shardkit::mpmd::mpmd_internal
