// A deterministic generator of random, valid sdy-annotated modules for the
// property tests of propagation and of the propagation pipeline.
//
// randomModuleText(seed) returns the MLIR text of one module: one or two
// meshes, a public `@main` whose arguments and results may carry shardings,
// and a random DAG of StableHLO and sdy ops over statically shaped f32
// tensors. The same seed always gives the same text: std::mt19937_64 seeded
// with it, and no std:: distributions (their output differs between standard
// libraries).
//
// What it covers:
//   - meshes of 1-3 axes sized from {1, 2, 3, 4, 8} (a size-1 axis happens);
//   - shardings with open and closed dimensions, explicitly replicated axes,
//     priorities p0-p2, sub-axes such as "b":(2)2; fully open, fully closed
//     or missing shardings;
//   - dimensions that are products of small numbers, so that divisible and
//     non-divisible shardings both occur, with size-1 and (rarely) size-0
//     dimensions;
//   - elementwise unary and binary ops, transpose, reshape (split, merge,
//     unit dimensions, flatten), broadcast_in_dim, dot_general (batching and
//     contracting dimensions), reduce (compact, or with a reducer body and
//     one or two inputs), concatenate, slice (with strides), constants,
//     sdy.sharding_constraint, sdy.propagation_barrier,
//     stablehlo.optimization_barrier, stablehlo.while with a trivial loop
//     body, sdy.sharding_group, and random `sdy.sharding`s on op results.
//
// Every sharding is valid by construction (random_sharding.h) and every op
// well typed: a module that fails to parse or verify is a bug of the
// generator, the reader or the verifier.
//
// Sharding groups: the members of a group have one shape and at most one of
// them has a sharding of its own, so no group starts with conflicting
// shardings (which the reference rewrites with a warning).
#ifndef SHARDKIT_TESTS_UNIT_PROPAGATION_RANDOM_MODULE_H_
#define SHARDKIT_TESTS_UNIT_PROPAGATION_RANDOM_MODULE_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "unit/propagation/random_sharding.h"

namespace shardkit::testing {

struct RandomModuleOptions {
  // Wrap every result of stablehlo.while and stablehlo.optimization_barrier
  // in an `sdy.data_flow_edge` (what -sdy-add-data-flow-edges produces); a
  // sharding the user gives such a result is then on the edge.
  bool data_flow_edges = false;
  // Sometimes put values of one shape in an `sdy.sharding_group`.
  bool sharding_groups = true;
  // Rarely make a dimension of size 0.
  bool zero_sized_dims = true;
  int min_ops = 3;
  int max_ops = 14;
};

namespace random_module_internal {

struct Val {
  std::string ref;  // `%3`, `%5#1`, `%arg0`
  Shape shape;
  std::string elem = "f32";
  // The value has a sharding in the text (its own or its defining op's).
  bool sharded = false;
  bool grouped = false;
};

// Builds the module text line by line; `vals_` are the values ops may use.
class Generator : private Random {
 public:
  Generator(uint64_t seed, const RandomModuleOptions& options)
      : Random(seed), shardings_(*this), options_(options) {}

  std::string run() {
    shardings_.makeMeshes();
    for (int64_t i = between(1, 3); i > 0; --i) newArgument(randomShape());
    for (int64_t i = between(options_.min_ops, options_.max_ops); i > 0; --i) {
      addRandomOp();
    }
    if (options_.sharding_groups && chance(0.35)) addShardingGroup();
    return assemble();
  }

 private:
  static std::string perValueAttr(const std::vector<std::string>& shardings) {
    return "{sdy.sharding = #sdy.sharding_per_value<[" +
           join(shardings.size(), [&](size_t i) { return shardings[i]; }) +
           "]>}";
  }

