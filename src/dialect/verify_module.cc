// The module verifier: the mesh symbols, `sdy.sharding` and
// `sdy.sharding_rule` on any op, and each op's own constraints through its
// registered verifier hook (OpInfo::verify), within the manual axes its
// enclosing manual computations bind.
#include "shardkit/dialect/verify_module.h"

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "shardkit/core/verify.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/dialect/verify_util.h"
#include "src/support/ordered_parallel.h"

namespace shardkit {

using ir_internal::checkShardableType;
using ir_internal::shapesOf;
using ir_internal::verifyError;

namespace {

std::string_view message(const absl::Status& s) {
  return fromAbsl(s.message());
}

absl::Status checkShardableTypes(const std::vector<Type>& types,
                                 std::string_view kind) {
  for (size_t i = 0; i < types.size(); ++i) {
    if (absl::Status s = checkShardableType(types[i]); !s.ok()) {
      return verifyError(strCat(kind, types.size() > 1 ? strCat(" ", i) : "",
                                " - ", message(s)));
    }
  }
  return absl::OkStatus();
}

// The op's result types, without a vector.
struct ResultTypes {
  Op op;
  struct iterator {
    Op op;
    unsigned i;
    Type operator*() const { return op.result(i).type(); }
    iterator& operator++() {
      ++i;
      return *this;
    }
    bool operator!=(const iterator& other) const { return i != other.i; }
  };
  iterator begin() const { return {op, 0}; }
  iterator end() const { return {op, op.numResults()}; }
};

absl::Status verifyShardingAttr(Op op, const Attribute& a,
                                const VerifyContext& context) {
  const TensorShardingPerValue* s = a.as<TensorShardingPerValue>();
  if (!s) {
    return verifyError(
        "should have a sharding attribute of type "
        "TensorShardingPerValueAttr");
  }
  ShardingVerifyMemo* memo =
      context.boundManualAxes().empty() ? context.memo() : nullptr;
  ShardingVerifyMemo::Key key;
  if (memo != nullptr) {
    key = ShardingVerifyMemo::keyOf(a, ResultTypes{op});
    if (memo->contains(key)) return absl::OkStatus();
  }
  ShardingPerValueVerifyOptions options;
  options.sharding.bound_manual_axes = context.boundManualAxes();
  options.check_common_mesh = false;
  std::vector<Type> types = op.resultTypes();
  SK_RETURN_IF_ERROR(checkShardableTypes(types, "result"));
  SK_RETURN_IF_ERROR(verifyTensorShardingPerValue(
      *s, context.meshes(), shapesOf(types), "result", options));
  if (memo != nullptr) memo->remember(std::move(key), a);
  return absl::OkStatus();
}

absl::Status verifyShardingRuleAttr(Op op, const Attribute& a) {
  const OpShardingRule* rule = a.as<OpShardingRule>();
  if (!rule) {
    return verifyError(
        "should have a sharding rule attribute of type OpShardingRuleAttr");
  }
  return verifyOpShardingRule(*rule, shapesOf(op.operandTypes()),
                              shapesOf(op.resultTypes()));
}

// The sdy attributes any op may have (`sdy.sharding`, `sdy.sharding_rule`,
// the propagation debug records), in name order as MLIR verifies them.
absl::Status verifyCommonAttrs(Op op, const VerifyContext& context) {
  for (const NamedAttribute& entry : op.discardableAttrs()) {
    if (entry.name == kShardingAttr) {
      SK_RETURN_IF_ERROR(verifyShardingAttr(op, entry.value, context));
    } else if (entry.name == kShardingRuleAttr) {
      SK_RETURN_IF_ERROR(verifyShardingRuleAttr(op, entry.value));
    } else {
      SK_RETURN_IF_ERROR(
          ir_internal::verifyDebugAttr(op, entry.name, entry.value, context));
    }
  }
  return absl::OkStatus();
}

// The op's signature, the common attributes, then the op's hook; errors
// name the op.
absl::Status verifyOneOp(Op op, const VerifyContext& context) {
  // The counts first: the other checks and the hooks rely on them.
  absl::Status status = ir_internal::verifyOpSignature(op);
  if (status.ok()) status = verifyCommonAttrs(op, context);
  if (status.ok()) {
    const OpInfo* info = op.opName().info();
    if (info && info->verify) status = info->verify(op, context);
  }
  // A hook that located its diagnostics itself (an error worded without the
  // op's name, as MLIR's emitError) is reported as it is.
  if (status.ok() || hasDiagnostics(status)) return status;
  return opError(op, message(status));
}

// Ops verified in chunks side by side (VerifyOptions::threads).
constexpr size_t kOpsPerChunk = 512;

// Verifies ops and the ops nested in them, recording the diagnostics in
// module order. One per thread: each has its own memo.
class OpWalker {
 public:
  OpWalker(Module& module, const MeshTable& meshes, int threads)
      : m_(module), meshes_(meshes), threads_(threads) {}

