// The func dialect's typed handles. FuncOp: a `func.func` op — its name,
// visibility, arguments and results with their attributes, body and return
// op; func::CallOp and func::ReturnOp; and arith::ConstantOp, the one arith op
// shardkit reads in its pretty form.
//
// Like MLIR, a function keeps its signature in `function_type` and its
// argument/result attributes in `arg_attrs`/`res_attrs` (arrays of
// dictionaries, absent when all are empty).
#ifndef SHARDKIT_DIALECT_FUNC_FUNC_OPS_H_
#define SHARDKIT_DIALECT_FUNC_FUNC_OPS_H_

#include <string>
#include <string_view>
#include <vector>

#include "shardkit/export.h"
#include "shardkit/ir/dict_list_attr.h"
#include "shardkit/ir/op_base.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

class FuncOp : public OpBase<"func.func"> {
 public:
  using OpBase::OpBase;

  // Creates a function with an entry block whose arguments have `inputs`.
  static FuncOp create(Module& module, std::string_view name,
                       const std::vector<Type>& inputs,
                       const std::vector<Type>& results);

  std::string_view name() const;
  // "public" (the default), "private" or "nested".
  std::string_view visibility() const;
  bool isDeclaration() const;  // no body
  Block body() const;
  std::vector<Type> argumentTypes() const;
  std::vector<Type> resultTypes() const;
  void setResultTypes(const std::vector<Type>& results) const;
  unsigned numArguments() const;
  unsigned numResults() const;
  Value argument(unsigned i) const;

  // Entry `name` of the attributes of an argument or result.
  const Attribute& argAttr(unsigned arg, std::string_view name) const;
  void setArgAttr(unsigned arg, std::string_view name, Attribute value) const;
  const Attribute& resultAttr(unsigned result, std::string_view name) const;
  void setResultAttr(unsigned result, std::string_view name,
                     Attribute value) const;
  // The attributes of all arguments or results (a whole dictionary, removing
  // entries, ...).
  DictListAttr argAttrList() const;
  DictListAttr resultAttrList() const;

  // The terminator of the body (func.return), or null.
  Op returnOp() const;
};

// The functions of `module` that have a body (declarations left out), in
// module order.
std::vector<FuncOp> functionDefinitions(Module& module);

namespace func {

using FuncOp = shardkit::FuncOp;

// `func.call @callee(%a, ...)`.
using CallOp = CallLikeOp<"func.call">;

// `func.return %a, ...`: the terminator of a function's body.
using ReturnOp = PlainOp<"func.return">;

}  // namespace func

namespace arith {

// `arith.constant dense<...> : type`.
using ConstantOp = PlainOp<"arith.constant">;

}  // namespace arith

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_DIALECT_FUNC_FUNC_OPS_H_
