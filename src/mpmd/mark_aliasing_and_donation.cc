// -mpmd-mark-aliasing-and-donation: in each mpmd function, a fragment operand
// whose value is used there for the last time may give its buffer to the
// fragment: aliased with a result (`tf.aliasing_output = N` in arg_attrs) of
// the same type, not in host memory, with the same `mhlo.layout_mode`, that
// no other operand aliases; or, without such a result, donated
// (`jax.buffer_donor = true`). Function arguments give their buffers only when
// the user said so: `jax.buffer_donor` donates, `tf.aliasing_output = K`
// aliases, preferring the fragment result that the function returns as its
// result K. Operands in host memory, and values a transfer also reads (the
// transfer may still run when the fragment starts), are left alone.
#include <optional>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/export_passes.h"
#include "src/mpmd/export_utils.h"

namespace shardkit::mpmd {
namespace {

using mpmd_internal::DictList;

class FragmentMarker {
 public:
  FragmentMarker(FuncOp func, Op fragment) : func_(func), fragment_(fragment) {}

  // Decides for the operands at `indices` (ascending) and stores the marks.
  void run(const std::vector<unsigned>& indices) {
    for (unsigned i : indices) decide(i);
    if (donated_.empty() && aliased_.empty()) return;
    DictList args = mpmd_internal::dictListOrDefault(
        fragment_, mpmd_internal::kArgAttrsName, fragment_.numOperands());
    for (unsigned i : donated_) {
      mpmd_internal::setEntry(args[i], mpmd_internal::kBufferDonorAttr,
                              Attribute::boolean(true));
    }
    for (auto [input, output] : aliased_) {
      mpmd_internal::setEntry(args[input], mpmd_internal::kAliasingAttr,
                              Attribute::integer(output, "i32"));
    }
    mpmd_internal::setDictList(fragment_, mpmd_internal::kArgAttrsName, args);
  }

 private:
  void decide(unsigned input) {
    if (mpmd_internal::isArgOnHost(fragment_, input)) return;
    Value value = fragment_.operand(input);
    for (const Value::Use& use : value.uses()) {
      if (isa<TransferOp>(use.user())) return;
    }
    if (!value.isBlockArgument()) {
      aliasOrDonate(input, std::nullopt);
      return;
    }
    unsigned arg = value.index();
    if (mpmd_internal::isArgBufferDonor(func_, arg)) {
      donated_.push_back(input);
      return;
    }
    std::optional<int64_t> wanted =
        func_.argAttr(arg, mpmd_internal::kAliasingAttr).intValue();
    if (wanted) aliasOrDonate(input, returnedResult(*wanted));
  }

  // The result of the fragment the function returns as result `k`, if any.
  std::optional<unsigned> returnedResult(int64_t k) const {
    Op ret = func_.returnOp();
    if (!ret || k < 0 || k >= ret.numOperands()) return std::nullopt;
    Value value = ret.operand(static_cast<unsigned>(k));
    if (value.isBlockArgument() || value.definingOp() != fragment_) {
      return std::nullopt;
    }
    return value.index();
  }

  void aliasOrDonate(unsigned input, std::optional<unsigned> preferred) {
    std::optional<unsigned> output;
    if (preferred && canAlias(input, *preferred)) output = preferred;
    for (unsigned r = 0; !output && r < fragment_.numResults(); ++r) {
      if (canAlias(input, r)) output = r;
    }
    if (output) {
      aliased_.emplace_back(input, *output);
      taken_.insert(*output);
    } else {
      donated_.push_back(input);
    }
  }

  bool canAlias(unsigned input, unsigned output) const {
    Value result = fragment_.result(output);
    return !taken_.contains(output) &&
           result.type() == fragment_.operand(input).type() &&
           !mpmd_internal::isResultOnHost(result) &&
           mpmd_internal::argEntry(fragment_, input,
                                   mpmd_internal::kLayoutModeAttr) ==
               mpmd_internal::resEntry(fragment_, output,
                                       mpmd_internal::kLayoutModeAttr);
  }

  FuncOp func_;
  Op fragment_;
  std::vector<unsigned> donated_;
  std::vector<std::pair<unsigned, unsigned>> aliased_;
  absl::flat_hash_set<unsigned> taken_;
};

}  // namespace

absl::Status markAliasingAndDonation(Module& module) {
  for (FuncOp func : mpmdFunctions(module)) {
    if (!func.body()) continue;
    auto last_uses = mpmd_internal::lastUseOperands(func.body());
    for (Op op : func.body()) {
      auto it = last_uses.find(op);
      if (it == last_uses.end() || !isa<FragmentOp>(op)) continue;
      FragmentMarker(func, op).run(it->second);
    }
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
