// The data-flow ops other dialects register (sharding_site.h).
#include "shardkit/dialect/sdy/data_flow_shapes.h"

#include <array>
#include <atomic>
#include <mutex>
#include <string>

namespace shardkit {
namespace {

// Few dialects register few ops; readers (verifier threads, propagation)
// scan the published prefix without a lock.
constexpr size_t kMaxShapes = 16;

struct ShapeEntry {
  OpName name;
  std::atomic<DataFlowShape> shape{DataFlowShape::kNone};
};

struct ShapeTable {
  std::mutex mu;
  std::array<ShapeEntry, kMaxShapes> entries;
  std::atomic<size_t> count{0};
};

ShapeTable& shapeTable() {
  static ShapeTable* table = new ShapeTable();
  return *table;
}

}  // namespace

void registerDataFlowShape(std::string_view op_name, DataFlowShape shape) {
  OpName name = OpName::registered(op_name);
  if (!name) return;
  ShapeTable& table = shapeTable();
  std::lock_guard<std::mutex> lock(table.mu);
  size_t count = table.count.load(std::memory_order_relaxed);
  for (size_t i = 0; i < count; ++i) {
    if (table.entries[i].name == name) {
      table.entries[i].shape.store(shape, std::memory_order_release);
      return;
    }
  }
  if (count == kMaxShapes) return;
  table.entries[count].name = name;
  table.entries[count].shape.store(shape, std::memory_order_relaxed);
  table.count.store(count + 1, std::memory_order_release);
}

DataFlowShape registeredDataFlowShape(Op op) {
  if (!op || !op.opName().hasTrait(OpTrait::kDataFlowEdges)) {
    return DataFlowShape::kNone;
  }
  ShapeTable& table = shapeTable();
  size_t count = table.count.load(std::memory_order_acquire);
  const OpNameEntry* entry = op.opName().entry();
  for (size_t i = 0; i < count; ++i) {
    if (table.entries[i].name.entry() == entry) {
      return table.entries[i].shape.load(std::memory_order_acquire);
    }
  }
  return DataFlowShape::kNone;
}

}  // namespace shardkit
