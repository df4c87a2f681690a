// Reduction identities as MLIR prints them (reduction_identity.h).
#include "src/partition/reduction_identity.h"

#include <cstdint>

#include "shardkit/dialect/stablehlo/stablehlo_ops.h"
#include "shardkit/support/strings.h"

namespace shardkit::partition {
namespace {

bool isFloat(std::string_view element) {
  return element == "f16" || element == "bf16" || element == "f32" ||
         element == "f64" || element == "tf32" || element.starts_with("f8") ||
         element.starts_with("f4") || element.starts_with("f6");
}

// The width and signedness of an integer type (`i32`, `ui8`, `si16`).
struct IntType {
  int width = 0;
  bool unsigned_print = false;
};
std::optional<IntType> intType(std::string_view element) {
  IntType t;
  if (element.starts_with("ui")) {
    t.unsigned_print = true;
    element.remove_prefix(2);
  } else if (element.starts_with("si")) {
    element.remove_prefix(2);
  } else if (element.starts_with("i")) {
    element.remove_prefix(1);
  } else {
    return std::nullopt;
  }
  if (element.empty()) return std::nullopt;
  for (char ch : element) {
    if (ch < '0' || ch > '9') return std::nullopt;
    t.width = t.width * 10 + (ch - '0');
    if (t.width > 64) return std::nullopt;
  }
  if (t.width == 0) return std::nullopt;
  return t;
}

// The literal of the integer of `t` whose bits are those of `bits` (the low
// `width` of them), printed as MLIR prints the type: i1 as a boolean,
// unsigned types unsigned, the others signed.
std::string intLiteral(const IntType& t, uint64_t bits) {
  const uint64_t mask =
      t.width == 64 ? ~uint64_t{0} : (uint64_t{1} << t.width) - 1;
  bits &= mask;
  if (t.width == 1) return bits ? "dense<true>" : "dense<false>";
  if (t.unsigned_print) return strCat("dense<", bits, ">");
  const bool negative = (bits >> (t.width - 1)) & 1;
  if (!negative) return strCat("dense<", static_cast<int64_t>(bits), ">");
  // Sign-extend to 64 bits.
  const uint64_t extended = bits | ~mask;
  return strCat("dense<", static_cast<int64_t>(extended), ">");
}

// The largest finite value of a float type as MLIR prints it (six digits in
// exponent form when they read back exactly, else APFloat's own form).
std::optional<std::string> largestFloat(std::string_view element) {
  if (element == "f16") return "6.550400e+04";
  if (element == "bf16") return "3.389531e+38";
  if (element == "f32") return "3.40282347E+38";
  if (element == "f64") return "1.7976931348623157E+308";
  return std::nullopt;
}

}  // namespace

std::string zeroLiteral(std::string_view element) {
  if (element == "i1") return "dense<false>";
  if (element.starts_with("complex")) {
    return "dense<(0.000000e+00,0.000000e+00)>";
  }
  if (isFloat(element)) return "dense<0.000000e+00>";
  return "dense<0>";
}

Op commonScatterReduction(Op scatter) {
  if (scatter.numRegions() == 0 || scatter.region(0).empty()) return Op();
  Block block = scatter.region(0).front();
  const unsigned n = (scatter.numOperands() - 1) / 2;
  if (block.numArguments() != 2 * n || block.empty()) return Op();
  Op ret = block.back();
  if (!isa<stablehlo::ReturnOp>(ret) || ret.numOperands() != n) return Op();
  Op common;
  for (unsigned i = 0; i < n; ++i) {
    Value v = ret.operand(i);
    Op op = v.definingOp();
    if (!op || op.numOperands() != 2 || !v.type().isRankedTensor()) {
      return Op();
    }
    const bool logical = v.type().elementType() == "i1" &&
                         isa<stablehlo::AndOp, stablehlo::OrOp>(op);
    if (!logical && !isa<stablehlo::AddOp, stablehlo::MulOp, stablehlo::MaxOp,
                         stablehlo::MinOp>(op)) {
      return Op();
    }
    if (!common) {
      common = op;
    } else if (common.opName() != op.opName()) {
      return Op();
    }
    auto isArg = [&](Value x, unsigned index) {
      return x.isBlockArgument() && x.ownerBlock() == block &&
             x.index() == index;
    };
    const Value lhs = op.operand(0), rhs = op.operand(1);
    if (!((isArg(lhs, i) && isArg(rhs, i + n)) ||
          (isArg(lhs, i + n) && isArg(rhs, i)))) {
      return Op();
    }
  }
  return common;
}

std::optional<std::string> scatterIdentity(Op scatter) {
  Op reduction = commonScatterReduction(scatter);
  if (!reduction) return std::nullopt;
  const std::string_view element = scatter.operand(0).type().elementType();
  const bool is_float = isFloat(element);
  const std::optional<IntType> int_type = intType(element);
  if (isa<stablehlo::AddOp, stablehlo::OrOp>(reduction)) {
    return zeroLiteral(element);
  }
  if (isa<stablehlo::AndOp, stablehlo::MulOp>(reduction)) {
    if (is_float) return "dense<1.000000e+00>";
    if (int_type) return intLiteral(*int_type, 1);
    return std::nullopt;
  }
  const bool max = isa<stablehlo::MaxOp>(reduction);
  if (is_float) {
    std::optional<std::string> largest = largestFloat(element);
    if (!largest) return std::nullopt;
    return strCat("dense<", max ? "-" : "", *largest, ">");
  }
  if (int_type) {
    // The signed minimum (for max) or maximum (for min) of the width.
    const uint64_t sign = uint64_t{1} << (int_type->width - 1);
    return intLiteral(*int_type, max ? sign : sign - 1);
  }
  return std::nullopt;
}

}  // namespace shardkit::partition
