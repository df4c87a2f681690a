// IR edits the mpmd passes share.
#include "src/mpmd/ir_utils.h"

#include "absl/container/flat_hash_set.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

void collectFreeValues(Op root, Op op, absl::flat_hash_set<Value>& seen,
                       std::vector<Value>& out) {
  forEachBlock(op, [&](Block block) {
    for (Op nested : block) {
      for (unsigned i = 0; i < nested.numOperands(); ++i) {
        Value v = nested.operand(i);
        Op owner = v.isBlockArgument() ? v.ownerBlock().parentOp()
                                       : v.definingOp().parentOp();
        bool inside = owner && owner.isNestedIn(root);
        if (!inside && seen.insert(v).second) out.push_back(v);
      }
      collectFreeValues(root, nested, seen, out);
    }
  });
}

}  // namespace

Op createBefore(Op anchor, OperationState& state) {
  if (state.location == kNoSourceLocation) state.location = anchor.location();
  Op op = anchor.module()->createOp(state);
  anchor.parentBlock().insertBefore(anchor, op);
  return op;
}

Op createAfter(Op anchor, OperationState& state) {
  if (state.location == kNoSourceLocation) state.location = anchor.location();
  Op op = anchor.module()->createOp(state);
  anchor.parentBlock().insertAfter(anchor, op);
  return op;
}

Op createAtStart(Block block, OperationState& state) {
  if (state.location == kNoSourceLocation && block.parentOp())
    state.location = block.parentOp().location();
  Op op = block.module()->createOp(state);
  block.pushFront(op);
  return op;
}

std::vector<Value> inlineBlockBefore(Block block, Op anchor,
                                     const std::vector<Value>& args) {
  for (unsigned i = 0; i < block.numArguments() && i < args.size(); ++i) {
    block.argument(i).replaceAllUsesWith(args[i]);
  }
  Op terminator = block.back();
  for (Op op : block.ops()) {
    if (op == terminator) break;
    op.moveBefore(anchor);
  }
  return terminator.operands();
}

void moveBody(Op from, Op to) {
  Block old_block = from.region(0).front();
  Block block = to.region(0).addBlock();
  for (unsigned i = 0; i < old_block.numArguments(); ++i) {
    Value arg = block.addArgument(old_block.argument(i).type());
    old_block.argument(i).replaceAllUsesWith(arg);
  }
  for (Op op : old_block.ops()) block.pushBack(op);
}

void ErrorCollector::add(Op op, std::string_view message) {
  for (Diagnostic& d : diagnosticsOf(locatedError(op, message)))
    errors_.push_back(std::move(d));
}

absl::Status ErrorCollector::status() const {
  return errors_.empty() ? absl::OkStatus() : diagnosticStatus(errors_);
}

namespace {

// Pads (or trims) the per-argument or per-result dictionaries `list` of
// `func` to `count` entries; removes the list when all are empty.
void resizeAttrList(FuncOp func, std::string_view list, size_t count) {
  const std::vector<Attribute>* existing = func->attr(list).asArray();
  if (!existing) return;
  std::vector<Attribute> dicts = *existing;
  dicts.resize(count, Attribute::dict({}));
  bool all_empty = true;
  for (const Attribute& dict : dicts) {
    const std::vector<NamedAttribute>* entries = dict.asDict();
    all_empty = all_empty && (!entries || entries->empty());
  }
  if (all_empty) {
    func->removeAttr(list);
  } else if (dicts.size() != existing->size()) {
    func->setAttr(list, Attribute::array(std::move(dicts)));
  }
}

}  // namespace

void updateFunctionType(FuncOp func) {
  Block body = func.body();
  if (!body) return;
  std::vector<Type> inputs;
  for (unsigned i = 0; i < body.numArguments(); ++i)
    inputs.push_back(body.argument(i).type());
  Op ret = func.returnOp();
  std::vector<Type> results = ret ? ret.operandTypes() : func.resultTypes();
  func->setAttr(
      "function_type",
      Attribute::type(func->module()->types().function(inputs, results)));
  resizeAttrList(func, "arg_attrs", inputs.size());
  resizeAttrList(func, "res_attrs", results.size());
}

std::vector<Value> freeValuesOf(Op op) {
  absl::flat_hash_set<Value> seen;
  std::vector<Value> out;
  collectFreeValues(op, op, seen, out);
  return out;
}

bool isPure(Op op) {
  if (op.hasTrait(OpTrait::kPure) || op.hasTrait(OpTrait::kTerminator))
    return true;
  if (!isa<FragmentOp, NamedComputationOp>(op)) return false;
  bool pure = true;
  forEachBlock(op, [&](Block block) {
    for (Op nested : block) pure = pure && isPure(nested);
  });
  return pure;
}

void eraseDeadOps(Block block) {
  std::vector<Op> ops = block.ops();
  for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
    Op op = *it;
    forEachBlock(op, [](Block nested) { eraseDeadOps(nested); });
    bool used = false;
    for (unsigned i = 0; i < op.numResults(); ++i)
      used = used || !op.result(i).useEmpty();
    if (!used && !op.hasTrait(OpTrait::kTerminator) && isPure(op)) op.erase();
  }
}

bool isBeforeInBlock(Op a, Op b) {
  for (Op op = a; op; op = op.nextInBlock()) {
    if (op == b) return true;
  }
  return false;
}

Op ancestorInBlock(Block block, Op op) {
  while (op && !(op.parentBlock() == block)) op = op.parentOp();
  return op;
}

}  // namespace shardkit::mpmd::mpmd_internal
