#include "shardkit/ir/graph.h"

#include <mutex>
#include <utility>

#include "shardkit/support/strings.h"

namespace shardkit {

using ir_internal::BlockData;
using ir_internal::OpData;
using ir_internal::OperandData;
using ir_internal::RegionData;
using ir_internal::ValueData;

// ---- Module
// ------------------------------------------------------------------

Module::Module() : types_(std::make_unique<TypeContext>()) {
  regions_.push_back(RegionData{});
  body_block_ = newBlock(0);
}

OpName Module::opName(std::string_view name) {
  if (OpName registered = OpName::registered(name)) return registered;
  auto it = local_name_index_.find(toAbsl(name));
  if (it != local_name_index_.end()) return it->second;
  LocalOpName& local = local_names_.emplace_back();
  local.text = std::string(name);
  local.entry.name = local.text;
  local.entry.index = static_cast<uint32_t>(local_names_.size() - 1);
  local.entry.module_local = true;
  OpName result(&local.entry);
  local_name_index_.emplace(local.text, result);
  return result;
}

uint32_t Module::newValue(Type type, uint32_t owner, uint32_t index,
                          bool is_arg) {
  ValueData v;
  v.type = type;
  v.owner = owner;
  v.index = index;
  v.is_argument = is_arg;
  values_.push_back(v);
  return static_cast<uint32_t>(values_.size() - 1);
}

uint32_t Module::newBlock(uint32_t region) {
  BlockData b;
  b.parent_region = region;
  blocks_.push_back(std::move(b));
  uint32_t id = static_cast<uint32_t>(blocks_.size() - 1);
  regions_[region].blocks.push_back(id);
  return id;
}

Op Module::createOp(const OperationState& state) {
  // Attribute dictionaries are shared handles (copy on write).
  return createOpWith(state, state.inherent_attrs, state.discardable_attrs);
}

Op Module::createOp(OperationState&& state) {
  return createOpWith(state, std::move(state.inherent_attrs),
                      std::move(state.discardable_attrs));
}

Op Module::createOpWith(const OperationState& state, AttrDict inherent,
                        AttrDict discardable) {
  uint32_t id = static_cast<uint32_t>(ops_.size());
  OpData op;
  op.name = state.name;
  op.location = state.location;
  op.inherent = std::move(inherent);
  op.discardable = std::move(discardable);
  op.first_operand = static_cast<uint32_t>(operands_.size());
  op.num_operands = static_cast<uint32_t>(state.operands.size());
  op.first_result = static_cast<uint32_t>(values_.size());
  op.num_results = static_cast<uint32_t>(state.result_types.size());
  op.first_region = static_cast<uint32_t>(regions_.size());
  op.num_regions = state.num_regions;
  ops_.push_back(std::move(op));
  for (const Value& v : state.operands) {
    operands_.push_back(OperandData{kNoId, id, kNoId, kNoId});
    addUse(static_cast<uint32_t>(operands_.size() - 1), v.id());
  }
  for (size_t i = 0; i < state.result_types.size(); ++i) {
    newValue(state.result_types[i], id, static_cast<uint32_t>(i), false);
  }
  for (unsigned r = 0; r < state.num_regions; ++r) {
    RegionData region;
    region.parent_op = id;
    regions_.push_back(std::move(region));
  }
  ++num_live_ops_;
  countOpName(state.name.entry(), +1);
  return Op(this, id);
}

Region Module::appendRegion(Op op) {
  OpData& data = ops_[op.id()];
  uint32_t end = data.first_region + data.num_regions;
  if (data.num_regions > 0 && end != regions_.size()) {
    // The op's regions move to the end, so that the new one follows them;
    // their old entries stay unused.
    uint32_t first = static_cast<uint32_t>(regions_.size());
    for (uint32_t r = 0; r < data.num_regions; ++r) {
      RegionData moved = std::move(regions_[data.first_region + r]);
      regions_[data.first_region + r] = RegionData{};
      for (uint32_t b : moved.blocks) blocks_[b].parent_region = first + r;
      regions_.push_back(std::move(moved));
    }
    data.first_region = first;
  } else if (data.num_regions == 0) {
    data.first_region = static_cast<uint32_t>(regions_.size());
  }
  RegionData region;
  region.parent_op = op.id();
  regions_.push_back(std::move(region));
  ++data.num_regions;
  return Region(this, static_cast<uint32_t>(regions_.size() - 1));
}

void Module::setResultTypes(Op op, absl::Span<const Type> types) {
  OpData& data = ops_[op.id()];
  data.first_result = static_cast<uint32_t>(values_.size());
  data.num_results = static_cast<uint32_t>(types.size());
  for (size_t i = 0; i < types.size(); ++i) {
    newValue(types[i], op.id(), static_cast<uint32_t>(i), false);
  }
}

Op Module::replaceOp(Op op, const OperationState& state) {
  Op replacement = createOp(state);
  op.parentBlock().insertBefore(op, replacement);
  for (unsigned i = 0; i < op.numResults(); ++i) {
    op.result(i).replaceAllUsesWith(replacement.result(i));
  }
  op.erase();
  return replacement;
}

void Module::addUse(uint32_t slot, uint32_t value) {
  OperandData& operand = operands_[slot];
  operand.value = value;
  operand.prev_use = kNoId;
  if (value == kNoId) {
    operand.next_use = kNoId;
    return;
  }
  uint32_t head = values_[value].first_use;
  operand.next_use = head;
  if (head != kNoId) operands_[head].prev_use = slot;
  values_[value].first_use = slot;
}

void Module::removeUse(uint32_t slot) {
  OperandData& operand = operands_[slot];
  if (operand.value == kNoId) return;
  if (operand.prev_use != kNoId) {
    operands_[operand.prev_use].next_use = operand.next_use;
  } else {
    values_[operand.value].first_use = operand.next_use;
  }
  if (operand.next_use != kNoId) {
    operands_[operand.next_use].prev_use = operand.prev_use;
  }
  operand.value = kNoId;
  operand.prev_use = operand.next_use = kNoId;
}

void Module::unlink(uint32_t id) {
  OpData& op = ops_[id];
  if (op.parent_block == kNoId) return;
  BlockData& block = blocks_[op.parent_block];
  if (op.prev != kNoId) {
    ops_[op.prev].next = op.next;
  } else {
    block.first_op = op.next;
  }
  if (op.next != kNoId) {
    ops_[op.next].prev = op.prev;
  } else {
    block.last_op = op.prev;
  }
  --block.num_ops;
  op.parent_block = op.prev = op.next = kNoId;
}

void Module::linkBefore(uint32_t block_id, uint32_t anchor, uint32_t id) {
  if (anchor == id) return;  // moving an op before itself: already there
  unlink(id);
  BlockData& block = blocks_[block_id];
  OpData& op = ops_[id];
  op.parent_block = block_id;
  if (anchor == kNoId) {  // append
    op.prev = block.last_op;
    op.next = kNoId;
    if (block.last_op != kNoId) {
      ops_[block.last_op].next = id;
    } else {
      block.first_op = id;
    }
    block.last_op = id;
  } else {
    op.next = anchor;
    op.prev = ops_[anchor].prev;
    if (op.prev != kNoId) {
      ops_[op.prev].next = id;
    } else {
      block.first_op = id;
    }
    ops_[anchor].prev = id;
  }
  ++block.num_ops;
}

void Module::eraseOp(uint32_t id) {
  if (ops_[id].erased) return;
  // Regions first: their ops may use values of this op's regions.
  for (uint32_t r = 0; r < ops_[id].num_regions; ++r) {
    RegionData& region = regions_[ops_[id].first_region + r];
    for (uint32_t b : region.blocks) {
      // Erase back to front so uses disappear before their definitions.
      for (uint32_t op = blocks_[b].last_op; op != kNoId;) {
        uint32_t prev = ops_[op].prev;
        eraseOp(op);
        op = prev;
      }
    }
  }
  unlink(id);
  OpData& op = ops_[id];
  for (uint32_t i = 0; i < op.num_operands; ++i) {
    removeUse(op.first_operand + i);
  }
  op.erased = true;
  --num_live_ops_;
  countOpName(op.name.entry(), -1);
}

void Module::countOpName(const OpNameEntry* entry, int delta) {
  if (entry == nullptr) return;
  std::vector<NameCount>& counts =
      live_ops_by_name_[entry->module_local ? 1 : 0];
  if (entry->index >= counts.size()) counts.resize(entry->index + 1);
  NameCount& slot = counts[entry->index];
  slot.entry = entry;
  slot.count = static_cast<uint32_t>(int64_t{slot.count} + delta);
}

bool Module::mayHaveOpsWith(OpTrait trait) const {
  return numOpsWith(trait) > 0;
}

size_t Module::numOpsWith(OpTrait trait) const {
  size_t n = 0;
  for (const std::vector<NameCount>& counts : live_ops_by_name_) {
    for (const NameCount& slot : counts) {
      if (slot.count > 0 && OpName(slot.entry).hasTrait(trait)) {
        n += slot.count;
      }
    }
  }
  return n;
}

Op Module::lookupSymbol(std::string_view name) {
  auto current = [&](uint32_t id) {
    Op op(this, id);
    const std::string* sym = op.isErased() || op.parentOp()
                                 ? nullptr
                                 : op.attr("sym_name").asString();
    return sym && *sym == name;
  };
  std::lock_guard<std::mutex> lock(symbol_index_mu_);
  auto it = symbol_index_.find(toAbsl(name));
  if (it != symbol_index_.end() && current(it->second)) {
    return Op(this, it->second);
  }
  symbol_index_.clear();
  for (Op op : body()) {
    if (const std::string* sym = op.attr("sym_name").asString()) {
      symbol_index_.try_emplace(*sym, op.id());
    }
  }
  it = symbol_index_.find(toAbsl(name));
  return it == symbol_index_.end() ? Op() : Op(this, it->second);
}

MeshTable Module::meshTable() {
  MeshTable table;
  for (Op op : body()) {
    // A mesh symbol (sdy.mesh): a symbol whose `mesh` attribute is a Mesh.
    if (!op.hasTrait(OpTrait::kSymbol)) continue;
    const std::string* sym = op.attr("sym_name").asString();
    const Mesh* mesh = op.attr("mesh").as<Mesh>();
    if (sym && mesh) table.add(*sym, *mesh);
  }
  return table;
}

std::vector<Op> Module::functions() {
  std::vector<Op> result;
  for (Op op : body()) {
    if (op.hasTrait(OpTrait::kFunction)) result.push_back(op);
  }
  return result;
}

size_t Module::storageBytes() const {
  size_t bytes = ops_.capacity() * sizeof(OpData) +
                 values_.capacity() * sizeof(ValueData) +
                 operands_.capacity() * sizeof(OperandData) +
                 blocks_.capacity() * sizeof(BlockData) +
                 regions_.capacity() * sizeof(RegionData);
  for (const OpData& op : ops_) {
    bytes +=
        (op.inherent.size() + op.discardable.size()) * sizeof(NamedAttribute);
  }
  for (const BlockData& b : blocks_) {
    bytes += b.arguments.capacity() * sizeof(uint32_t);
  }
  return bytes;
}

size_t Module::reservedBytes() const {
  return (ops_.capacity() - ops_.size()) * sizeof(OpData) +
         (values_.capacity() - values_.size()) * sizeof(ValueData) +
         (operands_.capacity() - operands_.size()) * sizeof(OperandData) +
         (blocks_.capacity() - blocks_.size()) * sizeof(BlockData) +
         (regions_.capacity() - regions_.size()) * sizeof(RegionData);
}

void Module::reserve(size_t ops) {
  ops_.reserve(ops);
  values_.reserve(ops + ops / 4);
  operands_.reserve(2 * ops);
}

namespace {

template <typename Vector>
void shrinkIfSpare(Vector& v) {
  if (v.capacity() - v.size() > v.size() / 4) v.shrink_to_fit();
}

}  // namespace

void Module::shrinkToFit() {
  shrinkIfSpare(ops_);
  shrinkIfSpare(values_);
  shrinkIfSpare(operands_);
  shrinkIfSpare(blocks_);
  shrinkIfSpare(regions_);
}

// ---- Value
// -------------------------------------------------------------------

std::vector<Value::Use> Value::uses() const {
  std::vector<Use> result;
  for (uint32_t slot = data().first_use; slot != kNoId;
       slot = module()->operands_[slot].next_use) {
    result.push_back(Use{module(), slot});
  }
  return result;
}

size_t Value::numUses() const {
  size_t n = 0;
  for (uint32_t slot = data().first_use; slot != kNoId;
       slot = module()->operands_[slot].next_use) {
    ++n;
  }
  return n;
}

void Value::replaceAllUsesWith(Value other) const {
  if (other == *this) return;
  while (data().first_use != kNoId) {
    uint32_t slot = data().first_use;
    module()->removeUse(slot);
    module()->addUse(slot, other.id());
  }
}

// ---- Op
// ----------------------------------------------------------------------

std::vector<Value> Op::operands() const {
  std::vector<Value> result;
  result.reserve(numOperands());
  for (unsigned i = 0; i < numOperands(); ++i) result.push_back(operand(i));
  return result;
}

std::vector<Type> Op::operandTypes() const {
  std::vector<Type> result;
  result.reserve(numOperands());
  for (unsigned i = 0; i < numOperands(); ++i) {
    result.push_back(operand(i).type());
  }
  return result;
}

void Op::setOperand(unsigned i, Value value) const {
  uint32_t slot = data().first_operand + i;
  module()->removeUse(slot);
  module()->addUse(slot, value.id());
}

void Op::setOperands(absl::Span<const Value> values) const {
  OpData& op = data();
  for (uint32_t i = 0; i < op.num_operands; ++i) {
    module()->removeUse(op.first_operand + i);
  }
  if (values.size() > op.num_operands) {
    // Move to a fresh range at the end; the old slots stay dead.
    op.first_operand = static_cast<uint32_t>(module()->operands_.size());
    module()->operands_.resize(module()->operands_.size() + values.size());
  }
  op.num_operands = static_cast<uint32_t>(values.size());
  for (uint32_t i = 0; i < op.num_operands; ++i) {
    uint32_t slot = op.first_operand + i;
    module()->operands_[slot] = OperandData{kNoId, id(), kNoId, kNoId};
    module()->addUse(slot, values[i].id());
  }
}

void Op::insertOperand(unsigned i, Value value) const {
  std::vector<Value> values = operands();
  values.insert(values.begin() + i, value);
  setOperands(values);
}

void Op::eraseOperand(unsigned i) const {
  std::vector<Value> values = operands();
  values.erase(values.begin() + i);
  setOperands(values);
}

std::vector<Value> Op::results() const {
  std::vector<Value> result;
  result.reserve(numResults());
  for (unsigned i = 0; i < numResults(); ++i) result.push_back(this->result(i));
  return result;
}

std::vector<Type> Op::resultTypes() const {
  std::vector<Type> result;
  result.reserve(numResults());
  for (unsigned i = 0; i < numResults(); ++i) {
    result.push_back(this->result(i).type());
  }
  return result;
}

void Op::setAttr(std::string_view name, Attribute value) const {
  attrDictFor(name).set(name, std::move(value));
}

AttrDict& Op::attrDictFor(std::string_view name) const {
  OpData& op = data();
  if (op.inherent.contains(name) ||
      (!op.discardable.contains(name) && op.name.isInherentAttr(name))) {
    return op.inherent;
  }
  return op.discardable;
}

bool Op::removeAttr(std::string_view name) const {
  OpData& op = data();
  return op.inherent.erase(name) || op.discardable.erase(name);
}

Op Op::parentOp() const {
  uint32_t block = data().parent_block;
  if (block == kNoId) return Op();
  return Block(module(), block).parentOp();
}

bool Op::isNestedIn(Op ancestor) const {
  for (Op op = *this; op; op = op.parentOp()) {
    if (op == ancestor) return true;
  }
  return false;
}

void Op::erase() const { module()->eraseOp(id()); }

void Op::moveBefore(Op anchor) const {
  module()->linkBefore(anchor.data().parent_block, anchor.id(), id());
}

void Op::moveAfter(Op anchor) const {
  Op next = anchor.nextInBlock();
  if (next) {
    moveBefore(next);
  } else {
    module()->linkBefore(anchor.data().parent_block, kNoId, id());
  }
}

// ---- Block / Region
// ------------------------------------------------------------

std::vector<Value> Block::arguments() const {
  std::vector<Value> result;
  for (uint32_t v : data().arguments) result.push_back(Value(module(), v));
  return result;
}

Value Block::addArgument(Type type) const {
  auto& args = data().arguments;
  uint32_t v =
      module()->newValue(type, id(), static_cast<uint32_t>(args.size()), true);
  data().arguments.push_back(v);
  return Value(module(), v);
}

void Block::eraseArgument(unsigned i) const {
  auto& args = data().arguments;
  args.erase(args.begin() + i);
  for (unsigned j = i; j < args.size(); ++j)
    module()->values_[args[j]].index = j;
}

Op Block::parentOp() const { return parentRegion().parentOp(); }

void Block::pushBack(Op op) const {
  module()->linkBefore(id(), kNoId, op.id());
}
void Block::pushFront(Op op) const {
  module()->linkBefore(id(), data().first_op, op.id());
}
void Block::insertBefore(Op anchor, Op op) const {
  module()->linkBefore(id(), anchor.id(), op.id());
}
void Block::insertAfter(Op anchor, Op op) const { op.moveAfter(anchor); }

std::vector<Op> Block::ops() const {
  std::vector<Op> result;
  result.reserve(numOps());
  for (Op op : *this) result.push_back(op);
  return result;
}

Block Region::addBlock() const {
  return Block(module(), module()->newBlock(id()));
}

void OperationState::addAttr(std::string_view attr_name, Attribute value) {
  if (name.isInherentAttr(attr_name)) {
    inherent_attrs.set(attr_name, std::move(value));
  } else {
    discardable_attrs.set(attr_name, std::move(value));
  }
}

}  // namespace shardkit