  // Sometimes (with probability `p`) shardings for the values
  // `vals_[first..]`, marked sharded; else none.
  std::vector<std::string> maybeShardings(size_t first, double p) {
    std::vector<std::string> shardings;
    if (!chance(p)) return shardings;
    for (size_t i = first; i < vals_.size(); ++i) {
      shardings.push_back(shardings_.randomSharding(vals_[i].shape));
      vals_[i].sharded = true;
    }
    return shardings;
  }

  // ` {sdy.sharding = ...}` for the values `vals_[first..]`, or "".
  std::string maybeResultAttr(size_t first) {
    std::vector<std::string> shardings = maybeShardings(first, 0.2);
    return shardings.empty() ? "" : " " + perValueAttr(shardings);
  }

  // --- Values --------------------------------------------------------------
  int64_t randomDim() {
    if (options_.zero_sized_dims && chance(0.03)) return 0;
    return pick(Shape{1, 2, 2, 3, 4, 4, 6, 8, 8, 12, 16, 16, 24, 32});
  }

  Shape randomShape(int64_t min_rank = 0) {
    int64_t rank = std::max(min_rank, pick(Shape{0, 1, 2, 2, 2, 3, 3, 4}));
    Shape shape;
    for (int64_t i = 0; i < rank; ++i) shape.push_back(randomDim());
    return shape;
  }

  std::string newName() { return "%" + std::to_string(counter_++); }
  void emit(const std::string& line) { body_.push_back("  " + line); }

  Val newArgument(const Shape& shape) {
    Val v{"%arg" + std::to_string(args_.size()), shape};
    std::string type = typeText(shape);
    if (chance(0.6)) {
      type += " {sdy.sharding = #sdy.sharding" +
              shardings_.randomSharding(shape) + "}";
      v.sharded = true;
    }
    args_.push_back(type);
    vals_.push_back(v);
    return v;
  }

  // A new single value named `ref`; its index in vals_.
  size_t addValue(std::string ref, Shape shape, std::string elem = "f32") {
    vals_.push_back(Val{std::move(ref), std::move(shape), std::move(elem)});
    return vals_.size() - 1;
  }

  // An operand of at least `min_rank`: usually a recent value (for long
  // chains), sometimes any, a new argument if there is none.
  Val pickOperand(int64_t min_rank = 0) {
    std::vector<size_t> ok;
    for (size_t i = 0; i < vals_.size(); ++i) {
      if (vals_[i].elem == "f32" &&
          static_cast<int64_t>(vals_[i].shape.size()) >= min_rank) {
        ok.push_back(i);
      }
    }
    if (ok.empty()) return newArgument(randomShape(min_rank));
    if (chance(0.6)) {
      return vals_[ok[ok.size() - 1 - next() % std::min<size_t>(ok.size(), 3)]];
    }
    return vals_[pick(ok)];
  }

  // A value of exactly `shape`: an existing one, a constant or a new
  // argument.
  Val valueOfShape(const Shape& shape) {
    std::vector<size_t> same;
    for (size_t i = 0; i < vals_.size(); ++i) {
      if (vals_[i].shape == shape && vals_[i].elem == "f32") same.push_back(i);
    }
    if (!same.empty() && chance(0.5)) return vals_[pick(same)];
    if (!chance(0.15)) return newArgument(shape);
    size_t c = addValue(newName(), shape);
    emit(vals_[c].ref +
         " = stablehlo.constant dense<1.000000e+00> : " + typeText(shape));
    return vals_[c];
  }

  // --- Ops -----------------------------------------------------------------
  void addRandomOp() {
    switch (between(0, 15)) {
      case 0:
      case 1:
      case 15:
        return addUnary();
      case 2:
      case 3:
        return addBinary();
      case 4:
        return addTranspose();
      case 5:
        return addReshape();
      case 6:
        return addBroadcast();
      case 7:
        return addDotGeneral();
      case 8:
        return addReduce();
      case 9:
        return addConcatenate();
      case 10:
        return addSlice();
      case 11:
        return addShardingConstraint();
      case 12:
        return chance(0.5) ? addPropagationBarrier() : addUnary();
      case 13:
        return addOptimizationBarrier();
      default:
        return chance(0.6) ? addWhile() : addBinary();
    }
  }

