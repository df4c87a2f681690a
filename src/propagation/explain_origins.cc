// --explain-op's origins section (explain_origins.h).
#include "src/propagation/explain_origins.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/attr_names.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/factor_propagation/resolved_axis.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/parse.h"

namespace shardkit::explain_internal {
namespace {

const std::vector<NamedAttribute>* dictAt(const Attribute& list,
                                          unsigned index) {
  const std::vector<Attribute>* entries = list.asArray();
  if (!entries || index >= entries->size()) return nullptr;
  return (*entries)[index].asDict();
}

// The origin recorded for `axis` in `record`: its own entry, or that of an
// axis of the same mesh axis containing it or contained in it (the record
// of a split or merged axis), as propagation looks origins up.
std::optional<std::string> originOf(const std::vector<NamedAttribute>& record,
                                    const AxisRef& axis) {
  std::optional<std::string> related;
  for (const NamedAttribute& entry : record) {
    const std::string* origin = entry.value.asString();
    if (!origin) continue;
    // Keys are axis refs without their quotes: `a`, `c:(1)2`.
    size_t colon = entry.name.find(':');
    absl::StatusOr<AxisRef> key = parseAxisRef(
        colon == std::string::npos ? strCat("\"", entry.name, "\"")
                                   : strCat("\"", entry.name.substr(0, colon),
                                            "\"", entry.name.substr(colon)));
    if (!key.ok()) continue;
    if (*key == axis) return *origin;
    if (!related && (contains(*key, axis) || contains(axis, *key))) {
      related = *origin;
    }
  }
  return related;
}

std::string cellText(const FactorSharding* factor, const Mesh& mesh,
                     const std::vector<NamedAttribute>* record) {
  if (factor == nullptr) return "-";
  std::string out;
  for (const ResolvedAxis& resolved : factor->axes) {
    AxisRef axis = toAxisRef(resolved, mesh);
    std::optional<std::string> origin =
        record ? originOf(*record, axis) : std::nullopt;
    strAppend(out, out.empty() ? "" : ", ", toString(axis), " <- ",
              origin ? *origin : "?");
  }
  return out.empty() ? "{}" : out;
}

}  // namespace

std::string markdownTable(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const std::vector<std::string>& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (size_t c = 0; c < row.size(); ++c) {
      widths[c] = std::max(widths[c], row[c].size());
    }
  }
  auto append = [&](std::string& out, const std::vector<std::string>& row) {
    out += "|";
    for (size_t c = 0; c < widths.size(); ++c) {
      std::string cell = c < row.size() ? row[c] : "";
      strAppend(out, " ", cell, std::string(widths[c] - cell.size(), ' '),
                " |");
    }
    out += "\n";
  };
  std::string out;
  if (rows.empty()) return out;
  append(out, rows[0]);
  out += "|";
  for (size_t w : widths) strAppend(out, std::string(w + 2, '-'), "|");
  out += "\n";
  for (size_t r = 1; r < rows.size(); ++r) append(out, rows[r]);
  return out;
}

const std::vector<NamedAttribute>* originRecord(Value value) {
  Value slot = shardableValue(value);
  if (!slot) return nullptr;
  if (slot.isBlockArgument()) {
    Op parent = slot.ownerBlock().parentOp();
    if (isa<FuncOp>(parent)) {
      return FuncOp(parent)
          .argAttr(slot.index(), kShardingOriginsAttr)
          .asDict();
    }
    // A data-flow op whose edges were sunk: its arguments' records, one per
    // owner when every owner had one.
    std::vector<Value> owners = dataFlowEdgeOwners(parent);
    const Attribute& list = parent.attr(kShardingOriginsAttrs.block_arg);
    auto it = std::find(owners.begin(), owners.end(), slot);
    if (it == owners.end()) return nullptr;
    return dictAt(list, static_cast<unsigned>(it - owners.begin()));
  }
  Op owner = slot.definingOp();
  const Attribute& record = owner.attr(kShardingOriginsAttr);
  if (const std::vector<NamedAttribute>* dict = record.asDict()) return dict;
  if (const std::vector<NamedAttribute>* dict = dictAt(record, slot.index())) {
    return dict;
  }
  if (isDataFlowOp(owner)) {
    std::vector<Value> owners;
    for (Value o : dataFlowEdgeOwners(owner)) {
      if (!o.isBlockArgument()) owners.push_back(o);
    }
    auto it = std::find(owners.begin(), owners.end(), slot);
    if (it != owners.end()) {
      return dictAt(owner.attr(kShardingOriginsAttrs.result),
                    static_cast<unsigned>(it - owners.begin()));
    }
  }
  return nullptr;
}

std::string originsSection(Op op, const ShardingProjection& before,
                           const OpShardingRule& rule, const Mesh& mesh,
                           const std::vector<std::string>& labels,
                           const std::vector<Value>& values) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header = {"tensor"};
  for (int64_t f = 0; f < rule.numFactors(); ++f) {
    header.push_back(strCat(factorSymbol(f), ": ", rule.factor_sizes[f]));
  }
  rows.push_back(header);
  bool any_record = false;
  for (int64_t t = 0; t < before.numTensors(); ++t) {
    const std::vector<NamedAttribute>* record =
        t < static_cast<int64_t>(values.size()) && values[t]
            ? originRecord(values[t])
            : nullptr;
    any_record = any_record || record;
    std::vector<std::string> row = {labels[t]};
    for (int64_t f = 0; f < rule.numFactors(); ++f) {
      row.push_back(cellText(before.tensor(t).find(f), mesh, record));
    }
    rows.push_back(std::move(row));
  }
  std::string out;
  if (any_record) {
    strAppend(out, "\nwhere each axis came from (sdy.sharding_origins):\n",
              markdownTable(rows));
  } else {
    out +=
        "\nno sharding origins recorded for these tensors: propagate with "
        "debug-sharding-origins=true to see where each axis came from\n";
  }
  if (const PropagationEdges* edges =
          op.attr(kPropagationEdgesAttr).as<PropagationEdges>()) {
    out += "\nsteps that changed this op (sdy.propagation_edges):\n";
    for (const PropagationStep& step : edges->steps) {
      for (const AxisPropagation& entry : step.axes) {
        strAppend(out, "  step ", step.step, ": ", toString(entry), "\n");
      }
    }
  }
  return out;
}

}  // namespace shardkit::explain_internal
