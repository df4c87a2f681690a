// -sdy-import-func-calls: every call becomes an sdy.named_computation holding
// its callee's body.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/clone.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/passes/call_passes.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/passes/call_graph_util.h"
#include "src/passes/import/data_flow_edges.h"

namespace shardkit {
namespace {

// The name a copy of a function goes by: the function it copies.
std::string originalName(FuncOp func) {
  const std::string* original = func->attr(kOriginalFuncNameAttr).asString();
  return original ? *original : std::string(func.name());
}

// An empty named computation in place of `call` (before it): the call's
// operands, result types, location and discardable attributes but its
// sharding, which becomes the out_shardings; the in_shardings are the
// callee's argument shardings.
Op namedComputationFor(Module& module, Op call, FuncOp callee,
                       const MeshTable& meshes) {
  OperationState state(sdy::NamedComputationOp::opName());
  state.operands = call.operands();
  state.result_types = call.resultTypes();
  state.location = call.location();
  state.num_regions = 1;
  state.addAttr("name", Attribute::string(originalName(callee)));
  if (std::optional<TensorShardingPerValue> in =
          funcArgShardings(callee, meshes)) {
    state.addAttr("in_shardings", Attribute::of(*in));
  }
  if (Attribute out = call.discardableAttrs().get(kShardingAttr)) {
    state.addAttr("out_shardings", std::move(out));
  }
  std::vector<NamedAttribute> attrs;
  for (const NamedAttribute& a : call.discardableAttrs()) {
    if (a.name != kShardingAttr) attrs.push_back(a);
  }
  // A dictionary prints sorted, as MLIR keeps it.
  std::sort(attrs.begin(), attrs.end(),
            [](const NamedAttribute& a, const NamedAttribute& b) {
              return a.name < b.name;
            });
  for (NamedAttribute& a : attrs) {
    state.discardable_attrs.set(a.name, std::move(a.value));
  }
  Op computation = module.createOp(state);
  call.parentBlock().insertBefore(call, computation);
  return computation;
}

// Moves the body of `func` into the empty `region`, its `func.return`
// becoming an `sdy.return`.
void moveBody(Module& module, FuncOp func, Region region) {
  Block body = func.body();
  Block entry = region.addBlock();
  for (unsigned i = 0; i < body.numArguments(); ++i) {
    body.argument(i).replaceAllUsesWith(
        entry.addArgument(body.argument(i).type()));
  }
  for (Op op : body.ops()) {
    if (!isa<func::ReturnOp>(op)) {
      entry.pushBack(op);
      continue;
    }
    OperationState ret(sdy::ReturnOp::opName());
    ret.operands = op.operands();
    ret.location = op.location();
    entry.pushBack(module.createOp(ret));
    op.erase();
  }
}

absl::Status checkImportable(Op call, FuncOp callee) {
  if (callee.isDeclaration()) {
    return opError(call, strCat("cannot import a call to @", callee.name(),
                                ", a function without a body"));
  }
  if (callee->region(0).numBlocks() != 1) {
    return opError(call, strCat("cannot import a call to @", callee.name(),
                                ", whose body has more than one block"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status importFuncCalls(Module& module,
                             const ImportFuncCallsOptions& options) {
  SK_ASSIGN_OR_RETURN(CallGraph calls,
                      passes_internal::acyclicCallGraph(module));
  SK_RETURN_IF_ERROR(passes_internal::checkInlinedSize(
      calls, "-sdy-import-func-calls", /*nested=*/true));
  MeshTable meshes = module.meshTable();
  std::vector<FuncOp> order = calls.callersFirst();
  for (FuncOp func : order) {
    for (Op call : calls.callsIn(func)) {
      SK_RETURN_IF_ERROR(checkImportable(call, calls.calleeOf(call)));
    }
  }
  // Callees first: the body a call takes has no calls left in it. The first
  // call of a function takes its body, later ones a copy of that computation.
  absl::flat_hash_map<uint32_t, Op> first_import;  // callee id -> computation
  std::vector<FuncOp> imported;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    for (Op call : calls.callsIn(*it)) {
      FuncOp callee = calls.calleeOf(call);
      Op computation = namedComputationFor(module, call, callee, meshes);
      auto [first, inserted] =
          first_import.try_emplace(callee->id(), computation);
      if (inserted) {
        moveBody(module, callee, computation.region(0));
        imported.push_back(callee);
      } else {
        ValueMap map;
        cloneRegionInto(first->second.region(0), computation.region(0), map);
      }
      for (unsigned i = 0; i < call.numResults(); ++i) {
        call.result(i).replaceAllUsesWith(computation.result(i));
      }
      call.erase();
      if (options.add_data_flow_edges_on_named_computations) {
        passes_internal::addDataFlowEdgesOf(module, computation);
      }
    }
  }
  for (FuncOp callee : imported) callee->erase();
  return absl::OkStatus();
}

}  // namespace shardkit
