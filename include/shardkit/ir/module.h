// Module: owns a program's ops, values, blocks and regions (see graph.h for
// the handles), its types, and the names of unknown ops. The module's body is
// one block holding `sdy.mesh`, `func.func` and any other top-level ops.
#ifndef SHARDKIT_IR_MODULE_H_
#define SHARDKIT_IR_MODULE_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "shardkit/core/mesh_table.h"
#include "shardkit/export.h"
#include "shardkit/internal/large_array.h"
#include "shardkit/ir/graph.h"
#include "shardkit/text/source_lines.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

namespace ir_internal {

struct OpData {
  OpName name;
  uint32_t parent_block = kNoId;
  uint32_t prev = kNoId;
  uint32_t next = kNoId;
  uint32_t first_operand = 0;
  uint32_t num_operands = 0;
  uint32_t first_result = 0;
  uint32_t num_results = 0;
  uint32_t first_region = 0;
  uint32_t num_regions = 0;
  uint32_t location = kNoSourceLocation;
  bool erased = false;
  AttrDict inherent;
  AttrDict discardable;
};

struct ValueData {
  Type type;
  uint32_t owner = kNoId;  // op id, or block id for an argument
  uint32_t index = 0;
  uint32_t first_use = kNoId;  // operand slot id
  bool is_argument = false;
};

struct OperandData {
  uint32_t value = kNoId;
  uint32_t owner = kNoId;  // op id
  uint32_t prev_use = kNoId;
  uint32_t next_use = kNoId;
};

struct BlockData {
  uint32_t parent_region = kNoId;
  uint32_t first_op = kNoId;
  uint32_t last_op = kNoId;
  uint32_t num_ops = 0;
  std::vector<uint32_t> arguments;
};

struct RegionData {
  uint32_t parent_op = kNoId;
  std::vector<uint32_t> blocks;
};

}  // namespace ir_internal

class Module {
 public:
  Module();
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;
  Module(Module&&) = delete;

  // The top-level block.
  Block body() { return Block(this, body_block_); }

  TypeContext& types() { return *types_; }
  // The registered op kind called `name`, or one interned in this module.
  OpName opName(std::string_view name);

  // Creates a detached op (insert it with Block::pushBack/insertBefore).
  // Its regions are created empty. The rvalue form takes the state's
  // attributes and leaves its other fields as they were (a caller may reuse
  // their capacity for the next op).
  Op createOp(const OperationState& state);
  Op createOp(OperationState&& state);
  // Creates an op from `state` in place of `op`: inserted before it, its
  // results taking over the uses of `op`'s results (one for one); then erases
  // `op`. Returns the new op.
  Op replaceOp(Op op, const OperationState& state);
  // For readers that create an op before reading its regions (MLIR's generic
  // form writes the result types last): appends an empty region to `op`,
  // and gives `op`, created without results, results of `types`.
  Region appendRegion(Op op);
  void setResultTypes(Op op, absl::Span<const Type> types);

  // `module @name attributes {...}`.
  std::optional<std::string> name;
  AttrDict attributes;

  // Where the module was read from, for diagnostics: the file and where its
  // lines start (the text itself is not kept).
  std::string file_name = "-";
  SourceLines source_lines;

  // Debug locations (location.h) by op location key (Op::location()): a
  // source offset, or for ops built in C++ a key past the source.
  const DebugLocation* debugLocation(uint32_t key) const {
    auto it = debug_locations_.find(key);
    return it == debug_locations_.end() ? nullptr : &it->second;
  }
  void setDebugLocation(uint32_t key, DebugLocation loc) {
    debug_locations_[key] = std::move(loc);
  }
  // A new location key for an op built in C++ (past every source offset).
  uint32_t newUserLocationKey() {
    return static_cast<uint32_t>(source_lines.textSize()) +
           next_user_location_++;
  }
  // True if `key` is one newUserLocationKey gave (not a source offset).
  bool isUserLocationKey(uint32_t key) const {
    return key != kNoSourceLocation && key >= source_lines.textSize();
  }
  bool hasDebugLocations() const { return !debug_locations_.empty(); }

  // The top-level op whose `sym_name` is `name` (the first), or null.
  // Amortized constant time while the symbols do not change. Safe to call
  // from several threads at once while the module does not change.
  Op lookupSymbol(std::string_view name);
  // The `sdy.mesh` ops of the module, by name.
  MeshTable meshTable();
  // The top-level `func.func` ops.
  std::vector<Op> functions();

  // Calls `fn(op)` for every live op in pre-order (an op before the ops in its
  // regions). `fn` may not erase ops other than the one it is given.
  template <typename Fn>
  void walk(Fn&& fn) {
    walkBlock(body(), fn);
  }
  template <typename Fn>
  static void walkBlock(Block block, Fn& fn);
  template <typename Fn>
  static void walkOp(Op op, Fn& fn);