  // Emits `%r = <op> <operands><attr> : <types>` for a new single result of
  // `shape`, with `types` built from the operand and result types.
  void emitSingle(const std::string& op, const std::string& operands,
                  const Shape& shape, const std::string& operand_types) {
    size_t r = addValue(newName(), shape);
    std::string attr = maybeResultAttr(r);
    std::string types = operand_types.empty()
                            ? typeText(shape)
                            : "(" + operand_types + ") -> " + typeText(shape);
    emit(vals_[r].ref + " = " + op + (operands.empty() ? "" : " " + operands) +
         attr + " : " + types);
  }

  void addUnary() {
    static const std::vector<std::string> kOps = {
        "abs", "negate", "exponential", "sqrt", "cosine", "sine", "tanh"};
    Val x = pickOperand();
    emitSingle("stablehlo." + pick(kOps), x.ref, x.shape, "");
  }

  void addBinary() {
    static const std::vector<std::string> kOps = {"add", "multiply", "subtract",
                                                  "maximum", "divide"};
    Val x = pickOperand();
    Val y = valueOfShape(x.shape);
    if (chance(0.5)) std::swap(x, y);
    emitSingle("stablehlo." + pick(kOps), x.ref + ", " + y.ref, x.shape, "");
  }

  void addTranspose() {
    Val x = pickOperand(2);
    Shape perm = iota(x.shape.size());
    shuffle(perm);
    Shape shape;
    for (int64_t p : perm) shape.push_back(x.shape[p]);
    emitSingle("stablehlo.transpose", x.ref + ", dims = " + intList(perm),
               shape, typeText(x.shape));
  }

  // Splits a dimension in two, merges two adjacent ones, adds or removes a
  // size-1 dimension, or flattens.
  Shape reshapeOf(const Shape& in) {
    Shape out = in;
    auto at = [&](size_t d) { return out.begin() + static_cast<int64_t>(d); };
    switch (between(0, 4)) {
      case 0: {  // split
        std::vector<size_t> splittable;
        for (size_t d = 0; d < in.size(); ++d) {
          if (in[d] >= 4 && in[d] % 2 == 0) splittable.push_back(d);
        }
        if (splittable.empty()) break;
        size_t d = pick(splittable);
        Shape divisors;
        for (int64_t f = 2; f < in[d]; ++f) {
          if (in[d] % f == 0) divisors.push_back(f);
        }
        int64_t f = pick(divisors);
        out[d] = in[d] / f;
        out.insert(at(d), f);
        return out;
      }
      case 1: {  // merge
        if (in.size() < 2) break;
        size_t d = next() % (in.size() - 1);
        out[d] *= in[d + 1];
        out.erase(at(d + 1));
        return out;
      }
      case 2:  // insert a size-1 dimension
        out.insert(at(next() % (in.size() + 1)), 1);
        return out;
      case 3:  // remove a size-1 dimension
        for (size_t d = 0; d < in.size(); ++d) {
          if (in[d] == 1) {
            out.erase(at(d));
            return out;
          }
        }
        break;
      default:
        break;
    }
    int64_t n = 1;  // flatten
    for (int64_t d : in) n *= d;
    return {n};
  }

  void addReshape() {
    Val x = pickOperand();
    emitSingle("stablehlo.reshape", x.ref, reshapeOf(x.shape),
               typeText(x.shape));
  }

