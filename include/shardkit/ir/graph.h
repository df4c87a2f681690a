// The graph IR: a Module owns all ops, values, blocks and regions in flat
// arrays; Op, Value, Block and Region are small handles (module pointer +
// index) that are cheap to copy and compare.
//
// Ops live in blocks (doubly linked by index), blocks in regions, regions in
// ops. A value is an op result or a block argument and knows its uses. Erasing
// an op unlinks it; its storage is not reused (the arrays only grow), so
// handles never dangle into other ops.
#ifndef SHARDKIT_IR_GRAPH_H_
#define SHARDKIT_IR_GRAPH_H_

#include <cstdint>
#include <iterator>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "shardkit/export.h"
#include "shardkit/ir/attribute.h"
#include "shardkit/ir/location.h"
#include "shardkit/ir/op_name.h"
#include "shardkit/ir/type.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

class Module;
class Op;
class Block;
class Region;

inline constexpr uint32_t kNoId = std::numeric_limits<uint32_t>::max();
// Op::location() of an op built in C++: it has no position in a source text.
inline constexpr uint32_t kNoSourceLocation =
    std::numeric_limits<uint32_t>::max();

// What a handle holds: the module it points into and the index of its entry
// in that module's array of them.
struct HandleRef {
  Module* module = nullptr;
  uint32_t id = kNoId;
};

// What Value, Op, Block and Region share: their `module()` and `id()`, null
// test, equality and hash. A handle of kind `Handle` keeps its HandleRef as a
// member `ref_` (GraphHandle is its friend): with the fields in a base class,
// g++ 12 returns every handle through the stack instead of two registers.
template <typename Handle>
class GraphHandle {
 public:
  uint32_t id() const { return ref().id; }
  Module* module() const { return ref().module; }
  explicit operator bool() const {
    return module() != nullptr && id() != kNoId;
  }
  friend bool operator==(Handle a, Handle b) {
    return a.module() == b.module() && a.id() == b.id();
  }
  template <typename H>
  friend H AbslHashValue(H h, Handle handle) {
    return H::combine(std::move(h), handle.id());
  }

 protected:
  // The handle's entry in its module's array of them (module.h).
  auto& data() const;

 private:
  const HandleRef& ref() const {
    return static_cast<const Handle&>(*this).ref_;
  }
};

// An op result or a block argument.
class Value : public GraphHandle<Value> {
 public:
  Value() = default;
  Value(Module* module, uint32_t id) : ref_{module, id} {}

  Type type() const;
  void setType(Type type) const;
  bool isBlockArgument() const;
  // The op defining this result, or a null Op for a block argument.
  Op definingOp() const;
  // The block owning this argument, or a null Block for an op result.
  Block ownerBlock() const;
  // Result number or argument number.
  unsigned index() const;

  // Every (user op, operand index) using this value, in no set order.
  struct Use {
    Op user() const;
    unsigned operandIndex() const;
    Module* m;
    uint32_t operand_id;
  };
  std::vector<Use> uses() const;
  // Calls `fn(use)` for every use without a snapshot: `fn` may not add or
  // remove uses of this value.
  template <typename Fn>
  void forEachUse(Fn&& fn) const;
  bool useEmpty() const;
  bool hasOneUse() const;
  // The user of the value's only use; null unless it has exactly one use.
  Op soleUser() const;
  size_t numUses() const;
  // Makes every use of this value use `other` instead.
  void replaceAllUsesWith(Value other) const;
  // Like replaceAllUsesWith but only for uses where `pred(use)` is true.
  template <typename Pred>
  void replaceUsesWithIf(Value other, Pred&& pred) const;

  friend bool operator<(Value a, Value b) { return a.id() < b.id(); }

 private:
  friend class GraphHandle<Value>;
  HandleRef ref_;
};

class Op : public GraphHandle<Op> {
 public:
  Op() = default;
  Op(Module* module, uint32_t id) : ref_{module, id} {}

  OpName opName() const;
  std::string_view name() const { return opName().str(); }
  bool is(OpName name) const { return opName() == name; }
  // True if the op's registered kind has `trait` (false for unknown ops).
  bool hasTrait(OpTrait trait) const { return opName().hasTrait(trait); }
  std::string_view dialect() const;

  unsigned numOperands() const;
  Value operand(unsigned i) const;
  std::vector<Value> operands() const;
  void setOperand(unsigned i, Value value) const;
  // Replaces all operands (the count may change).
  void setOperands(absl::Span<const Value> values) const;
  // Inserts `value` as operand `i`.
  void insertOperand(unsigned i, Value value) const;
  void eraseOperand(unsigned i) const;

  unsigned numResults() const;
  Value result(unsigned i) const;
  std::vector<Value> results() const;
  std::vector<Type> resultTypes() const;
  std::vector<Type> operandTypes() const;