  // Live op count, and bytes held by the IR storage (not counting attributes'
  // payloads or types).
  size_t numOps() const { return num_live_ops_; }
  // Whether the module may hold an op called `name`: false when every op of
  // that name it created (in a block or not) has been erased, so that a pass
  // acting on such ops alone can tell it has nothing to do without a walk.
  // Names are told apart by their entries, as isa<> does: a name registered
  // after this module interned it as unknown is another name.
  bool mayHaveOpsNamed(OpName name) const {
    const OpNameEntry* e = name.entry();
    if (e == nullptr) return false;
    const std::vector<NameCount>& counts =
        live_ops_by_name_[e->module_local ? 1 : 0];
    // An entry of another module's space may share an index: compare it.
    return e->index < counts.size() && counts[e->index].entry == e &&
           counts[e->index].count > 0;
  }
  // The same for the ops whose name has `trait`.
  bool mayHaveOpsWith(OpTrait trait) const;
  // How many live ops (in a block or not) have a name with `trait`, in the
  // number of op names the module has seen.
  size_t numOpsWith(OpTrait trait) const;
  // Upper bounds of Op::id() and Value::id() (ids are never reused), for side
  // tables indexed by id.
  size_t opIdBound() const { return ops_.size(); }
  size_t valueIdBound() const { return values_.size(); }
  size_t storageBytes() const;
  // The part of storageBytes past the arrays' sizes: capacity reserved and
  // never written, which holds address space but (beyond the page the
  // arrays end in) no memory.
  size_t reservedBytes() const;
  // Makes room for about `ops` ops (with their results and operands) so
  // that the IR arrays are not moved while a reader fills them.
  void reserve(size_t ops);
  // Releases the spare capacity of the IR arrays where it is more than a
  // quarter of what they hold: address space (capacity never written to
  // costs no memory) at the price of copying the arrays. parseModule does
  // not call it.
  void shrinkToFit();

 private:
  friend class Value;
  friend class Op;
  friend class Block;
  friend class Region;
  template <typename Handle>
  friend class GraphHandle;

  // createOp with `state`'s name, operands, result types, region count and
  // location, and the given attributes.
  Op createOpWith(const OperationState& state, AttrDict inherent,
                  AttrDict discardable);
  uint32_t newValue(Type type, uint32_t owner, uint32_t index, bool is_arg);
  uint32_t newBlock(uint32_t region);
  void addUse(uint32_t operand_slot, uint32_t value);
  void removeUse(uint32_t operand_slot);
  void unlink(uint32_t op);
  void linkBefore(uint32_t block, uint32_t anchor, uint32_t op);
  void eraseOp(uint32_t op);

  // The three tables a large module walks most, in huge pages where the
  // system has them.
  core_detail::LargeVector<ir_internal::OpData> ops_;
  core_detail::LargeVector<ir_internal::ValueData> values_;
  core_detail::LargeVector<ir_internal::OperandData> operands_;
  std::vector<ir_internal::BlockData> blocks_;
  std::vector<ir_internal::RegionData> regions_;
  std::unique_ptr<TypeContext> types_;
  // Unknown op names; entries never move (OpNames point at them).
  struct LocalOpName {
    std::string text;
    OpNameEntry entry;
  };
  std::deque<LocalOpName> local_names_;
  absl::flat_hash_map<std::string, OpName> local_name_index_;
  // lookupSymbol's index of the top-level symbols by name: rebuilt when an
  // entry is stale (the op was erased, moved or renamed) or a name misses.
  absl::flat_hash_map<std::string, uint32_t> symbol_index_;
  std::mutex symbol_index_mu_;  // verifier hooks may look symbols up
  uint32_t body_block_ = kNoId;
  size_t num_live_ops_ = 0;
  // Live ops by their name, indexed by OpNameEntry::index: registered
  // names, then this module's own (mayHaveOpsNamed). One array access per
  // created or erased op.
  struct NameCount {
    const OpNameEntry* entry = nullptr;
    uint32_t count = 0;
  };
  void countOpName(const OpNameEntry* entry, int delta);
  std::vector<NameCount> live_ops_by_name_[2];
  absl::flat_hash_map<uint32_t, DebugLocation> debug_locations_;
  uint32_t next_user_location_ = 0;
};

// ---- Inline handle methods -------------------------------------------------

template <typename Handle>
auto& GraphHandle<Handle>::data() const {
  Module* m = module();
  if constexpr (std::is_same_v<Handle, Value>) {
    return m->values_[id()];
  } else if constexpr (std::is_same_v<Handle, Op>) {
    return m->ops_[id()];
  } else if constexpr (std::is_same_v<Handle, Block>) {
    return m->blocks_[id()];
  } else {
    static_assert(std::is_same_v<Handle, Region>);
    return m->regions_[id()];
  }
}

