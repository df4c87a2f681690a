// Fragment infos and the text of fragment merge rules.
#include "src/mpmd/fragment_info.h"

#include <algorithm>
#include <cctype>

#include "absl/status/status.h"
#include "shardkit/dialect/mpmd/mpmd_ops.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/mpmd/merge_fragment_ops.h"

namespace shardkit::mpmd::mpmd_internal {
namespace {

bool originLess(const UserOrigin& a, const UserOrigin& b) {
  return a.name != b.name ? a.name < b.name
                          : a.transpose_count < b.transpose_count;
}

// A cursor over rule text; every parse error names what was expected.
class RuleReader {
 public:
  explicit RuleReader(std::string_view text) : text_(text) {}

  bool done() const { return pos_ >= text_.size(); }
  bool consume(std::string_view token) {
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  bool peek(std::string_view token) const {
    return text_.substr(pos_, token.size()) == token;
  }
  absl::Status expected(std::string_view what) const {
    return absl::InvalidArgumentError(
        toAbsl(strCat("invalid fragment rule: expected ", what, " at '",
                      text_.substr(pos_), "'")));
  }
  absl::StatusOr<int64_t> integer(std::string_view what) {
    size_t start = pos_;
    while (pos_ < text_.size() &&
           std::isdigit(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
    if (start == pos_) return expected(what);
    return std::stoll(std::string(text_.substr(start, pos_ - start)));
  }
  absl::StatusOr<std::string> quoted(std::string_view what) {
    if (!consume("\"")) return expected(what);
    size_t end = text_.find('"', pos_);
    if (end == std::string_view::npos) return expected("a closing '\"'");
    std::string value(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return value;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

absl::StatusOr<UserOrigin> parseOrigin(RuleReader& r) {
  UserOrigin origin;
  SK_ASSIGN_OR_RETURN(origin.name, r.quoted("a quoted origin"));
  if (r.consume("(")) {
    SK_ASSIGN_OR_RETURN(origin.transpose_count, r.integer("a transpose count"));
    if (!r.consume(")")) return r.expected("')'");
  }
  return origin;
}

absl::Status parseField(RuleReader& r, FragmentInfo& info) {
  if (r.consume("stage=")) {
    SK_ASSIGN_OR_RETURN(info.stage_id, r.integer("a stage"));
  } else if (r.consume("call_counter=")) {
    SK_ASSIGN_OR_RETURN(info.call_counter, r.integer("a call counter"));
  } else if (r.consume("is_weight_gradient=")) {
    if (r.consume("true")) {
      info.is_weight_gradient = true;
    } else if (!r.consume("false")) {
      return r.expected("'true' or 'false'");
    }
  } else if (r.consume("mesh_name=")) {
    SK_ASSIGN_OR_RETURN(info.mesh_name, r.quoted("a quoted mesh name"));
  } else {
    return r.expected(
        "'stage=', 'call_counter=', 'is_weight_gradient=' or 'mesh_name='");
  }
  return absl::OkStatus();
}

absl::StatusOr<FragmentInfo> parseInfo(RuleReader& r) {
  FragmentInfo info;
  if (!r.consume("FragmentInfo(origins=[")) {
    return r.expected("'FragmentInfo(origins=['");
  }
  while (!r.peek("]")) {
    SK_ASSIGN_OR_RETURN(UserOrigin origin, parseOrigin(r));
    info.origins.push_back(std::move(origin));
    if (!r.consume(",")) break;
  }
  if (!r.consume("]")) return r.expected("']'");
  while (r.consume(",")) SK_RETURN_IF_ERROR(parseField(r, info));
  if (!r.consume(")")) return r.expected("')'");
  std::sort(info.origins.begin(), info.origins.end(), originLess);
  return info;
}

absl::StatusOr<FragmentMergeRule> parseRule(RuleReader& r) {
  FragmentMergeRule rule;
  if (!r.consume("FragmentMergeRule(sources=[")) {
    return r.expected("'FragmentMergeRule(sources=['");
  }
  while (!r.peek("]")) {
    SK_ASSIGN_OR_RETURN(FragmentInfo info, parseInfo(r));
    rule.sources.push_back(std::move(info));
    if (!r.consume(",")) break;
  }
  if (!r.consume("],target=")) return r.expected("',' or '],target='");
  SK_ASSIGN_OR_RETURN(rule.target, parseInfo(r));
  if (!r.consume(")")) return r.expected("')'");
  return rule;
}

}  // namespace

FragmentInfo fragmentInfoOf(Op fragment) {
  FragmentOp f(fragment);
  FragmentInfo info;
  info.origins = f.origins();
  std::sort(info.origins.begin(), info.origins.end(), originLess);
  info.stage_id = f.stageId();
  info.call_counter = callCounterOf(fragment);
  info.is_weight_gradient = fragment.hasAttr(kSplitDropTransferredAttr);
  info.mesh_name = std::string(f.meshName());
  return info;
}

void setFragmentInfo(Op fragment, const FragmentInfo& info) {
  std::vector<Attribute> origins;
  for (const UserOrigin& origin : info.origins)
    origins.push_back(userOriginAttr(origin));
  fragment.setAttr(kOriginAttr, Attribute::array(std::move(origins)));
  fragment.removeAttr("stage_id");
  if (info.stage_id)
    fragment.setAttr("stage_id", Attribute::integer(*info.stage_id));
  fragment.removeAttr(kCallCounterAttr);
  if (info.call_counter)
    fragment.setAttr(kCallCounterAttr,
                     Attribute::integer(*info.call_counter, "ui32"));
  fragment.removeAttr(kSplitDropTransferredAttr);
  if (info.is_weight_gradient)
    fragment.setAttr(kSplitDropTransferredAttr, Attribute::unit());
}

bool matches(const FragmentInfo& pattern, const FragmentInfo& fragment_info) {
  return pattern.origins == fragment_info.origins &&
         pattern.stage_id == fragment_info.stage_id &&
         pattern.call_counter == fragment_info.call_counter &&
         pattern.is_weight_gradient == fragment_info.is_weight_gradient &&
         (!pattern.mesh_name || pattern.mesh_name == fragment_info.mesh_name);
}

absl::StatusOr<std::vector<FragmentMergeRule>> parseFragmentMergeRules(
    std::string_view text) {
  std::vector<FragmentMergeRule> rules;
  RuleReader r(text);
  while (!r.done()) {
    SK_ASSIGN_OR_RETURN(FragmentMergeRule rule, parseRule(r));
    rules.push_back(std::move(rule));
    if (!r.done() && !r.consume(",")) return r.expected("',' between rules");
  }
  return rules;
}

}  // namespace shardkit::mpmd::mpmd_internal
