// DOT and JSON views of a module's sharded graph.
#include "shardkit/propagation/graph_dump.h"

#include <optional>
#include <string_view>
#include <vector>

#include "shardkit/asm/module_io.h"
#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sdy_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/rules/registry.h"
#include "shardkit/support/enum_table.h"
#include "shardkit/support/strings.h"
#include "shardkit/support/utf8.h"

namespace shardkit {
namespace {

std::string quotedJson(std::string_view text) {
  std::string out;
  appendJsonString(out, text);
  return out;
}

// The sharding of `value` as `#sdy.sharding<...>`, or "".
std::string shardingText(Value value) {
  std::optional<TensorSharding> sharding = getSharding(value);
  return sharding ? toAttrString(*sharding) : std::string();
}

std::string shardingJson(Value value) {
  std::string text = shardingText(value);
  return text.empty() ? std::string("null") : quotedJson(text);
}

enum class NodeKind {
  kOp,
  kCollective,
  kReshard,
  kConstraint,
  kLast = kConstraint
};

// How each kind of node is named (JSON) and drawn (dot).
struct NodeStyle {
  std::string_view name;
  std::string_view dot_attrs;
};
constexpr EnumTable<NodeKind, NodeStyle> kNodeStyles = {{
    {NodeKind::kOp, {"op", ""}},
    {NodeKind::kCollective, {"collective", ", style=filled, fillcolor=salmon"}},
    {NodeKind::kReshard, {"reshard", ", style=filled, fillcolor=gold"}},
    {NodeKind::kConstraint,
     {"constraint", ", style=filled, fillcolor=lightblue"}},
}};

NodeKind kindOf(Op op) {
  if (op.hasTrait(OpTrait::kCollective)) return NodeKind::kCollective;
  if (isa<sdy::ReshardOp>(op) || op.hasTrait(OpTrait::kReshardLike))
    return NodeKind::kReshard;
  if (isa<sdy::ShardingConstraintOp>(op)) return NodeKind::kConstraint;
  return NodeKind::kOp;
}

// The ops of `func`'s body and nested regions, in pre-order.
std::vector<Op> bodyOps(FuncOp func) {
  std::vector<Op> ops;
  auto add = [&](Op op) { ops.push_back(op); };
  Module::walkBlock(func.body(), add);
  return ops;
}

// What both writers work with: the module, the printed names of its values
// (by value id) and the text written so far.
class GraphWriter {
 public:
  explicit GraphWriter(Module& module)
      : module_(module), names_(printedNames(module)) {}

 protected:
  Module& module_;
  std::vector<std::string> names_;
  std::string out_;
};

class DotWriter : public GraphWriter {
 public:
  using GraphWriter::GraphWriter;

  std::string run() {
    out_ = "digraph shardkit {\n  node [shape=box, fontname=\"monospace\"];\n";
    int index = 0;
    for (Op op : module_.functions()) writeFunction(FuncOp(op), index++);
    out_ += "}\n";
    return out_;
  }

 private:
  std::string valueNode(Value v) {
    if (v.isBlockArgument()) return strCat("v", v.id());
    return strCat("op", v.definingOp().id());
  }

  void writeFunction(FuncOp func, int index) {
    strAppend(out_, "  subgraph cluster_", index, " {\n    label=");
    appendJsonString(out_, strCat("@", func.name()));
    out_ += ";\n";
    for (Value arg : func.body().arguments()) writeArgument(arg);
    for (Op op : bodyOps(func)) {
      forEachBlock(op, [&](Block block) {
        for (Value arg : block.arguments()) writeArgument(arg);
      });
      writeOp(op);
    }
    out_ += "  }\n";
  }

  void writeArgument(Value arg) {
    std::string label = strCat(names_[arg.id()], " : ", arg.type().str());
    if (std::string s = shardingText(arg); !s.empty())
      strAppend(label, "\n", s);
    strAppend(out_, "    ", valueNode(arg), " [shape=ellipse, label=");
    appendJsonString(out_, label);
    out_ += "];\n";
  }

  void writeOp(Op op) {
    std::string label;
    for (Value result : op.results()) {
      strAppend(label, names_[result.id()], " : ", result.type().str(), "\n");
    }
    label += op.name();
    for (Value result : op.results()) {
      if (std::string s = shardingText(result); !s.empty())
        strAppend(label, "\n", s);
    }
    strAppend(out_, "    op", op.id(), " [label=");
    appendJsonString(out_, label);
    strAppend(out_, kNodeStyles[kindOf(op)].dot_attrs, "];\n");
    for (Value operand : op.operands()) {
      strAppend(out_, "    ", valueNode(operand), " -> op", op.id(), ";\n");
    }
  }
};

class JsonWriter : public GraphWriter {
 public:
  using GraphWriter::GraphWriter;

