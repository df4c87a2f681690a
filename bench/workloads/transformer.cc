#include "bench/workloads/transformer.h"

#include <string>
#include <utility>
#include <vector>

#include "shardkit/dialect/func/func_ops.h"
#include "shardkit/dialect/sdy/sharding_site.h"
#include "shardkit/dialect/stablehlo/stablehlo_attrs.h"

namespace shardkit::bench {
namespace {

constexpr int64_t kOpsPerLayer = 31;

// Appends ops to one block.
class Builder {
 public:
  Builder(Module& m, Block block) : m_(m), block_(block) {}

  Type tensor(std::vector<int64_t> dims) {
    return m_.types().rankedTensor(dims, "f32");
  }

  Value op(std::string_view name, std::vector<Value> operands, Type result,
           std::vector<NamedAttribute> attrs = {}, unsigned regions = 0) {
    OperationState state(m_.opName(name));
    state.operands = std::move(operands);
    state.result_types = {result};
    for (NamedAttribute& a : attrs) state.addAttr(a.name, std::move(a.value));
    state.num_regions = regions;
    last_ = m_.createOp(state);
    block_.pushBack(last_);
    return last_.result(0);
  }
  Op last() const { return last_; }

  Value dot(Value lhs, Value rhs, DotDimensionNumbers dims,
            std::vector<int64_t> out) {
    return op("stablehlo.dot_general", {lhs, rhs}, tensor(std::move(out)),
              {{"dot_dimension_numbers", toAttribute(dims)}});
  }
  Value reshape(Value v, std::vector<int64_t> out) {
    return op("stablehlo.reshape", {v}, tensor(std::move(out)));
  }
  Value transpose(Value v, std::vector<int64_t> perm,
                  std::vector<int64_t> out) {
    return op("stablehlo.transpose", {v}, tensor(std::move(out)),
              {{"permutation", Attribute::i64Array(std::move(perm))}});
  }
  Value broadcast(Value v, std::vector<int64_t> dims,
                  std::vector<int64_t> out) {
    return op("stablehlo.broadcast_in_dim", {v}, tensor(std::move(out)),
              {{"broadcast_dimensions", Attribute::i64Array(std::move(dims))}});
  }
  Value binary(std::string_view name, Value a, Value b) {
    return op(name, {a, b}, a.type());
  }
  Value unary(std::string_view name, Value a) {
    return op(name, {a}, a.type());
  }

  // reduce(v, init) over `dim` with `combiner` (add or maximum).
  Value reduce(Value v, Value init, int64_t dim, std::string_view combiner,
               std::vector<int64_t> out) {
    Value result = op("stablehlo.reduce", {v, init}, tensor(std::move(out)),
                      {{"dimensions", Attribute::i64Array({dim})}}, 1);
    Op reduce_op = last_;
    Block body = reduce_op.region(0).addBlock();
    Type scalar = tensor({});
    Value lhs = body.addArgument(scalar);
    Value rhs = body.addArgument(scalar);
    Builder inner(m_, body);
    Value combined = inner.binary(combiner, lhs, rhs);
    OperationState ret(m_.opName("stablehlo.return"));
    ret.operands = {combined};
    body.pushBack(m_.createOp(ret));
    last_ = reduce_op;
    return result;
  }

