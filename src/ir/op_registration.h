// Internal to the ir layer: how the dialect tables (sdy_ops.cc, func_ops.cc,
// stablehlo_ops.cc) register shardkit's own op kinds. They run once, inside
// ensureBuiltinOpsRegistered.
#ifndef SHARDKIT_SRC_IR_OP_REGISTRATION_H_
#define SHARDKIT_SRC_IR_OP_REGISTRATION_H_

#include <initializer_list>
#include <string_view>

#include "shardkit/ir/op_name.h"

namespace shardkit::ir_internal {

// Registers one op kind. Only for the dialect tables below (it must not call
// back into the registry's public functions).
// `result_sharding_attr`: see OpInfo.
void registerBuiltinOp(std::string_view name,
                       std::initializer_list<std::string_view> inherent,
                       OpTraits traits = {}, OpInfo::VerifyFn verify = nullptr,
                       std::string_view result_sharding_attr = {});

void registerSdyOps();        // sdy_ops.cc
void registerFuncOps();       // func_ops.cc
void registerStablehloOps();  // stablehlo_ops.cc

}  // namespace shardkit::ir_internal

#endif  // SHARDKIT_SRC_IR_OP_REGISTRATION_H_
