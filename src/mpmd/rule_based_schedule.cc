// -mpmd-rule-based-schedule{rules=...}: the user lists fragments in the order
// they should run:
//   FragmentScheduleRule(ordered_fragments=[FragmentInfo(origins=["f"],
//       mesh_name="m1",call_counter=0)->FragmentInfo(origins=["g"],
//       mesh_name="m1")]), FragmentScheduleRule(...)
// A FragmentInfo matches a fragment with exactly those origin names (a name
// may carry a transpose count, `"f"(1)`), on that mesh, and, when given,
// that call counter and stage (`stage_id`). For each consecutive pair of a
// rule whose fragments are both found (the first match in program order),
// the second runs after the first, unless the first depends on the second
// through data (that pair is skipped). The body is then sorted
// topologically.
#include <optional>
#include <string>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/dialect/mpmd/mpmd_utils.h"
#include "shardkit/ir/module.h"
#include "shardkit/mpmd/optimize_passes.h"
#include "shardkit/support/status_macros.h"
#include "src/mpmd/optimize_utils.h"

namespace shardkit::mpmd {
namespace {

struct FragmentInfo {
  std::vector<UserOrigin> origins;
  std::string mesh_name;
  std::optional<int64_t> call_counter;
  std::optional<int64_t> stage;
};

using Rule = std::vector<FragmentInfo>;

// A small reader of the rule syntax over `text`.
class RuleReader {
 public:
  explicit RuleReader(std::string_view text) : text_(text) {}

  absl::StatusOr<std::vector<Rule>> rules() {
    std::vector<Rule> result;
    skipSpace();
    while (pos_ < text_.size()) {
      SK_ASSIGN_OR_RETURN(Rule rule, readRule());
      result.push_back(std::move(rule));
      skipSpace();
      if (!consume(",")) break;
      skipSpace();
    }
    if (pos_ != text_.size()) return error("unexpected text");
    return result;
  }

 private:
  absl::StatusOr<Rule> readRule() {
    if (!consume("FragmentScheduleRule(ordered_fragments=[")) {
      return error("expected FragmentScheduleRule(ordered_fragments=[");
    }
    Rule rule;
    do {
      SK_ASSIGN_OR_RETURN(FragmentInfo info, readInfo());
      rule.push_back(std::move(info));
    } while (consume("->"));
    if (!consume("])")) return error("expected '])'");
    return rule;
  }

  absl::StatusOr<FragmentInfo> readInfo() {
    if (!consume("FragmentInfo(")) return error("expected FragmentInfo(");
    FragmentInfo info;
    while (!consume(")")) {
      size_t eq = text_.find('=', pos_);
      if (eq == std::string_view::npos) return error("expected key=value");
      std::string key(text_.substr(pos_, eq - pos_));
      pos_ = eq + 1;
      if (key == "origins") {
        SK_ASSIGN_OR_RETURN(info.origins, readOrigins());
      } else if (key == "mesh_name") {
        SK_ASSIGN_OR_RETURN(info.mesh_name, readString());
      } else if (key == "call_counter") {
        SK_ASSIGN_OR_RETURN(info.call_counter, readInt());
      } else if (key == "stage_id") {
        SK_ASSIGN_OR_RETURN(info.stage, readInt());
      } else {
        return error("unknown FragmentInfo field '" + key + "'");
      }
      consume(",");
    }
    return info;
  }

  absl::StatusOr<std::vector<UserOrigin>> readOrigins() {
    if (!consume("[")) return error("expected '['");
    std::vector<UserOrigin> origins;
    while (!consume("]")) {
      UserOrigin origin;
      SK_ASSIGN_OR_RETURN(origin.name, readString());
      if (consume("(")) {
        SK_ASSIGN_OR_RETURN(origin.transpose_count, readInt());
        if (!consume(")")) return error("expected ')'");
      }
      origins.push_back(std::move(origin));
      consume(",");
    }
    return origins;
  }

  absl::StatusOr<std::string> readString() {
    if (!consume("\"")) return error("expected a string");
    size_t close = text_.find('"', pos_);
    if (close == std::string_view::npos) return error("unterminated string");
    std::string value(text_.substr(pos_, close - pos_));
    pos_ = close + 1;
    return value;
  }

  absl::StatusOr<int64_t> readInt() {
    size_t start = pos_;
    while (pos_ < text_.size() && std::isdigit(text_[pos_])) ++pos_;
    if (start == pos_) return error("expected an integer");
    return std::stoll(std::string(text_.substr(start, pos_ - start)));
  }

  bool consume(std::string_view token) {
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(text_[pos_])) ++pos_;
  }
  absl::Status error(const std::string& what) const {
    return absl::InvalidArgumentError("invalid rules option at offset " +
                                      std::to_string(pos_) + ": " + what);
  }

  std::string_view text_;
  size_t pos_ = 0;
};

bool matches(const FragmentInfo& info, Op op) {
  FragmentOp fragment(op);
  return fragment.meshName() == info.mesh_name &&
         fragment.origins() == info.origins &&
         (!info.call_counter ||
          mpmd_internal::callCounterOf(op) == info.call_counter) &&
         (!info.stage || fragment.stageId() == info.stage);
}

Op findFragment(FuncOp func, const FragmentInfo& info) {
  for (Op op : func.body()) {
    if (isa<FragmentOp>(op) && matches(info, op)) return op;
  }
  return Op();
}

void scheduleFunction(FuncOp func, const std::vector<Rule>& rules) {
  mpmd_internal::ControlDeps deps;
  for (const Rule& rule : rules) {
    for (size_t i = 0; i + 1 < rule.size(); ++i) {
      Op first = findFragment(func, rule[i]);
      Op second = findFragment(func, rule[i + 1]);
      if (!first || !second || first == second ||
          mpmd_internal::dependsOn(first, second)) {
        continue;
      }
      deps[second].push_back(first);
    }
  }
  if (!deps.empty()) mpmd_internal::sortTopologically(func.body(), deps);
}

}  // namespace

absl::Status ruleBasedSchedule(Module& module, const PassOptions& options) {
  SK_ASSIGN_OR_RETURN(std::vector<Rule> rules,
                      RuleReader(options.get("rules")).rules());
  for (FuncOp func : mpmdFunctions(module)) {
    if (func.body()) scheduleFunction(func, rules);
  }
  return absl::OkStatus();
}

}  // namespace shardkit::mpmd