 private:
  Module& m_;
  Block block_;
  Op last_;
};

TensorSharding sharding(std::vector<std::vector<std::string>> dims) {
  TensorSharding s;
  s.mesh = MeshOrRef::ref("mesh");
  for (auto& axes : dims) {
    AxisRefVector refs;
    for (std::string& a : axes) refs.push_back(AxisRef(std::move(a)));
    s.dim_shardings.push_back(
        DimensionSharding(std::move(refs), /*is_closed=*/true));
  }
  return s;
}

}  // namespace

int64_t layersForOps(int64_t ops) {
  return ops / kOpsPerLayer > 0 ? ops / kOpsPerLayer : 1;
}

std::unique_ptr<Module> buildTransformer(const TransformerShape& s) {
  auto module = std::make_unique<Module>();
  Module& m = *module;
  OperationState mesh_state(m.opName("sdy.mesh"));
  mesh_state.addAttr("sym_name", Attribute::string("mesh"));
  mesh_state.addAttr("mesh", Attribute::of(Mesh({{"data", 8}, {"model", 4}})));
  m.body().pushBack(m.createOp(mesh_state));

  const int64_t B = s.batch, S = s.seq, D = s.model, H = s.heads, Dh = D / H,
                F = s.hidden;
  auto t = [&](std::vector<int64_t> dims) {
    return m.types().rankedTensor(dims, "f32");
  };
  std::vector<Type> inputs = {t({B, S, D})};
  for (int64_t l = 0; l < s.layers; ++l) {
    for (int i = 0; i < 4; ++i) inputs.push_back(t({D, D}));  // q, k, v, out
    inputs.push_back(t({D, F}));
    inputs.push_back(t({F}));
    inputs.push_back(t({F, D}));
  }
  FuncOp func = FuncOp::create(m, "main", inputs, {t({B, S, D})});
  m.body().pushBack(func.op());
  func.setArgAttr(0, kShardingAttr,
                  Attribute::of(sharding({{"data"}, {}, {}})));

  Block body = func.body();
  Builder b(m, body);
  Value neg_inf =
      b.op("stablehlo.constant", {}, t({}),
           {{"value", Attribute::elements("dense<0xFF800000>", t({}))}});
  Value zero =
      b.op("stablehlo.constant", {}, t({}),
           {{"value", Attribute::elements("dense<0.000000e+00>", t({}))}});
  Value x = func.argument(0);
  unsigned arg = 1;
  for (int64_t l = 0; l < s.layers; ++l) {
    Value wq = func.argument(arg++), wk = func.argument(arg++),
          wv = func.argument(arg++), wo = func.argument(arg++),
          w1 = func.argument(arg++), b1 = func.argument(arg++),
          w2 = func.argument(arg++);
    for (unsigned a = arg - 7; a < arg - 4; ++a) {
      func.setArgAttr(a, kShardingAttr,
                      Attribute::of(sharding({{}, {"model"}})));
    }
    func.setArgAttr(arg - 4, kShardingAttr,
                    Attribute::of(sharding({{"model"}, {}})));
    func.setArgAttr(arg - 3, kShardingAttr,
                    Attribute::of(sharding({{}, {"model"}})));
    func.setArgAttr(arg - 1, kShardingAttr,
                    Attribute::of(sharding({{"model"}, {}})));

    auto project_heads = [&](Value w) {
      Value p = b.dot(x, w, {{}, {}, {2}, {0}}, {B, S, D});
      Value r = b.reshape(p, {B, S, H, Dh});
      return b.transpose(r, {0, 2, 1, 3}, {B, H, S, Dh});
    };
    Value q = project_heads(wq);
    Value k = project_heads(wk);
    Value v = project_heads(wv);
    Value scores = b.dot(q, k, {{0, 1}, {0, 1}, {3}, {3}}, {B, H, S, S});
    Value max = b.reduce(scores, neg_inf, 3, "stablehlo.maximum", {B, H, S});
    Value shifted = b.binary("stablehlo.subtract", scores,
                             b.broadcast(max, {0, 1, 2}, {B, H, S, S}));
    Value e = b.unary("stablehlo.exponential", shifted);
    Value sum = b.reduce(e, zero, 3, "stablehlo.add", {B, H, S});
    Value p = b.binary("stablehlo.divide", e,
                       b.broadcast(sum, {0, 1, 2}, {B, H, S, S}));
    Value ctx = b.dot(p, v, {{0, 1}, {0, 1}, {3}, {2}}, {B, H, S, Dh});
    Value merged =
        b.reshape(b.transpose(ctx, {0, 2, 1, 3}, {B, S, H, Dh}), {B, S, D});
    Value attn = b.dot(merged, wo, {{}, {}, {2}, {0}}, {B, S, D});
    x = b.binary("stablehlo.add", x, attn);
    Value h = b.dot(x, w1, {{}, {}, {2}, {0}}, {B, S, F});
    h = b.binary("stablehlo.add", h, b.broadcast(b1, {2}, {B, S, F}));
    h = b.unary("stablehlo.tanh", h);
    Value y = b.dot(h, w2, {{}, {}, {2}, {0}}, {B, S, D});
    x = b.binary("stablehlo.add", x, y);
  }
  OperationState ret(m.opName("func.return"));
  ret.operands = {x};
  body.pushBack(m.createOp(ret));
  return module;
}

}  // namespace shardkit::bench
