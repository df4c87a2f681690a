// -mpmd-validate-no-backward-deps{fail-on-backward-deps}: a program without
// transposed (backward) fragments is a forward-only pipeline, whose values
// should flow from earlier meshes (in mesh-name order) to later ones. A
// fragment call that consumes, directly or through transfers, the result of
// a fragment call on a later mesh is reported: a warning, or an error with
// fail-on-backward-deps. With that option, a program that is not
// forward-only is itself an error (the check does not apply to it).
#include <string>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/module.h"
#include "shardkit/ir/walk.h"
#include "shardkit/mpmd/export_passes.h"
#include "shardkit/support/status_macros.h"
#include "src/mpmd/export_utils.h"

namespace shardkit::mpmd {
namespace {

std::vector<UserOrigin> originsOf(Op call) {
  std::vector<UserOrigin> origins;
  if (const std::vector<Attribute>* list = call.attr(kOriginAttr).asArray()) {
    for (const Attribute& a : *list) {
      if (std::optional<UserOrigin> o = userOriginOf(a)) origins.push_back(*o);
    }
  }
  return origins;
}

bool isForwardOnly(FuncOp func) {
  bool forward = true;
  auto visit = [&](Op op) {
    if (!isa<FragmentCallOp>(op)) return;
    for (const UserOrigin& origin : originsOf(op)) {
      if (origin.transpose_count != 0) forward = false;
    }
  };
  Module::walkBlock(func.body(), visit);
  return forward;
}

// The fragment call that produced `value`, looking through transfers.
Op producerCall(Value value) {
  while (value && !value.isBlockArgument()) {
    Op op = value.definingOp();
    if (isa<FragmentCallOp>(op)) return op;
    if (!isa<TransferOp>(op)) return Op();
    value = op.operand(0);
  }
  return Op();
}

std::string describe(Op call) {
  FragmentCallOp handle(call);
  return "fragment \"" + std::string(handle.callee()) + "\" mesh=\"" +
         std::string(handle.meshName()) + "\"";
}

void checkFunction(FuncOp func, bool fail,
                   mpmd_internal::ErrorCollector& errors) {
  if (!isForwardOnly(func)) {
    if (fail) {
      errors.add(func,
                 "Expected forward-only program but found non-forward "
                 "fragments.");
    }
    return;
  }
  auto visit = [&](Op consumer) {
    if (!isa<FragmentCallOp>(consumer)) return;
    for (Value operand : consumer.operands()) {
      Op producer = producerCall(operand);
      if (!producer || !meshNameLess(FragmentCallOp(consumer).meshName(),
                                     FragmentCallOp(producer).meshName())) {
        continue;
      }
      mpmd_internal::reportAt(
          consumer,
          "Detected backward dependency but expected forward-only pipeline "
          "since there are no transpose fragments: " +
              describe(producer) + " produces a value consumed by " +
              describe(consumer) +
              ". In a forward-only pipeline, dependencies must go from "
              "earlier meshes to later meshes.",
          fail, errors);
    }
  };
  Module::walkBlock(func.body(), visit);
}

}  // namespace

absl::Status validateNoBackwardDeps(Module& module,
                                    const PassOptions& options) {
  SK_ASSIGN_OR_RETURN(bool fail,
                      options.getBool("fail-on-backward-deps", false));
  mpmd_internal::ErrorCollector errors;
  for (FuncOp func : mpmdFunctions(module)) {
    if (func.body()) checkFunction(func, fail, errors);
  }
  return errors.status();
}

}  // namespace shardkit::mpmd