  std::string run() {
    out_ = "{\n  \"schema\": \"shardkit.graph/1\",\n  \"meshes\": [";
    writeMeshes();
    out_ += "],\n  \"functions\": [";
    bool first = true;
    for (Op op : module_.functions()) {
      out_ += first ? "\n" : ",\n";
      first = false;
      writeFunction(FuncOp(op));
    }
    out_ += first ? "]\n}\n" : "\n  ]\n}\n";
    return out_;
  }

 private:
  void writeMeshes() {
    bool first = true;
    for (Op op : module_.body().ops()) {
      auto mesh = dynCast<sdy::MeshOp>(op);
      if (!mesh) continue;
      out_ += first ? "\n" : ",\n";
      first = false;
      strAppend(out_, "    {\"name\": ", quotedJson(mesh.symName()),
                ", \"axes\": [");
      const Mesh& m = mesh.mesh();
      for (size_t i = 0; i < m.axes.size(); ++i) {
        strAppend(out_, i ? ", " : "",
                  "{\"name\": ", quotedJson(m.axes[i].name),
                  ", \"size\": ", m.axes[i].size, "}");
      }
      out_ += "], \"device_ids\": [";
      for (size_t i = 0; i < m.device_ids.size(); ++i)
        strAppend(out_, i ? ", " : "", m.device_ids[i]);
      out_ += "]}";
    }
    if (!first) out_ += "\n  ";
  }

  std::string valueJson(Value v) {
    return strCat("{\"name\": ", quotedJson(names_[v.id()]),
                  ", \"type\": ", quotedJson(v.type().str()),
                  ", \"sharding\": ", shardingJson(v), "}");
  }

  void writeFunction(FuncOp func) {
    strAppend(out_, "    {\"name\": ", quotedJson(func.name()),
              ",\n     \"arguments\": [");
    std::vector<Value> args = func.body().arguments();
    for (size_t i = 0; i < args.size(); ++i)
      strAppend(out_, i ? ", " : "", valueJson(args[i]));
    out_ += "],\n     \"results\": [";
    std::vector<Type> results = func.resultTypes();
    for (unsigned i = 0; i < results.size(); ++i) {
      const TensorSharding* s = findFuncResultSharding(func, i);
      strAppend(out_, i ? ", " : "",
                "{\"type\": ", quotedJson(results[i].str()), ", \"sharding\": ",
                s ? quotedJson(toAttrString(*s)) : std::string("null"), "}");
    }
    out_ += "],\n     \"ops\": [";
    bool first = true;
    for (Op op : bodyOps(func)) {
      out_ += first ? "\n" : ",\n";
      first = false;
      writeOp(op);
    }
    out_ += first ? "]}" : "\n     ]}";
  }

  void writeOp(Op op) {
    Op parent = op.parentOp();
    strAppend(out_, "       {\"id\": ", op.id(),
              ", \"name\": ", quotedJson(op.name()), ", \"kind\": \"",
              kNodeStyles[kindOf(op)].name, "\", \"parent\": ",
              parent && !isa<FuncOp>(parent) ? strCat(parent.id())
                                             : std::string("null"),
              ", \"location\": ", quotedJson(toString(locationOf(op))),
              ",\n        \"operands\": [");
    std::vector<Value> operands = op.operands();
    for (size_t i = 0; i < operands.size(); ++i)
      strAppend(out_, i ? ", " : "", quotedJson(names_[operands[i].id()]));
    out_ += "],\n        \"results\": [";
    std::vector<Value> results = op.results();
    for (size_t i = 0; i < results.size(); ++i)
      strAppend(out_, i ? ", " : "", valueJson(results[i]));
    out_ += "],\n        \"rule\": ";
    absl::StatusOr<std::optional<OpShardingRule>> rule = shardingRuleFor(op);
    if (rule.ok() && rule->has_value()) {
      appendJsonString(out_, toAttrString(**rule));
    } else {
      out_ += "null";
    }
    out_ += "}";
  }
};

}  // namespace

std::string dumpGraphDot(Module& module) { return DotWriter(module).run(); }

std::string dumpGraphJson(Module& module) { return JsonWriter(module).run(); }

}  // namespace shardkit