inline Type Value::type() const { return data().type; }
inline void Value::setType(Type type) const { data().type = type; }
inline bool Value::isBlockArgument() const { return data().is_argument; }
inline Op Value::definingOp() const {
  const auto& v = data();
  return v.is_argument ? Op() : Op(module(), v.owner);
}
inline Block Value::ownerBlock() const {
  const auto& v = data();
  return v.is_argument ? Block(module(), v.owner) : Block();
}
inline unsigned Value::index() const { return data().index; }
inline bool Value::useEmpty() const { return data().first_use == kNoId; }
inline bool Value::hasOneUse() const {
  uint32_t first = data().first_use;
  return first != kNoId && module()->operands_[first].next_use == kNoId;
}
inline Op Value::soleUser() const {
  uint32_t first = data().first_use;
  if (first == kNoId || module()->operands_[first].next_use != kNoId)
    return Op();
  return Op(module(), module()->operands_[first].owner);
}
inline Op Value::Use::user() const {
  return Op(m, m->operands_[operand_id].owner);
}
inline unsigned Value::Use::operandIndex() const {
  const auto& slot = m->operands_[operand_id];
  return operand_id - m->ops_[slot.owner].first_operand;
}
template <typename Fn>
void Value::forEachUse(Fn&& fn) const {
  for (uint32_t slot = data().first_use; slot != kNoId;
       slot = module()->operands_[slot].next_use) {
    fn(Use{module(), slot});
  }
}
template <typename Pred>
void Value::replaceUsesWithIf(Value other, Pred&& pred) const {
  for (const Use& use : uses()) {
    if (pred(use)) use.user().setOperand(use.operandIndex(), other);
  }
}

inline OpName Op::opName() const { return data().name; }
inline std::string_view Op::dialect() const { return opName().dialect(); }
inline unsigned Op::numOperands() const { return data().num_operands; }
inline Value Op::operand(unsigned i) const {
  return Value(module(), module()->operands_[data().first_operand + i].value);
}
inline unsigned Op::numResults() const { return data().num_results; }
inline Value Op::result(unsigned i) const {
  return Value(module(), data().first_result + i);
}
inline unsigned Op::numRegions() const { return data().num_regions; }
inline Region Op::region(unsigned i) const {
  return Region(module(), data().first_region + i);
}
inline Block Op::parentBlock() const {
  uint32_t b = data().parent_block;
  return b == kNoId ? Block() : Block(module(), b);
}
inline Op Op::nextInBlock() const { return Op(module(), data().next); }
inline Op Op::prevInBlock() const { return Op(module(), data().prev); }
inline uint32_t Op::location() const { return data().location; }
inline void Op::setLocation(uint32_t offset) const { data().location = offset; }
inline bool Op::isErased() const { return data().erased; }
inline const DebugLocation* Op::debugLocation() const {
  uint32_t key = location();
  return key == kNoSourceLocation ? nullptr : module()->debugLocation(key);
}
inline void Op::setDebugLocation(DebugLocation loc) const {
  if (location() == kNoSourceLocation)
    setLocation(module()->newUserLocationKey());
  module()->setDebugLocation(location(), std::move(loc));
}
inline const Attribute& Op::attr(std::string_view name) const {
  const ir_internal::OpData& op = data();
  if (const Attribute* a = op.inherent.lookup(name)) return *a;
  if (const Attribute* a = op.discardable.lookup(name)) return *a;
  return kNullAttribute;
}
inline AttrDict& Op::discardableAttrs() const { return data().discardable; }
inline AttrDict& Op::inherentAttrs() const { return data().inherent; }

inline unsigned Block::numArguments() const {
  return static_cast<unsigned>(data().arguments.size());
}
inline Value Block::argument(unsigned i) const {
  return Value(module(), data().arguments[i]);
}
inline Region Block::parentRegion() const {
  return Region(module(), data().parent_region);
}
inline bool Block::empty() const { return data().first_op == kNoId; }
inline Op Block::front() const { return Op(module(), data().first_op); }
inline Op Block::back() const { return Op(module(), data().last_op); }
inline size_t Block::numOps() const { return data().num_ops; }

inline Op Region::parentOp() const {
  uint32_t op = data().parent_op;
  return op == kNoId ? Op() : Op(module(), op);
}
inline unsigned Region::numBlocks() const {
  return static_cast<unsigned>(data().blocks.size());
}
inline Block Region::block(unsigned i) const {
  return Block(module(), data().blocks[i]);
}

template <typename Fn>
void forEachBlock(Op op, Fn&& fn) {
  for (unsigned r = 0; r < op.numRegions(); ++r) {
    Region region = op.region(r);
    for (unsigned b = 0; b < region.numBlocks(); ++b) fn(region.block(b));
  }
}

template <typename Fn>
void Module::walkBlock(Block block, Fn& fn) {
  Op op = block.front();
  while (op) {
    Op next = op.nextInBlock();
    walkOp(op, fn);
    op = next;
  }
}

template <typename Fn>
void Module::walkOp(Op op, Fn& fn) {
  fn(op);
  if (op.isErased()) return;
  forEachBlock(op, [&](Block block) { walkBlock(block, fn); });
}

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_IR_MODULE_H_
