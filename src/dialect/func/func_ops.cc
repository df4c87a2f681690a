// The func dialect's op table (and arith.constant's) and the accessors of its
// typed handles.
#include "shardkit/dialect/func/func_ops.h"

#include <utility>

#include "src/dialect/verify_util.h"
#include "src/ir/op_registration.h"

namespace shardkit {

namespace ir_internal {

void registerFuncOps() {
  // A declaration has no region.
  registerBuiltinOp(FuncOp::kName,
                    {"sym_name", "function_type", "sym_visibility", "arg_attrs",
                     "res_attrs", "no_inline"},
                    OpTrait::kIsolatedFromAbove | OpTrait::kSymbol |
                        OpTrait::kFunction | OpTrait::kDefaultDialectScope,
                    verifyFuncOp, {}, sig(kZero, kZero, atMost(1)));
  registerBuiltinOp(func::ReturnOp::kName, {}, OpTrait::kTerminator,
                    verifyFuncReturnOp, {}, sig(kAny, kZero));
  registerBuiltinOp(func::CallOp::kName,
                    {"callee", "arg_attrs", "res_attrs", "no_inline"}, {},
                    nullptr, {}, sig(kAny, kAny));
  // The one arith op module texts use (a constant in a function body).
  registerBuiltinOp(arith::ConstantOp::kName, {"value"}, OpTrait::kPure);
}

}  // namespace ir_internal

namespace {

// The lists of argument and result attribute dictionaries.
constexpr std::string_view kArgAttrs = "arg_attrs";
constexpr std::string_view kResultAttrs = "res_attrs";

}  // namespace

FuncOp FuncOp::create(Module& module, std::string_view name,
                      const std::vector<Type>& inputs,
                      const std::vector<Type>& results) {
  OperationState state(opName());
  state.addAttr("sym_name", Attribute::string(std::string(name)));
  state.addAttr("function_type",
                Attribute::type(module.types().function(inputs, results)));
  state.num_regions = 1;
  Op op = module.createOp(state);
  Block entry = op.region(0).addBlock();
  for (Type t : inputs) entry.addArgument(t);
  return FuncOp(op);
}

std::string_view FuncOp::name() const {
  const std::string* s = op_.attr("sym_name").asString();
  return s ? std::string_view(*s) : std::string_view();
}

std::string_view FuncOp::visibility() const {
  const std::string* s = op_.attr("sym_visibility").asString();
  return s ? std::string_view(*s) : std::string_view("public");
}

bool FuncOp::isDeclaration() const {
  return op_.numRegions() == 0 || op_.region(0).empty();
}

Block FuncOp::body() const {
  return isDeclaration() ? Block() : op_.region(0).front();
}

std::vector<Type> FuncOp::argumentTypes() const {
  const Type* t = op_.attr("function_type").asType();
  if (!t) return {};
  return std::vector<Type>(t->elements().begin(), t->elements().end());
}

std::vector<Type> FuncOp::resultTypes() const {
  const Type* t = op_.attr("function_type").asType();
  if (!t) return {};
  return std::vector<Type>(t->results().begin(), t->results().end());
}

void FuncOp::setResultTypes(const std::vector<Type>& results) const {
  op_.setAttr("function_type", Attribute::type(op_.module()->types().function(
                                   argumentTypes(), results)));
}

unsigned FuncOp::numArguments() const {
  const Type* t = op_.attr("function_type").asType();
  return t ? static_cast<unsigned>(t->elements().size()) : 0;
}
unsigned FuncOp::numResults() const {
  const Type* t = op_.attr("function_type").asType();
  return t ? static_cast<unsigned>(t->results().size()) : 0;
}

Value FuncOp::argument(unsigned i) const { return body().argument(i); }

DictListAttr FuncOp::argAttrList() const {
  return DictListAttr(op_, kArgAttrs, numArguments());
}
DictListAttr FuncOp::resultAttrList() const {
  return DictListAttr(op_, kResultAttrs, numResults());
}

const Attribute& FuncOp::argAttr(unsigned arg, std::string_view name) const {
  return DictListAttr::entryOf(op_, kArgAttrs, arg, name);
}
void FuncOp::setArgAttr(unsigned arg, std::string_view name,
                        Attribute value) const {
  argAttrList().setEntry(arg, name, std::move(value));
}

const Attribute& FuncOp::resultAttr(unsigned result,
                                    std::string_view name) const {
  return DictListAttr::entryOf(op_, kResultAttrs, result, name);
}
void FuncOp::setResultAttr(unsigned result, std::string_view name,
                           Attribute value) const {
  resultAttrList().setEntry(result, name, std::move(value));
}

Op FuncOp::returnOp() const {
  Block b = body();
  if (!b || b.empty()) return Op();
  Op last = b.back();
  return isa<func::ReturnOp>(last) ? last : Op();
}

std::vector<FuncOp> functionDefinitions(Module& module) {
  std::vector<FuncOp> funcs;
  for (Op op : module.functions()) {
    if (!FuncOp(op).isDeclaration()) funcs.push_back(FuncOp(op));
  }
  return funcs;
}

}  // namespace shardkit
