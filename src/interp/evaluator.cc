#include "src/interp/evaluator.h"

#include <algorithm>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit::interp {
namespace {

// A kernel's or a helper's error at `op`, unless it already has a location
// (an error inside a region or a called function keeps its own).
absl::Status atOp(Op op, const absl::Status& status) {
  if (status.ok() || hasDiagnostics(status)) return status;
  return opError(op, fromAbsl(status.message()));
}

// Whether `value` has the IR type `type` (shape and element type of a
// tensor, element by element for a tuple).
bool hasType(const RuntimeValue& value, Type type) {
  switch (value.kind()) {
    case RuntimeValue::Kind::kToken:
      return type.isToken();
    case RuntimeValue::Kind::kTuple: {
      if (type.kind() != TypeKind::kTuple) return false;
      absl::Span<const Type> elements = type.elements();
      if (elements.size() != value.elements().size()) return false;
      for (size_t i = 0; i < elements.size(); ++i) {
        if (!hasType(value.elements()[i], elements[i])) return false;
      }
      return true;
    }
    case RuntimeValue::Kind::kTensor: {
      if (!type.isRankedTensor()) return false;
      const Tensor& t = value.tensor();
      std::optional<ElementType> element = parseElementType(type.elementType());
      return element == t.elementType() &&
             std::equal(t.shape().begin(), t.shape().end(),
                        type.shape().begin(), type.shape().end());
    }
    case RuntimeValue::Kind::kNull:
      break;
  }
  return false;
}

}  // namespace

const RuntimeValue* Scope::find(Value value) const {
  for (const Scope* s = this; s != nullptr; s = s->parent_) {
    auto it = s->values_.find(value.id());
    if (it != s->values_.end()) return &it->second;
  }
  return nullptr;
}

absl::StatusOr<Results> Evaluator::callFunction(
    Op op, absl::Span<const RuntimeValue> args) {
  // Errors of the arguments are the caller's: they have no location here,
  // and the calling op's kernel reports them at the call.
  FuncOp func(op);
  if (func.isDeclaration()) {
    return evalError(
        strCat("calls @", func.name(), ", which has no body to run"));
  }
  std::vector<Type> types = func.argumentTypes();
  if (types.size() != args.size()) {
    return evalError(strCat("calls @", func.name(), ", which takes ",
                            types.size(), " arguments, with ", args.size()));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (!hasType(args[i], types[i])) {
      return evalError(strCat("calls @", func.name(), " with a value of type ",
                              args[i].typeText(), " for its argument #", i,
                              " of type ", types[i].str()));
    }
  }
  return runRegion(op.region(0), args, nullptr);
}

absl::StatusOr<Results> Evaluator::runRegion(
    Region region, absl::Span<const RuntimeValue> args, const Scope* parent) {
  Op owner = region.parentOp();
  if (region.numBlocks() != 1) {
    return opError(owner, strCat("has a region of ", region.numBlocks(),
                                 " blocks; the interpreter runs regions of "
                                 "one block"));
  }
  if (depth_ >= options().max_call_depth) {
    return opError(owner, strCat("nests calls and regions deeper than ",
                                 options().max_call_depth, " levels"));
  }
  Block block = region.front();
  if (block.numArguments() != args.size()) {
    return opError(
        owner, strCat("region takes ", block.numArguments(),
                      " arguments, the interpreter gives it ", args.size()));
  }
  Scope scope(parent);
  for (unsigned i = 0; i < block.numArguments(); ++i) {
    Value arg = block.argument(i);
    if (!hasType(args[i], arg.type())) {
      return opError(
          owner, strCat("region argument #", i, " has type ", arg.type().str(),
                        ", got a value of type ", args[i].typeText()));
    }
    scope.set(arg, args[i]);
  }
  ++depth_;
  Results results;
  absl::Status status = runBlock(block, scope, &results);
  --depth_;
  SK_RETURN_IF_ERROR(status);
  return results;
}

absl::StatusOr<std::vector<Tensor>> Evaluator::runTensorRegion(
    Region region, absl::Span<const Tensor> args, const Scope* parent) {
  Results values(args.begin(), args.end());
  SK_ASSIGN_OR_RETURN(Results results, runRegion(region, values, parent));
  std::vector<Tensor> tensors;
  tensors.reserve(results.size());
  for (RuntimeValue& r : results) {
    if (!r.isTensor()) {
      return opError(region.parentOp(), "region must return tensors");
    }
    tensors.push_back(std::move(r.mutableTensor()));
  }
  return tensors;
}

absl::Status Evaluator::runBlock(Block block, Scope& scope,
                                 Results* terminator_values) {
  for (Op op : block) {
    if (op.hasTrait(OpTrait::kTerminator)) {
      terminator_values->clear();
      for (unsigned i = 0; i < op.numOperands(); ++i) {
        const RuntimeValue* v = scope.find(op.operand(i));
        if (v == nullptr) return opError(op, "uses a value with no value yet");
        terminator_values->push_back(*v);
      }
      return absl::OkStatus();
    }
    SK_RETURN_IF_ERROR(runOp(op, scope));
  }
  return locatedError(block.parentOp(),
                      "the interpreter found a block without a terminator");
}

