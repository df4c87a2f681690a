// -sdy-unflatten-call-graph: the copies of a function that flattening made
// (one per call site) become one function again wherever they agree.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/walk.h"
#include "shardkit/passes/export_passes.h"
#include "shardkit/passes/pass.h"
#include "shardkit/support/status_macros.h"
#include "src/passes/pass_list.h"

namespace shardkit {
namespace {

// What makes two copies interchangeable: the function they copy, the manual
// axes around their calls and (unless ignored) their argument and result
// shardings as a computation takes them (funcArgShardings). Attributes
// compare by their printed text.
std::string computationKey(FuncOp func, const MeshTable& meshes,
                           bool ignore_shardings) {
  std::string key;
  const std::string* original = func->attr(kOriginalFuncNameAttr).asString();
  strAppend(key, original ? *original : func.name(), "\n");
  if (const Attribute& axes = func->attr(kFuncManualAxesAttr)) {
    strAppend(key, toString(axes));
  }
  if (ignore_shardings) return key;
  auto append = [&](const std::optional<TensorShardingPerValue>& shardings) {
    strAppend(key, "\n", shardings ? toString(*shardings) : "");
  };
  append(funcArgShardings(func, meshes));
  append(funcResultShardings(func, meshes));
  return key;
}

class Unflattener {
 public:
  Unflattener(Module& module, bool dedup_fully)
      : dedup_fully_(dedup_fully), meshes_(module.meshTable()) {
    for (Op op : module.functions())
      functions_[std::string(FuncOp(op).name())] = FuncOp(op);
    if (!module.mayHaveOpsNamed(func::CallOp::opName())) return;
    std::vector<Op> ops;
    for (Op op : module.functions()) {
      if (Block body = FuncOp(op).body()) {
        ir_internal::collectPostOrder(body, ops);
      }
    }
    for (Op op : ops) {
      if (isa<func::CallOp>(op)) calls_.push_back(op);
    }
  }

  absl::Status run() {
    SK_RETURN_IF_ERROR(chooseFunctions());
    for (Op call : calls_) {
      FuncOp target =
          chosen_[computationKey(calleeOf(call), meshes_, dedup_fully_)];
      call.setAttr("callee", Attribute::symbolRef(std::string(target.name())));
    }
    for (auto& [name, func] : functions_) {
      func->removeAttr(kOriginalFuncNameAttr);
      func->removeAttr(kFuncManualAxesAttr);
    }
    return absl::OkStatus();
  }

 private:
  FuncOp calleeOf(Op call) const {
    auto it = functions_.find(func::CallOp(call).callee());
    return it == functions_.end() ? FuncOp() : it->second;
  }

  // The function every group of interchangeable copies keeps: the first
  // called, or with dedup-functions-fully the one called most often among
  // those with the same shardings (the first of them on a tie).
  absl::Status chooseFunctions() {
    for (Op call : calls_) {
      FuncOp func = calleeOf(call);
      if (!func) {
        return opError(call, strCat("'", func::CallOp(call).callee(),
                                    "' does not reference a valid function"));
      }
      chosen_.try_emplace(computationKey(func, meshes_, dedup_fully_), func);
    }
    if (!dedup_fully_) return absl::OkStatus();
    absl::flat_hash_map<std::string, int64_t> calls_per_sharding;
    for (Op call : calls_) {
      FuncOp func = calleeOf(call);
      std::string exact =
          computationKey(func, meshes_, /*ignore_shardings=*/false);
      int64_t count = ++calls_per_sharding[exact];
      FuncOp& kept =
          chosen_[computationKey(func, meshes_, /*ignore_shardings=*/true)];
      if (count > calls_per_sharding[computationKey(kept, meshes_, false)]) {
        kept = func;
      }
    }
    return absl::OkStatus();
  }

  bool dedup_fully_;
  MeshTable meshes_;
  std::map<std::string, FuncOp, std::less<>> functions_;
  std::vector<Op> calls_;
  absl::flat_hash_map<std::string, FuncOp> chosen_;
};

}  // namespace

absl::Status unflattenCallGraph(Module& module, bool dedup_functions_fully) {
  return Unflattener(module, dedup_functions_fully).run();
}

void registerUnflattenCallGraphPass() {
  registerPass(boolOptionPass(
      "sdy-unflatten-call-graph",
      "Makes the per-call-site copies of a function one function again "
      "where their shardings agree.",
      {"dedup-functions-fully",
       "keep one copy per function whatever its shardings (default false)"},
      unflattenCallGraph));
}

}  // namespace shardkit