  void addBroadcast() {
    Val x = pickOperand();
    const size_t rank = x.shape.size();
    // Operand dimension i goes to result dimension dims[i]: mostly in
    // increasing order, sometimes not.
    Shape positions =
        iota(rank + static_cast<size_t>(between(rank ? 0 : 1, 2)));
    shuffle(positions);
    Shape dims(positions.begin(),
               positions.begin() + static_cast<int64_t>(rank));
    if (chance(0.8)) std::sort(dims.begin(), dims.end());
    Shape shape(positions.size(), -1);
    for (size_t i = 0; i < rank; ++i) {
      // A size-1 dimension may be expanded.
      shape[dims[i]] =
          x.shape[i] == 1 && chance(0.5) ? randomDim() : x.shape[i];
    }
    for (int64_t& s : shape) s = s < 0 ? randomDim() : s;
    emitSingle("stablehlo.broadcast_in_dim",
               x.ref + ", dims = " + intList(dims), shape, typeText(x.shape));
  }

  // lhs: a value; rhs: batching dims, contracting dims, maybe a free dim, in
  // a random order.
  void addDotGeneral() {
    Val lhs = pickOperand(1);
    const size_t rank = lhs.shape.size();
    Shape order = iota(rank);
    shuffle(order);
    size_t num_contracting = rank >= 3 && chance(0.3) ? 2 : 1;
    size_t num_batch = static_cast<size_t>(between(
        0, std::min<int64_t>(2, static_cast<int64_t>(rank - num_contracting))));
    Shape lhs_batch(order.begin(), order.begin() + num_batch);
    Shape lhs_contract(order.begin() + num_batch,
                       order.begin() + num_batch + num_contracting);
    Shape rhs_sizes;
    for (int64_t d : order) rhs_sizes.push_back(lhs.shape[d]);
    rhs_sizes.resize(num_batch + num_contracting);
    if (chance(0.5)) rhs_sizes.push_back(randomDim());
    Shape rhs_pos = iota(rhs_sizes.size());  // logical index -> position
    shuffle(rhs_pos);
    Shape rhs_shape(rhs_sizes.size());
    for (size_t i = 0; i < rhs_sizes.size(); ++i) {
      rhs_shape[rhs_pos[i]] = rhs_sizes[i];
    }
    Shape rhs_batch(rhs_pos.begin(), rhs_pos.begin() + num_batch);
    Shape rhs_contract(rhs_pos.begin() + num_batch,
                       rhs_pos.begin() + num_batch + num_contracting);
    Val rhs = valueOfShape(rhs_shape);
    // Result: batching dims, then the free dims of lhs and of rhs in order.
    Shape shape;
    for (int64_t d : lhs_batch) shape.push_back(lhs.shape[d]);
    for (size_t d = 0; d < rank; ++d) {
      if (std::find(order.begin(), order.begin() + num_batch + num_contracting,
                    static_cast<int64_t>(d)) ==
          order.begin() + num_batch + num_contracting) {
        shape.push_back(lhs.shape[d]);
      }
    }
    if (rhs_sizes.size() > num_batch + num_contracting) {
      shape.push_back(rhs_sizes.back());
    }
    std::string dims;
    if (num_batch > 0) {
      dims = "batching_dims = " + intList(lhs_batch) + " x " +
             intList(rhs_batch) + ", ";
    }
    dims += "contracting_dims = " + intList(lhs_contract) + " x " +
            intList(rhs_contract);
    emitSingle("stablehlo.dot_general", lhs.ref + ", " + rhs.ref + ", " + dims,
               shape, typeText(lhs.shape) + ", " + typeText(rhs.shape));
  }

