// Internal to the mpmd layer: what the mesh inference passes share beyond the
// analysis (infer_mesh_util.h): choosing meshes, creating assigns, and the
// error limit of the validating passes.
#ifndef SHARDKIT_SRC_MPMD_INFER_PASS_UTIL_H_
#define SHARDKIT_SRC_MPMD_INFER_PASS_UTIL_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "shardkit/dialect/mpmd/mpmd_attrs.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/passes/pass.h"
#include "src/mpmd/mesh_set.h"

namespace shardkit::mpmd::mpmd_internal {

// The first mesh of `topology` in name order (meshNameLess).
std::string firstMesh(const Topology& topology);

// A mesh operand `operand` of `user` can be assigned to: one of its source
// set, preferably in `preferred`; `preferred`'s (or `first`) when its source
// set is unspecified; none when its source set is empty.
std::optional<std::string> meshForAssignment(Op user, unsigned operand,
                                             std::string_view first,
                                             const MeshSet& preferred);

// Creates, before `anchor`, an assign of `value` to `mesh` (fully
// replicated) with `origin` (none when empty); returns its result.
Value createAssign(Op anchor, Value value, std::string_view mesh,
                   std::string_view origin = "");

// The errors of a pass with an `error-limit` option (default 5, -1: no
// limit): each is reported, and the pass fails once the limit is reached.
class ErrorBudget {
 public:
  static absl::StatusOr<ErrorBudget> fromOptions(const PassOptions& options);

  void add(Op op, std::string_view message);
  // Counts an error reported through another one (a later op of the same
  // chain), without a message of its own.
  void addUnreported() { ++unreported_; }
  bool exhausted() const { return limit_ > 0 && count() >= limit_; }
  int count() const { return static_cast<int>(errors_.size()) + unreported_; }
  // The failure carrying every error so far.
  absl::Status failure() const;
  // Reports the errors so far without failing.
  void emitRemaining();

 private:
  explicit ErrorBudget(int limit) : limit_(limit) {}
  int limit_;
  std::vector<Diagnostic> errors_;
  int unreported_ = 0;
};

}  // namespace shardkit::mpmd::mpmd_internal

#endif  // SHARDKIT_SRC_MPMD_INFER_PASS_UTIL_H_