absl::Status Evaluator::runOp(Op op, Scope& scope) {
  Kernel kernel = kernelTable().find(op.name());
  if (kernel == nullptr) {
    return opError(op, "is not supported by the interpreter");
  }
  std::vector<const RuntimeValue*> operands;
  operands.reserve(op.numOperands());
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    const RuntimeValue* v = scope.find(op.operand(i));
    if (v == nullptr) {
      return opError(op, strCat("operand #", i, " has no value yet"));
    }
    operands.push_back(v);
  }
  OpContext ctx(*this, op, scope, std::move(operands));
  absl::StatusOr<Results> results = kernel(ctx);
  if (!results.ok()) return atOp(op, results.status());
  if (results->size() != op.numResults()) {
    return opError(op, strCat("the interpreter computed ", results->size(),
                              " results for the op's ", op.numResults()));
  }
  for (unsigned i = 0; i < op.numResults(); ++i) {
    Value result = op.result(i);
    if (!hasType((*results)[i], result.type())) {
      return opError(op,
                     strCat("result #", i, " is declared ", result.type().str(),
                            " but its value is ", (*results)[i].typeText()));
    }
    scope.set(result, std::move((*results)[i]));
  }
  return absl::OkStatus();
}

void Evaluator::reportFailedCheck(Op op, std::string message,
                                  std::vector<std::string> notes) {
  Diagnostic d{locationOf(op), Severity::kError, std::move(message), {}};
  for (std::string& note : notes) {
    d.notes.push_back(
        Diagnostic{locationOf(op), Severity::kNote, std::move(note), {}});
  }
  std::lock_guard<std::mutex> lock(state_.mutex);
  if (process_.grid == nullptr) {
    state_.failures.push_back({state_.next_epoch++, 0, 0, std::move(d)});
  } else {
    state_.failures.push_back(
        {process_.epoch, process_.index + 1, checks_++, std::move(d)});
  }
}

Results OpContext::operands() const {
  Results values;
  values.reserve(operands_.size());
  for (const RuntimeValue* v : operands_) values.push_back(*v);
  return values;
}

absl::Status OpContext::tensorOperands() const {
  for (size_t i = 0; i < operands_.size(); ++i) {
    if (!operands_[i]->isTensor()) {
      return evalError(strCat("operand #", i, " must be a tensor, got ",
                              operands_[i]->typeText()));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<TensorType> OpContext::resultType(size_t i) const {
  if (i >= op_.numResults()) return evalError("missing result");
  return tensorTypeOf(op_.result(i).type());
}

absl::StatusOr<Tensor> OpContext::resultTensor(size_t i) const {
  SK_ASSIGN_OR_RETURN(TensorType t, resultType(i));
  return Tensor(t.element, std::move(t.shape));
}

absl::StatusOr<int64_t> OpContext::intAttr(std::string_view name) const {
  std::optional<int64_t> v = op_.attr(name).intValue();
  if (!v)
    return evalError(strCat("requires an integer attribute '", name, "'"));
  return *v;
}

absl::StatusOr<int64_t> OpContext::intAttrOr(std::string_view name,
                                             int64_t fallback) const {
  if (!op_.hasAttr(name)) return fallback;
  return intAttr(name);
}

absl::StatusOr<std::vector<int64_t>> OpContext::intsAttr(
    std::string_view name) const {
  const Attribute& attr = op_.attr(name);
  if (std::optional<std::vector<int64_t>> list = attr.intList()) return *list;
  if (attr.asElements() != nullptr) {
    SK_ASSIGN_OR_RETURN(Tensor t, tensorFromAttribute(attr));
    if (t.kind() == ElementKind::kInteger && t.rank() <= 1) {
      return std::vector<int64_t>(t.ints().begin(), t.ints().end());
    }
  }
  return evalError(
      strCat("requires a list of integers in attribute '", name, "'"));
}

absl::StatusOr<std::vector<int64_t>> OpContext::intsAttrOr(
    std::string_view name, std::vector<int64_t> fallback) const {
  if (!op_.hasAttr(name)) return fallback;
  return intsAttr(name);
}

bool OpContext::boolAttrOr(std::string_view name, bool fallback) const {
  const Attribute& attr = op_.attr(name);
  if (attr.kind() == AttrKind::kUnit) return true;
  if (const bool* b = attr.asBool()) return *b;
  return fallback;
}

absl::StatusOr<Tensor> OpContext::elementsAttr(std::string_view name) const {
  const Attribute& attr = op_.attr(name);
  if (!attr) return evalError(strCat("requires attribute '", name, "'"));
  absl::StatusOr<Tensor> t = tensorFromAttribute(attr);
  if (!t.ok()) {
    return evalError(
        strCat("attribute '", name, "': ", fromAbsl(t.status().message())));
  }
  return t;
}

std::string_view OpContext::enumAttr(std::string_view name) const {
  const std::string* text = op_.attr(name).asOpaque();
  if (text == nullptr || !text->ends_with(">")) return {};
  size_t space = text->rfind(' ');
  if (space == std::string::npos) return {};
  return std::string_view(*text).substr(space + 1, text->size() - space - 2);
}

const KernelTable& kernelTable() {
  static const KernelTable* const table = [] {
    auto* t = new KernelTable();
    addElementwiseKernels(*t);
    addConvertKernels(*t);
    addShapeKernels(*t);
    addControlKernels(*t);
    addCheckKernels(*t);
    addReductionKernels(*t);
    addContractionKernels(*t);
    addFftKernel(*t);
    addGatherScatterKernels(*t);
    addCollectiveKernels(*t);
    addMiscKernels(*t);
    return t;
  }();
  return *table;
}

}  // namespace shardkit::interp
