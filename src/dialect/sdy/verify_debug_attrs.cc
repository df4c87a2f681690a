// The propagation debug records (docs/propagation.md, "Why a tensor got its
// sharding") verified like every attribute: `sdy.propagation_edges` and its
// `block_arg_`/`result_` arrays, `sdy.sharding_origins` and its arrays, and
// `sdy.sharding_origin_name`.
#include <optional>
#include <string>
#include <vector>

#include "shardkit/core/verify_debug_info.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/support/strings.h"
#include "src/dialect/verify_util.h"

namespace shardkit::ir_internal {
namespace {

// True if `op` or one of its operands has a sharding the record can refer to.
bool referencesSharding(Op op) {
  for (unsigned i = 0; i < op.numResults(); ++i) {
    if (getSharding(op.result(i))) return true;
  }
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    if (getSharding(op.operand(i))) return true;
  }
  return false;
}

absl::Status verifyOpEdges(Op op, const PropagationEdges& edges,
                           const VerifyContext& context) {
  // An edge op's record counts the edge's sources as its operands, which
  // are not the op's own (the reference skips the index check for
  // sdy.func_data_flow_edge).
  std::optional<EdgeValueCounts> counts;
  if (!isa<sdy::DataFlowEdgeOp, sdy::FuncDataFlowEdgeOp>(op)) {
    counts = EdgeValueCounts{op.numOperands(), op.numResults()};
  }
  SK_RETURN_IF_ERROR(verifyPropagationEdges(edges, context.meshes(), counts));
  if (!referencesSharding(op)) {
    return verifyError(
        "expected propagation edges attr to reference a sharding");
  }
  return absl::OkStatus();
}

absl::Status verifyEdgesArray(const Attribute& attr,
                              const VerifyContext& context) {
  const std::vector<Attribute>* list = attr.asArray();
  bool typed = list != nullptr;
  for (size_t i = 0; typed && i < list->size(); ++i) {
    typed = (*list)[i].as<PropagationEdges>() != nullptr;
  }
  if (!typed) {
    return verifyError(
        strCat("should have a propagation edges attribute of type "
               "ArrayAttr<PropagationEdgesAttr> for attr named '",
               kPropagationEdgesAttrs.result, "' or '",
               kPropagationEdgesAttrs.block_arg, "'"));
  }
  for (const Attribute& element : *list) {
    SK_RETURN_IF_ERROR(verifyPropagationEdges(*element.as<PropagationEdges>(),
                                              context.meshes(), std::nullopt));
  }
  return absl::OkStatus();
}

bool isOriginDict(const Attribute& attr) {
  const std::vector<NamedAttribute>* entries = attr.asDict();
  if (!entries) return false;
  for (const NamedAttribute& entry : *entries) {
    if (!entry.value.asString()) return false;
  }
  return true;
}

absl::Status originsError(std::string_view name, std::string_view type) {
  return verifyError(strCat("should have a sharding origins attribute of type ",
                            type, " for attr named '", name, "'"));
}

absl::Status edgesTypeError() {
  return verifyError(
      strCat("should have a propagation edges attribute of type "
             "PropagationEdgesAttr for attr named '",
             kPropagationEdgesAttr, "'"));
}

}  // namespace

absl::Status verifyDebugAttr(Op op, std::string_view name,
                             const Attribute& attr,
                             const VerifyContext& context) {
  if (name == kPropagationEdgesAttr) {
    const PropagationEdges* edges = attr.as<PropagationEdges>();
    if (!edges) return edgesTypeError();
    return verifyOpEdges(op, *edges, context);
  }
  if (kPropagationEdgesAttrs.isSunk(name)) {
    return verifyEdgesArray(attr, context);
  }
  if (name == kShardingOriginsAttr) {
    // A dictionary on a constraint or edge, one per result on other ops.
    if (isOriginDict(attr)) return absl::OkStatus();
    const std::vector<Attribute>* list = attr.asArray();
    bool ok = list && list->size() == op.numResults();
    for (size_t i = 0; ok && i < list->size(); ++i)
      ok = isOriginDict((*list)[i]);
    if (ok) return absl::OkStatus();
    return originsError(name,
                        "DictionaryAttr or ArrayAttr<DictionaryAttr> with one "
                        "dictionary per result, mapping axes to strings,");
  }
  if (kShardingOriginsAttrs.isSunk(name)) {
    const std::vector<Attribute>* list = attr.asArray();
    bool ok = list != nullptr;
    for (size_t i = 0; ok && i < list->size(); ++i)
      ok = isOriginDict((*list)[i]);
    if (ok) return absl::OkStatus();
    return originsError(
        name, "ArrayAttr<DictionaryAttr>, each mapping axes to strings,");
  }
  if (name == kShardingOriginNameAttr && !attr.asString()) {
    return verifyError(strCat("should have a string attribute for attr named '",
                              kShardingOriginNameAttr, "'"));
  }
  return absl::OkStatus();
}

absl::Status verifyFuncDebugAttr(std::string_view name, const Attribute& attr,
                                 const VerifyContext& context) {
  if (name == kPropagationEdgesAttr) {
    const PropagationEdges* edges = attr.as<PropagationEdges>();
    if (!edges) return edgesTypeError();
    return verifyPropagationEdges(*edges, context.meshes(),
                                  EdgeValueCounts{1, 1});
  }
  if (name == kShardingOriginsAttr && !isOriginDict(attr)) {
    return originsError(name, "DictionaryAttr, mapping axes to strings,");
  }
  return absl::OkStatus();
}

}  // namespace shardkit::ir_internal