  // `bound` lists the manual axes of the enclosing manual computations.
  void walk(Op op, const std::vector<std::string>& bound) {
    if (op.numRegions() == 0) {
      check(op, bound);
      return;
    }
    const std::vector<std::string>* inner = &bound;
    std::vector<std::string> extended;
    if (isa<sdy::ManualComputationOp>(op)) {
      if (const ManualAxes* axes = op.attr("manual_axes").as<ManualAxes>()) {
        extended = bound;
        extended.insert(extended.end(), axes->begin(), axes->end());
        inner = &extended;
      }
    }
    if (threads_ > 1 && hasLargeBlock(op)) {
      walkSideBySide(op, bound, *inner);
      return;
    }
    check(op, bound);
    forEachBlock(op, [&](Block block) {
      for (Op nested : block) walk(nested, *inner);
    });
  }

  // Records the diagnostics of `status`; one without a location is at `op`.
  void report(Op op, const absl::Status& status) {
    if (status.ok()) return;
    for (Diagnostic& d : diagnosticsOf(status)) {
      if (d.location.empty()) d.location = locationOf(op);
      errors_.push_back(std::move(d));
    }
  }

  std::vector<Diagnostic>& errors() { return errors_; }

 private:
  // `op` itself, not its regions' ops.
  void check(Op op, const std::vector<std::string>& bound) {
    report(op, verifyOneOp(op, VerifyContext(meshes_, bound, &memo_)));
    if (isa<func::CallOp>(op)) report(op, verifyCall(op));
  }

  static bool hasLargeBlock(Op op) {
    bool large = false;
    forEachBlock(op, [&](Block block) {
      large = large || block.numOps() >= kParallelVerifyMinOps;
    });
    return large;
  }

  // `op` (with `bound`) and its regions' ops (with `inner`) on threads_
  // threads: the op itself is the first task, its regions' ops in chunks
  // the others; each task's diagnostics are appended in order. The ops
  // nested in a chunk's ops verify on the chunk's thread alone.
  void walkSideBySide(Op op, const std::vector<std::string>& bound,
                      const std::vector<std::string>& inner) {
    std::vector<Op> ops;
    forEachBlock(op, [&](Block block) {
      for (Op nested : block) ops.push_back(nested);
    });
    struct TaskVerifier {
      OpWalker walker;
      Op op;
      const std::vector<std::string>& bound;
      const std::vector<Op>& ops;
      const std::vector<std::string>& inner;
      std::vector<Diagnostic> operator()(size_t task) {
        if (task == 0) {
          walker.check(op, bound);
        } else {
          size_t begin = (task - 1) * kOpsPerChunk;
          size_t end = std::min(ops.size(), begin + kOpsPerChunk);
          for (size_t i = begin; i < end; ++i) walker.walk(ops[i], inner);
        }
        return std::exchange(walker.errors(), {});
      }
    };
    // No window: the diagnostics are small, and the op's own task may take
    // as long as many chunks (a function's arguments).
    size_t tasks = 1 + (ops.size() + kOpsPerChunk - 1) / kOpsPerChunk;
    ir_internal::orderedParallel(
        tasks, threads_, /*window=*/tasks,
        [&] {
          return TaskVerifier{OpWalker(m_, meshes_, /*threads=*/1), op, bound,
                              ops, inner};
        },
        [&](std::vector<Diagnostic> task_errors) {
          for (Diagnostic& d : task_errors) errors_.push_back(std::move(d));
        });
  }

