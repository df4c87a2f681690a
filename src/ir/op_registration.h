// Internal to the ir layer: how the dialect tables (sdy_ops.cc, func_ops.cc,
// stablehlo_ops.cc) register shardkit's own op kinds. They run once, inside
// ensureBuiltinOpsRegistered.
#ifndef SHARDKIT_SRC_IR_OP_REGISTRATION_H_
#define SHARDKIT_SRC_IR_OP_REGISTRATION_H_

#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "shardkit/ir/op_name.h"

namespace shardkit::ir_internal {

// Registers one op kind. Only for the dialect tables below (it must not call
// back into the registry's public functions).
// `result_sharding_attr` and `signature`: see OpInfo.
void registerBuiltinOp(std::string_view name,
                       std::initializer_list<std::string_view> inherent,
                       OpTraits traits = {}, OpInfo::VerifyFn verify = nullptr,
                       std::string_view result_sharding_attr = {},
                       OpSignature signature = {});

// The tables' shorthands for signatures (op_signature.h).
using Arity = OpSignature::Arity;
inline constexpr Arity kAny = OpSignature::any();
inline constexpr Arity kZero = OpSignature::exactly(0);
inline constexpr Arity kOne = OpSignature::exactly(1);
inline constexpr Arity kPerOperand = {Arity::kPerOperand, 0};
constexpr Arity exactly(uint16_t n) { return OpSignature::exactly(n); }
constexpr Arity atLeast(uint16_t n) { return OpSignature::atLeast(n); }
constexpr Arity atMost(uint16_t n) { return OpSignature::atMost(n); }
// `operands` and `results`, and no regions unless `regions` says so.
constexpr OpSignature sig(
    Arity operands, Arity results, Arity regions = kZero,
    OpSignature::TypeRule types = OpSignature::TypeRule::kNone) {
  return {operands, results, regions, types};
}

void registerSdyOps();        // sdy_ops.cc
void registerFuncOps();       // func.cc
void registerStablehloOps();  // stablehlo_ops.cc

}  // namespace shardkit::ir_internal

#endif  // SHARDKIT_SRC_IR_OP_REGISTRATION_H_