  void addReduce() {
    Val x = pickOperand(1);
    Shape reduced, shape;
    for (size_t d = 0; d < x.shape.size(); ++d) {
      if (chance(0.4)) {
        reduced.push_back(static_cast<int64_t>(d));
      } else {
        shape.push_back(x.shape[d]);
      }
    }
    if (reduced.empty()) {
      reduced.push_back(static_cast<int64_t>(x.shape.size() - 1));
      shape.pop_back();
    }
    std::string init = newName();
    emit(init + " = stablehlo.constant dense<0.000000e+00> : tensor<f32>");
    const std::string across = " across dimensions = " + intList(reduced);
    if (chance(0.35)) {
      emitSingle("stablehlo.reduce(" + x.ref + " init: " + init +
                     ") applies stablehlo.add" + across,
                 "", shape, typeText(x.shape) + ", tensor<f32>");
      return;
    }
    std::vector<Val> inputs = {x};
    if (chance(0.4)) inputs.push_back(valueOfShape(x.shape));
    const size_t n = inputs.size();
    std::string name = newName();
    for (size_t i = 0; i < n; ++i) {
      addValue(n > 1 ? name + "#" + std::to_string(i) : name, shape);
    }
    std::string attr = maybeResultAttr(vals_.size() - n);
    auto each = [&](auto fn) { return join(n, fn); };
    std::string results = each([&](size_t) { return typeText(shape); });
    emit(name + (n > 1 ? ":2" : "") + " = stablehlo.reduce" +
         each([&](size_t i) {
           return "(" + inputs[i].ref + " init: " + init + ")";
         }) +
         across + attr + " : (" +
         each([&](size_t i) { return typeText(inputs[i].shape); }) + ", " +
         each([&](size_t) { return std::string("tensor<f32>"); }) + ") -> " +
         (n > 1 ? "(" + results + ")" : results));
    // reducer(%acc: tensor<f32>, %x: tensor<f32>) per input, then the sums.
    std::vector<std::string> acc, cur, sum;
    std::string reducer = "  reducer";
    for (size_t i = 0; i < n; ++i) {
      acc.push_back(newName());
      cur.push_back(newName());
      sum.push_back(newName());
      reducer += "(" + acc[i] + ": tensor<f32>, " + cur[i] + ": tensor<f32>) ";
    }
    emit(reducer + " {");
    for (size_t i = 0; i < n; ++i) {
      emit("    " + sum[i] + " = stablehlo.add " + acc[i] + ", " + cur[i] +
           " : tensor<f32>");
    }
    emit("    stablehlo.return " + each([&](size_t i) { return sum[i]; }) +
         " : " + each([&](size_t) { return std::string("tensor<f32>"); }));
    emit("  }");
  }

  void addConcatenate() {
    Val x = pickOperand(1);
    size_t dim = next() % x.shape.size();
    std::vector<Val> inputs = {x};
    Shape shape = x.shape;
    for (int64_t i = between(1, 2); i > 0; --i) {
      Shape other = x.shape;
      if (chance(0.6)) other[dim] = randomDim();
      inputs.push_back(valueOfShape(other));
      shape[dim] += other[dim];
    }
    shuffle(inputs);
    emitSingle("stablehlo.concatenate",
               join(inputs.size(), [&](size_t i) { return inputs[i].ref; }) +
                   ", dim = " + std::to_string(dim),
               shape, join(inputs.size(), [&](size_t i) {
                 return typeText(inputs[i].shape);
               }));
  }

  void addSlice() {
    Val x = pickOperand(1);
    Shape shape;
    std::string ranges =
        "[" +
        join(x.shape.size(),
             [&](size_t d) {
               int64_t n = x.shape[d], start = 0, limit = n;
               int64_t stride = 1;
               if (n > 1 && chance(0.6)) {
                 start = between(0, n - 1);
                 limit = between(start + 1, n);
                 if (chance(0.3)) stride = between(2, 3);
               }
               shape.push_back((limit - start + stride - 1) / stride);
               std::string r =
                   std::to_string(start) + ":" + std::to_string(limit);
               if (stride != 1) r += ":" + std::to_string(stride);
               return r;
             }) +
        "]";
    emitSingle("stablehlo.slice", x.ref + " " + ranges, shape,
               typeText(x.shape));
  }

  void addShardingConstraint() {
    Val x = pickOperand();
    size_t r = addValue(newName(), x.shape);
    vals_[r].sharded = true;
    emit(vals_[r].ref + " = sdy.sharding_constraint " + x.ref + " " +
         shardings_.randomSharding(x.shape) + " : " + typeText(x.shape));
  }