  // The call's callee: a function of the module with its signature.
  absl::Status verifyCall(Op call) {
    absl::Status status = ir_internal::verifyFuncCallSymbol(
        call, m_.lookupSymbol(func::CallOp(call).callee()));
    if (status.ok()) return status;
    return opError(call, message(status));
  }

  Module& m_;
  const MeshTable& meshes_;
  int threads_;
  ShardingVerifyMemo memo_;
  std::vector<Diagnostic> errors_;
};

class Verifier {
 public:
  Verifier(Module& m, int threads)
      : m_(m), meshes_(m.meshTable()), walker_(m, meshes_, threads) {}

  absl::Status run() {
    ir_internal::verifySymbols(m_, walker_.errors());
    verifyMeshOps();
    for (Op op : m_.body()) walker_.walk(op, {});
    if (walker_.errors().empty()) return absl::OkStatus();
    return diagnosticStatus(walker_.errors());
  }

 private:
  // Each mesh op well-formed (verifySymbols checks that names are unique).
  void verifyMeshOps() {
    for (Op op : m_.body()) {
      if (!isa<sdy::MeshOp>(op)) continue;
      const std::string* name = op.attr("sym_name").asString();
      const Mesh* mesh = op.attr("mesh").as<Mesh>();
      if (!name || !mesh) {
        walker_.report(
            op, opError(op, "requires 'sym_name' and 'mesh' attributes"));
        continue;
      }
      // The reference checks the mesh while parsing it, in the op's custom
      // parser, which names the op this way.
      if (absl::Status s = verifyMesh(*mesh); !s.ok()) {
        walker_.report(op, locatedError(op, strCat("custom op '", op.name(),
                                                   "' ", message(s))));
      }
    }
  }

  Module& m_;
  MeshTable meshes_;
  OpWalker walker_;
};

}  // namespace

namespace ir_internal {

std::vector<TensorShapeView> shapesOf(const std::vector<Type>& types) {
  std::vector<TensorShapeView> shapes;
  shapes.reserve(types.size());
  for (Type t : types) shapes.push_back(t.shapeView());
  return shapes;
}

absl::Status checkShardableType(Type type) {
  if (type.kind() == TypeKind::kTuple && type.elements().size() != 1) {
    return verifyError(
        strCat("ops can only have a sharding for a tuple of size 1: '",
               type.str(), "'"));
  }
  if (type.kind() == TypeKind::kUnrankedTensor) {
    return verifyError(strCat(
        "only ranked tensors can have a sharding. type: '", type.str(), "'"));
  }
  return absl::OkStatus();
}

std::vector<Type> bodyReturnTypes(Op op) {
  Region body = op.region(0);
  if (body.empty() || body.front().empty()) return {};
  Op ret = body.front().back();
  if (!ret.opName().hasTrait(OpTrait::kTerminator)) return {};
  return ret.operandTypes();
}

}  // namespace ir_internal

absl::Status VerifyContext::verifySharding(const TensorSharding& sharding,
                                           Type type) const {
  SK_RETURN_IF_ERROR(checkShardableType(type));
  ShardingVerifyOptions options;
  options.bound_manual_axes = bound_;
  return verifyTensorSharding(sharding, meshes_, type.shapeView(), options);
}

absl::Status VerifyContext::verifySharding(const Attribute& attr,
                                           Type type) const {
  const TensorSharding* sharding = attr.as<TensorSharding>();
  if (sharding == nullptr) return verifyError("expected a TensorShardingAttr");
  ShardingVerifyMemo* memo = bound_.empty() ? memo_ : nullptr;
  ShardingVerifyMemo::Key key;
  if (memo != nullptr) {
    key = ShardingVerifyMemo::keyOf(attr, std::initializer_list<Type>{type});
    if (memo->contains(key)) return absl::OkStatus();
  }
  SK_RETURN_IF_ERROR(verifySharding(*sharding, type));
  if (memo != nullptr) memo->remember(std::move(key), attr);
  return absl::OkStatus();
}

absl::Status verifyModule(Module& module, const VerifyOptions& options) {
  return Verifier(module, options.threads).run();
}

absl::Status verifyOp(Op op, const MeshTable& meshes) {
  std::vector<std::string> bound;
  return verifyOneOp(op, VerifyContext(meshes, bound));
}

}  // namespace shardkit
