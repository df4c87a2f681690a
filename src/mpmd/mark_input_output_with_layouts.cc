// -mpmd-mark-input-output-with-layouts: in each entry point, carries the
// `mhlo.layout_mode` of the program's arguments and results to the fragments
// that consume or produce them (arg_attrs / res_attrs), and back.
//
// A layout is absent or "default" (the default layout), "auto" (the compiler
// chooses) or a custom one. Two are compatible when both are default, either
// is auto, or they are equal. For each value (an entry argument, then each
// fragment result) the users decide a common layout:
//   - the program results it is returned as (their layouts must be
//     compatible: else an error at the return), starting from the
//     argument's own layout for an argument (an incompatible result is an
//     error at the function);
//   - a transfer user forces the default layout (transfers only move default
//     layouts; a custom layout is overridden with a warning);
//   - an auto layout used by fragments becomes default (layouts are not
//     propagated between fragments): for an argument, when more than one
//     fragment uses it; for a fragment result, when any does;
//   - an unused fragment result is auto.
// The layout chosen is written on the value (the argument, or the fragment's
// res_attrs), on the fragment operands using it and on the program results
// returning it; a default layout is written by removing the entry.
#include <optional>
#include <string>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/export_passes.h"
#include "src/mpmd/export_utils.h"

namespace shardkit::mpmd {
namespace {

using mpmd_internal::DictList;
using mpmd_internal::kLayoutModeAttr;

constexpr std::string_view kAuto = "auto";
constexpr std::string_view kDefault = "default";

// A layout: nullopt for none.
using Layout = std::optional<std::string>;

Layout layoutOf(const Attribute& attr) {
  const std::string* s = attr.asString();
  return s ? Layout(*s) : std::nullopt;
}
bool isAuto(const Layout& l) { return l && *l == kAuto; }
bool isDefault(const Layout& l) { return !l || *l == kDefault; }
bool compatible(const Layout& a, const Layout& b) {
  if (isDefault(a) && isDefault(b)) return true;
  if (isAuto(a) || isAuto(b)) return true;
  return a == b;
}
std::string text(const Layout& l) {
  return l ? "\"" + *l + "\"" : "<<NULL ATTRIBUTE>>";
}

void setInDict(std::vector<NamedAttribute>& dict, const Layout& layout) {
  if (isDefault(layout)) {
    dict.erase(std::remove_if(dict.begin(), dict.end(),
                              [](const NamedAttribute& a) {
                                return a.name == kLayoutModeAttr;
                              }),
               dict.end());
  } else {
    mpmd_internal::setEntry(dict, kLayoutModeAttr, Attribute::string(*layout));
  }
}

void setOnList(DictListAttr list, unsigned i, const Layout& layout) {
  if (isDefault(layout)) {
    list.removeEntry(i, kLayoutModeAttr);
  } else {
    list.setEntry(i, kLayoutModeAttr, Attribute::string(*layout));
  }
}

struct UsersLayout {
  int fragment_uses = 0;
  int from_result = -1;  // the program result the layout came from
  bool transferred = false;
  Layout layout = std::string(kAuto);
};

class LayoutMarker {
 public:
  LayoutMarker(FuncOp func, mpmd_internal::ErrorCollector& errors)
      : func_(func), ret_(func.returnOp()), errors_(errors) {}

  bool run() {
    for (unsigned i = 0; i < func_.numArguments(); ++i) {
      if (!argument(i)) return false;
    }
    for (Op op : func_.body()) {
      if (!isa<FragmentOp>(op)) continue;
      DictList results = mpmd_internal::dictListOrDefault(
          op, mpmd_internal::kResAttrsName, op.numResults());
      for (unsigned r = 0; r < op.numResults(); ++r) {
        if (!fragmentResult(op.result(r), results[r])) return false;
      }
      mpmd_internal::setDictList(op, mpmd_internal::kResAttrsName, results);
    }
    return true;
  }