  void addPropagationBarrier() {
    Val x = pickOperand();
    size_t r = addValue(newName(), x.shape);
    emit(vals_[r].ref + " = sdy.propagation_barrier " + x.ref +
         " allowed_direction=" +
         pick(std::vector<std::string>{"NONE", "FORWARD", "BACKWARD"}) + " : " +
         typeText(x.shape));
  }

  // The results `name#i` (or `name`) of a data-flow op carrying `carried`,
  // with the user's `shardings` (maybe none): each wrapped in an edge op that
  // holds its sharding when asked for, else the op carries `op_attr`.
  struct DataFlowResults {
    std::string name;
    std::string op_attr;  // ` {sdy.sharding = ...}` or ""
  };
  DataFlowResults dataFlowResults(const std::vector<Val>& carried) {
    DataFlowResults out{newName(), ""};
    const size_t first = vals_.size(), n = carried.size();
    for (size_t i = 0; i < n; ++i) {
      addValue(n > 1 ? out.name + "#" + std::to_string(i) : out.name,
               carried[i].shape, carried[i].elem);
    }
    edge_shardings_ = maybeShardings(first, 0.25);
    if (!options_.data_flow_edges && !edge_shardings_.empty()) {
      out.op_attr = perValueAttr(edge_shardings_);
    }
    return out;
  }
  // Emits the edge ops of the results `vals_[first..]` (after their op).
  void emitEdges(size_t first) {
    if (!options_.data_flow_edges) return;
    for (size_t i = first; i < vals_.size(); ++i) {
      std::string edge = newName();
      std::string sharding = edge_shardings_.empty()
                                 ? ""
                                 : " sharding=" + edge_shardings_[i - first];
      emit(edge + " = sdy.data_flow_edge " + vals_[i].ref + sharding + " : " +
           typeText(vals_[i].shape, vals_[i].elem));
      vals_[i].ref = edge;
    }
  }

  void addOptimizationBarrier() {
    std::vector<Val> inputs = {pickOperand()};
    if (chance(0.5)) inputs.push_back(pickOperand());
    const size_t first = vals_.size();
    DataFlowResults results = dataFlowResults(inputs);
    emit(results.name + (inputs.size() > 1 ? ":2" : "") +
         " = stablehlo.optimization_barrier " +
         (results.op_attr.empty() ? "" : results.op_attr + " ") +
         join(inputs.size(), [&](size_t i) { return inputs[i].ref; }) + " : " +
         join(inputs.size(),
              [&](size_t i) { return typeText(inputs[i].shape); }));
    emitEdges(first);
  }

