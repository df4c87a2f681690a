// -sdy-export-named-computations: every sdy.named_computation becomes a call
// of a private function made of its body (its data-flow edges, if any, sunk
// first).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/ir/walk.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/pass.h"
#include "src/passes/pass_list.h"
#include "src/passes/symbol_namer.h"

namespace shardkit {
namespace {

using passes_internal::SymbolNamer;

// Moves the body of `computation` into a new private function at the end of
// the module and returns it.
FuncOp outline(Module& module, sdy::NamedComputationOp computation,
               SymbolNamer& namer) {
  Block body = computation.body();
  std::vector<Type> inputs;
  for (Value arg : body.arguments()) inputs.push_back(arg.type());
  FuncOp func = FuncOp::create(module, namer.unique(computation.name()), inputs,
                               computation->resultTypes());
  func->setAttr("sym_visibility", Attribute::string("private"));
  func->setAttr(kOriginalFuncNameAttr,
                Attribute::string(std::string(computation.name())));
  Block entry = func.body();
  for (unsigned i = 0; i < body.numArguments(); ++i) {
    body.argument(i).replaceAllUsesWith(entry.argument(i));
  }
  for (Op op : body.ops()) {
    if (isa<sdy::ReturnOp>(op)) {
      OperationState ret(func::ReturnOp::opName());
      ret.operands = op.operands();
      ret.location = op.location();
      entry.pushBack(module.createOp(ret));
      op.erase();
    } else {
      entry.pushBack(op);
    }
  }
  if (const TensorShardingPerValue* in = computation.inShardings()) {
    for (size_t i = 0; i < in->items.size() && i < inputs.size(); ++i) {
      func.setArgAttr(i, kShardingAttr, Attribute::of(in->items[i]));
    }
  }
  module.body().pushBack(func);
  return func;
}

// Replaces `computation` by a call of `func` carrying its discardable
// attributes and, as `sdy.sharding`, its out shardings.
void replaceByCall(Module& module, sdy::NamedComputationOp computation,
                   FuncOp func) {
  Op op = computation;
  OperationState call(func::CallOp::opName());
  call.operands = op.operands();
  call.result_types = op.resultTypes();
  call.location = op.location();
  call.addAttr("callee", Attribute::symbolRef(std::string(func.name())));
  std::vector<NamedAttribute> attrs(op.discardableAttrs().begin(),
                                    op.discardableAttrs().end());
  if (const TensorShardingPerValue* out = computation.outShardings()) {
    std::erase_if(
        attrs, [](const NamedAttribute& a) { return a.name == kShardingAttr; });
    attrs.push_back({std::string(kShardingAttr), Attribute::of(*out)});
  }
  std::sort(attrs.begin(), attrs.end(),
            [](const NamedAttribute& a, const NamedAttribute& b) {
              return a.name < b.name;
            });
  for (NamedAttribute& a : attrs) call.addAttr(a.name, std::move(a.value));
  module.replaceOp(op, call);
}

}  // namespace

absl::Status exportNamedComputations(Module& module) {
  if (!module.mayHaveOpsNamed(sdy::NamedComputationOp::opName())) {
    return absl::OkStatus();
  }
  std::vector<Op> ops;
  for (Op func : module.functions()) {
    if (Block body = FuncOp(func).body()) {
      ir_internal::collectPostOrder(body, ops);
    }
  }
  SymbolNamer namer(module);
  for (Op op : ops) {
    auto computation = dynCast<sdy::NamedComputationOp>(op);
    if (!computation || !computation.body()) continue;
    // Its edges are about to go: their shardings stay on the function and
    // the call.
    sinkDataFlowEdgesOf(computation);
    FuncOp func = outline(module, computation, namer);
    replaceByCall(module, computation, func);
  }
  return absl::OkStatus();
}

void registerExportNamedComputationsPass() {
  registerPass(optionlessPass(
      "sdy-export-named-computations",
      "Outlines every sdy.named_computation into a private function (named "
      "after it, made unique) and calls it.",
      [](Module& module) { return exportNamedComputations(module); }));
}

}  // namespace shardkit
