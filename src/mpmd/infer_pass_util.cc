// Shared pieces of the mesh inference passes.
#include "src/mpmd/infer_pass_util.h"

#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/support/status_macros.h"
#include "src/mpmd/infer_mesh_util.h"
#include "src/mpmd/ir_utils.h"

namespace shardkit::mpmd::mpmd_internal {

std::string firstMesh(const Topology& topology) {
  std::string first;
  for (const NamedMesh& mesh : topology.meshes) {
    if (first.empty() || meshNameLess(mesh.name, first)) first = mesh.name;
  }
  return first;
}

std::optional<std::string> meshForAssignment(Op user, unsigned operand,
                                             std::string_view first,
                                             const MeshSet& preferred) {
  MeshSet src = srcSetOfOperand(user, operand);
  if (src.empty()) return std::nullopt;
  if (!src.specified()) {
    return preferred.prioritizedMesh().value_or(std::string(first));
  }
  return src.prioritizedMesh(preferred.meshNames());
}

Value createAssign(Op anchor, Value value, std::string_view mesh,
                   std::string_view origin) {
  OperationState state =
      AssignOp::build(value,
                      MeshTensorType::fullyReplicated(mesh, value.type())
                          .toType(anchor.module()->types()),
                      origin);
  return createBefore(anchor, state).result(0);
}

absl::StatusOr<ErrorBudget> ErrorBudget::fromOptions(
    const PassOptions& options) {
  SK_ASSIGN_OR_RETURN(int64_t limit, options.getInt("error-limit", 5));
  if (limit == 0 || limit < -1) {
    return absl::InvalidArgumentError(
        "error-limit must be positive or -1 (no limit), not 0");
  }
  return ErrorBudget(static_cast<int>(limit));
}

void ErrorBudget::add(Op op, std::string_view message) {
  for (Diagnostic& d : diagnosticsOf(locatedError(op, message)))
    errors_.push_back(std::move(d));
}

absl::Status ErrorBudget::failure() const {
  return errors_.empty() ? absl::InvalidArgumentError("mesh inference failed")
                         : diagnosticStatus(errors_);
}

void ErrorBudget::emitRemaining() {
  if (!errors_.empty()) emitNonFatal(diagnosticStatus(errors_));
  errors_.clear();
  unreported_ = 0;
}

}  // namespace shardkit::mpmd::mpmd_internal