  // A while carrying one or two tensors and an i32 counter; the body negates
  // the first tensor (maybe with a sharding of its own).
  void addWhile() {
    std::vector<Val> carried = {pickOperand()};
    if (chance(0.4)) carried.push_back(pickOperand());
    std::string zero = newName();
    emit(zero + " = stablehlo.constant dense<0> : tensor<i32>");
    carried.push_back(Val{zero, {}, "i32"});
    const size_t n = carried.size();
    std::vector<std::string> iter;
    for (size_t i = 0; i < n; ++i) {
      iter.push_back("%iterArg_" + std::to_string(counter_++));
    }
    std::string types = join(n, [&](size_t i) {
      return typeText(carried[i].shape, carried[i].elem);
    });
    const size_t first = vals_.size();
    DataFlowResults results = dataFlowResults(carried);
    emit(results.name + ":" + std::to_string(n) + " = stablehlo.while(" +
         join(n, [&](size_t i) { return iter[i] + " = " + carried[i].ref; }) +
         ") : " + types +
         (results.op_attr.empty() ? "" : " attributes " + results.op_attr));
    const std::string& count = iter.back();
    std::string limit = newName(), pred = newName();
    emit("  cond {");
    emit("  " + limit + " = stablehlo.constant dense<4> : tensor<i32>");
    emit("  " + pred + " = stablehlo.compare  LT, " + count + ", " + limit +
         " : (tensor<i32>, tensor<i32>) -> tensor<i1>");
    emit("  stablehlo.return " + pred + " : tensor<i1>");
    emit("} do {");
    std::string one = newName(), inc = newName(), body = newName();
    emit("  " + one + " = stablehlo.constant dense<1> : tensor<i32>");
    emit("  " + inc + " = stablehlo.add " + count + ", " + one +
         " : tensor<i32>");
    std::string attr;
    if (chance(0.3)) {
      attr = " " + perValueAttr({shardings_.randomSharding(carried[0].shape)});
    }
    emit("  " + body + " = stablehlo.negate " + iter[0] + attr + " : " +
         typeText(carried[0].shape));
    std::vector<std::string> returned = iter;
    returned.front() = body;
    returned.back() = inc;
    emit("  stablehlo.return " +
         join(n, [&](size_t i) { return returned[i]; }) + " : " + types);
    emit("}");
    emitEdges(first);
  }

  // Puts two or three values of one shape, at most one of them with a
  // sharding of its own, in a new group.
  void addShardingGroup() {
    for (int attempt = 0; attempt < 4; ++attempt) {
      const Val& first = vals_[next() % vals_.size()];
      if (first.elem != "f32") continue;
      std::vector<size_t> members;
      bool sharded = false;
      for (size_t i = 0; i < vals_.size(); ++i) {
        const Val& v = vals_[i];
        if (v.elem != "f32" || v.grouped || v.shape != first.shape) continue;
        if (v.sharded && sharded) continue;
        sharded = sharded || v.sharded;
        members.push_back(i);
      }
      if (members.size() < 2) continue;
      shuffle(members);
      members.resize(std::min<size_t>(members.size(), 3));
      for (size_t i : members) {
        vals_[i].grouped = true;
        emit("sdy.sharding_group " + vals_[i].ref +
             " group_id=0 : " + typeText(vals_[i].shape));
      }
      return;
    }
  }

  std::string assemble() {
    std::string text = shardings_.meshText();
    // Return the last value and maybe a few others.
    std::vector<Val> returned = {vals_.back()};
    while (returned.size() < 3 && chance(0.4)) returned.push_back(pick(vals_));
    auto type = [&](size_t i) {
      return typeText(returned[i].shape, returned[i].elem);
    };
    std::string results = join(returned.size(), [&](size_t i) {
      if (!chance(0.35)) return type(i);
      return type(i) + " {sdy.sharding = #sdy.sharding" +
             shardings_.randomSharding(returned[i].shape) + "}";
    });
    text += "func.func @main(" +
            join(args_.size(),
                 [&](size_t i) {
                   return "%arg" + std::to_string(i) + ": " + args_[i];
                 }) +
            ") -> (" + results + ") {\n";
    for (const std::string& line : body_) text += line + "\n";
    return text + "  return " +
           join(returned.size(), [&](size_t i) { return returned[i].ref; }) +
           " : " + join(returned.size(), type) + "\n}\n";
  }

  RandomShardings shardings_;
  RandomModuleOptions options_;
  std::vector<std::string> args_;  // argument types with attributes
  std::vector<Val> vals_;
  std::vector<std::string> body_;
  std::vector<std::string> edge_shardings_;
  int counter_ = 0;
};

}  // namespace random_module_internal

// The text of the random module of `seed`.
inline std::string randomModuleText(uint64_t seed,
                                    const RandomModuleOptions& options = {}) {
  return random_module_internal::Generator(seed, options).run();
}

}  // namespace shardkit::testing

#endif  // SHARDKIT_TESTS_UNIT_PROPAGATION_RANDOM_MODULE_H_