  // Attributes: inherent ones (MLIR's "properties") and discardable ones are
  // looked up together; `setAttr` keeps an attribute where it already is, and
  // otherwise files it by the op's registered inherent names. `attr` returns
  // the stored attribute (or a null one) without copying it; the reference
  // is valid until the op's attributes change.
  const Attribute& attr(std::string_view name) const;
  bool hasAttr(std::string_view name) const { return bool(attr(name)); }
  void setAttr(std::string_view name, Attribute value) const;
  // The dictionary `setAttr(name, ...)` stores `name` in.
  AttrDict& attrDictFor(std::string_view name) const;
  bool removeAttr(std::string_view name) const;
  AttrDict& discardableAttrs() const;
  AttrDict& inherentAttrs() const;

  unsigned numRegions() const;
  Region region(unsigned i) const;

  Block parentBlock() const;
  // The op owning the region this op is in, or null at module level.
  Op parentOp() const;
  // True if `this` is `ancestor` or nested somewhere in it.
  bool isNestedIn(Op ancestor) const;
  Op nextInBlock() const;
  Op prevInBlock() const;

  // Byte offset in the source text (for diagnostics), or kNoSourceLocation
  // for an op built in C++.
  uint32_t location() const;
  void setLocation(uint32_t offset) const;
  // The op's `loc(...)` (location.h), or null. Ops that share location()
  // (a pass's new op takes the op it replaces') share it.
  const DebugLocation* debugLocation() const;
  // Gives the op (and the ops sharing its location()) `loc`; an op built in
  // C++ gets a location key of its own first.
  void setDebugLocation(DebugLocation loc) const;

  // Unlinks the op from its block, drops its operands' uses and erases its
  // regions' ops. Its results must have no uses left.
  void erase() const;
  // Unlinks the op and re-inserts it before/after `anchor`.
  void moveBefore(Op anchor) const;
  void moveAfter(Op anchor) const;
  bool isErased() const;

 private:
  friend class GraphHandle<Op>;
  HandleRef ref_;
};

class Block : public GraphHandle<Block> {
 public:
  Block() = default;
  Block(Module* module, uint32_t id) : ref_{module, id} {}

  unsigned numArguments() const;
  Value argument(unsigned i) const;
  std::vector<Value> arguments() const;
  Value addArgument(Type type) const;
  // Removes argument `i`, which must have no uses.
  void eraseArgument(unsigned i) const;

  Region parentRegion() const;
  Op parentOp() const;

  bool empty() const;
  Op front() const;
  Op back() const;
  size_t numOps() const;
  // Appends a detached op; `insertBefore(anchor, op)` inserts before anchor.
  void pushBack(Op op) const;
  void pushFront(Op op) const;
  void insertBefore(Op anchor, Op op) const;
  void insertAfter(Op anchor, Op op) const;
  // The ops of the block, in order, as a snapshot (safe to mutate while
  // iterating over it).
  std::vector<Op> ops() const;

  // Iterates the ops in order without a snapshot.
  class iterator {
   public:
    using value_type = Op;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    iterator(Op op) : op_(op) {}  // NOLINT
    Op operator*() const { return op_; }
    iterator& operator++() {
      op_ = op_.nextInBlock();
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    friend bool operator==(const iterator& a, const iterator& b) {
      return a.op_ == b.op_;
    }

   private:
    Op op_;
  };
  iterator begin() const { return iterator(front()); }
  iterator end() const { return iterator(Op(module(), kNoId)); }

 private:
  friend class GraphHandle<Block>;
  HandleRef ref_;
};

class Region : public GraphHandle<Region> {
 public:
  Region() = default;
  Region(Module* module, uint32_t id) : ref_{module, id} {}

  Op parentOp() const;
  unsigned numBlocks() const;
  Block block(unsigned i) const;
  // The entry block (null if the region is empty).
  Block front() const { return numBlocks() ? block(0) : Block(); }
  Block addBlock() const;
  bool empty() const { return numBlocks() == 0; }

 private:
  friend class GraphHandle<Region>;
  HandleRef ref_;
};

// Calls `fn(block)` for each block of `op`'s regions, region by region and
// block by block in order. The region and block counts are read as it goes.
template <typename Fn>
void forEachBlock(Op op, Fn&& fn);

// Everything needed to create an op.
struct OperationState {
  OpName name;
  std::vector<Value> operands;
  std::vector<Type> result_types;
  AttrDict inherent_attrs;
  AttrDict discardable_attrs;
  unsigned num_regions = 0;
  uint32_t location = kNoSourceLocation;

  OperationState() = default;
  explicit OperationState(OpName name) : name(name) {}
  // Files `value` as inherent if the op registers `name` as inherent.
  void addAttr(std::string_view name, Attribute value);
};

}  // namespace shardkit

#include "shardkit/ir/module.h"  // IWYU pragma: export

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_IR_GRAPH_H_