 private:
  std::optional<UsersLayout> usersLayout(Value value) {
    UsersLayout out;
    for (const Value::Use& use : value.uses()) {
      if (isa<TransferOp>(use.user())) {
        out.transferred = true;
      } else if (use.user() != ret_) {
        ++out.fragment_uses;
      } else {
        Layout returned =
            layoutOf(func_.resultAttr(use.operandIndex(), kLayoutModeAttr));
        if (!compatible(out.layout, returned)) {
          errors_.add(ret_, "Result #" + std::to_string(out.from_result) +
                                " is also returned as result #" +
                                std::to_string(use.operandIndex()) +
                                ", but with incompatible layouts: " +
                                text(out.layout) + " vs. " + text(returned));
          return std::nullopt;
        }
        if (!isAuto(returned)) {
          out.layout = returned;
          out.from_result = static_cast<int>(use.operandIndex());
        }
      }
    }
    return out;
  }

  // The default layout when a transfer reads the value (warning at `at`
  // about a custom one it overrides).
  Layout forTransfer(const Layout& chosen, Op at, const std::string& what) {
    if (!compatible(chosen, std::string(kDefault))) {
      mpmd_internal::reportAt(
          at,
          what + " is used in a transfer op, but with a non-default layout: " +
              text(chosen) + ". Forcing the layout to default.",
          /*fail=*/false, errors_);
    }
    return std::string(kDefault);
  }

  bool argument(unsigned i) {
    Value arg = func_.argument(i);
    if (arg.useEmpty()) return true;
    Layout chosen = layoutOf(func_.argAttr(i, kLayoutModeAttr));
    std::optional<UsersLayout> users = usersLayout(arg);
    if (!users) return false;
    if (!compatible(chosen, users->layout)) {
      errors_.add(func_,
                  "Arg #" + std::to_string(i) + " is returned as result #" +
                      std::to_string(users->from_result) +
                      ", but with incompatible layouts: " + text(chosen) +
                      " vs. " + text(users->layout));
      return false;
    }
    if (!isAuto(users->layout)) chosen = users->layout;
    if (users->transferred) {
      chosen = forTransfer(chosen, func_, "Arg #" + std::to_string(i));
    } else if (isAuto(chosen) && users->fragment_uses > 1) {
      chosen = std::string(kDefault);
    }
    setOnList(func_.argAttrList(), i, chosen);
    setOnUsers(arg, chosen);
    return true;
  }

  bool fragmentResult(Value result, std::vector<NamedAttribute>& dict) {
    if (result.useEmpty()) {
      setInDict(dict, std::string(kAuto));
      return true;
    }
    std::optional<UsersLayout> users = usersLayout(result);
    if (!users) return false;
    Layout chosen = users->layout;
    if (users->transferred) {
      chosen = forTransfer(chosen, result.definingOp(),
                           "Result #" + std::to_string(result.index()));
    } else if (isAuto(chosen) && users->fragment_uses > 0) {
      chosen = std::string(kDefault);
    }
    setInDict(dict, chosen);
    setOnUsers(result, chosen);
    return true;
  }

  void setOnUsers(Value value, const Layout& layout) {
    for (const Value::Use& use : value.uses()) {
      Op user = use.user();
      if (isa<FragmentOp>(user)) {
        DictList args = mpmd_internal::dictListOrDefault(
            user, mpmd_internal::kArgAttrsName, user.numOperands());
        setInDict(args[use.operandIndex()], layout);
        mpmd_internal::setDictList(user, mpmd_internal::kArgAttrsName, args);
      } else if (user == ret_) {
        setOnList(func_.resultAttrList(), use.operandIndex(), layout);
      }
    }
  }

  FuncOp func_;
  Op ret_;
  mpmd_internal::ErrorCollector& errors_;
};

}  // namespace

absl::Status markInputOutputWithLayouts(Module& module) {
  mpmd_internal::ErrorCollector errors;
  for (FuncOp func : entryPointFunctions(module)) {
    if (func.body() && func.returnOp()) LayoutMarker(func, errors).run();
  }
  return errors.status();
}

}  // namespace shardkit::mpmd
