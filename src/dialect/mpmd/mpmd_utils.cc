// Functions, topologies and calls of mpmd programs.
#include "shardkit/dialect/mpmd/mpmd_utils.h"

#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/module.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/char_classes.h"

namespace shardkit::mpmd {

FuncOp enclosingFunc(Op op) {
  while (op && !isa<FuncOp>(op)) op = op.parentOp();
  return op ? FuncOp(op) : FuncOp();
}

bool isMpmdFunction(FuncOp func) {
  return func && func->hasAttr(kTopologyAttr);
}

bool isSpmdFunction(FuncOp func) {
  return func && func->hasAttr(kMeshShapeAttr);
}

bool isEntryPointFunction(FuncOp func) {
  return (isMpmdFunction(func) || isSpmdFunction(func)) &&
         func.visibility() == "public";
}

std::optional<Topology> topologyOf(FuncOp func) {
  if (!func) return std::nullopt;
  return topologyOf(func->attr(kTopologyAttr));
}

std::vector<FuncOp> mpmdFunctions(Module& module) {
  std::vector<FuncOp> funcs;
  for (Op op : module.body()) {
    if (FuncOp func = dynCast<FuncOp>(op); isMpmdFunction(func))
      funcs.push_back(func);
  }
  return funcs;
}

std::vector<FuncOp> entryPointFunctions(Module& module) {
  std::vector<FuncOp> funcs = mpmdFunctions(module);
  std::erase_if(funcs, [](FuncOp func) { return !isEntryPointFunction(func); });
  return funcs;
}

absl::StatusOr<Mesh> meshOf(Op op, std::string_view name) {
  FuncOp func = enclosingFunc(op);
  if (!isMpmdFunction(func)) {
    return locatedError(op, strCat("Function does not have a topology "
                                   "attribute: ",
                                   func ? func.name() : ""));
  }
  std::optional<Topology> topology = topologyOf(func);
  const Mesh* mesh = topology ? topology->find(name) : nullptr;
  if (!mesh) {
    return locatedError(
        op, strCat("Topology doesn't have a mesh with name: ", name));
  }
  return *mesh;
}

FuncOp calleeOf(Op call) {
  const std::string* name = call.attr("callee").asSymbolRef();
  if (!name || !call.module()) return FuncOp();
  return dynCast<FuncOp>(call.module()->lookupSymbol(*name));
}

namespace {

void collectCallers(Block block, std::string_view name,
                    std::vector<Op>& callers) {
  for (Op op : block) {
    if (auto call = dynCast<CallOp>(op)) {
      bool used = false;
      for (unsigned i = 0; i < op.numResults(); ++i)
        used = used || !op.result(i).useEmpty();
      if (call.callee() == name && used) callers.push_back(op);
    } else if (isa<ForOp>(op) && op.numRegions() == 1 &&
               !op.region(0).empty()) {
      collectCallers(op.region(0).front(), name, callers);
    }
  }
}

}  // namespace

std::vector<Op> callersOf(FuncOp func) {
  std::vector<Op> callers;
  if (!func || !func->module()) return callers;
  for (FuncOp caller : mpmdFunctions(*func->module())) {
    if (Block body = caller.body()) collectCallers(body, func.name(), callers);
  }
  return callers;
}

bool meshNameLess(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (isDigitChar(a[i]) && isDigitChar(b[j])) {
      size_t ei = i, ej = j;
      while (ei < a.size() && isDigitChar(a[ei])) ++ei;
      while (ej < b.size() && isDigitChar(b[ej])) ++ej;
      std::string_view da = a.substr(i, ei - i), db = b.substr(j, ej - j);
      while (da.size() > 1 && da.front() == '0') da.remove_prefix(1);
      while (db.size() > 1 && db.front() == '0') db.remove_prefix(1);
      if (da.size() != db.size()) return da.size() < db.size();
      if (da != db) return da < db;
      i = ei;
      j = ej;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

}  // namespace shardkit::mpmd
