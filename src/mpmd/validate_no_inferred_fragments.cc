// -mpmd-validate-no-inferred-fragments{fail-on-inferred-fragments}: fragments
// that mesh inference or a later pass created (no user origins) should have
// been merged into user fragments by now. Each is reported with the passes
// in its `mpmd.inferred_by`: a warning, or an error with the option, except
// that fragments of `uniquify`, `infer_mesh_wrap_meshless_ops` and
// `extract_reshards` are still only warned about (they are known to survive).
// An inferred fragment without `mpmd.inferred_by` is an error.
#include <string>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/export_passes.h"
#include "shardkit/support/status_macros.h"
#include "src/mpmd/export_utils.h"

namespace shardkit::mpmd {
namespace {

bool isTolerated(std::string_view pass) {
  return pass == "uniquify" || pass == "infer_mesh_wrap_meshless_ops" ||
         pass == "extract_reshards";
}

void check(Op fragment, bool fail, mpmd_internal::ErrorCollector& errors) {
  if (FragmentOp(fragment).isUserFragment()) return;
  const std::vector<Attribute>* passes =
      fragment.attr(kInferredByAttr).asArray();
  if (passes == nullptr || passes->empty()) {
    errors.add(fragment, "Internal error: inferred fragment missing '" +
                             std::string(kInferredByAttr) + "' attribute");
    return;
  }
  std::string message = "Inferred fragment has not been merged (inferred by ";
  bool tolerated = false;
  for (size_t i = 0; i < passes->size(); ++i) {
    const std::string* pass = (*passes)[i].asString();
    std::string name = pass ? *pass : "";
    if (i > 0) message += ", ";
    message += name;
    tolerated = tolerated || isTolerated(name);
  }
  mpmd_internal::reportAt(fragment, message + ")", fail && !tolerated, errors);
}

}  // namespace

absl::Status validateNoInferredFragments(Module& module,
                                         const PassOptions& options) {
  SK_ASSIGN_OR_RETURN(bool fail,
                      options.getBool("fail-on-inferred-fragments", true));
  mpmd_internal::ErrorCollector errors;
  for (FuncOp func : functionDefinitions(module)) {
    auto visit = [&](Op op) {
      if (isa<FragmentOp>(op)) check(op, fail, errors);
    };
    Module::walkBlock(func.body(), visit);
  }
  return errors.status();
}

}  // namespace shardkit::mpmd
