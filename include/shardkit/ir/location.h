// DebugLocation: where an op comes from in the user's program, MLIR's
// `loc(...)`. The reader keeps every op's `loc(...)` (aliases such as
// `loc(#loc3)` resolved); passes carry it to the ops they make from an op;
// `-mlir-print-debuginfo` prints it back. A compiler building a graph in C++
// gives its ops locations with Op::setDebugLocation, and diagnostics about
// those ops then name the location and the op.
#ifndef SHARDKIT_IR_LOCATION_H_
#define SHARDKIT_IR_LOCATION_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "shardkit/export.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

class DebugLocation {
 public:
  DebugLocation() = default;  // loc(unknown)

  // `loc("FILE":LINE:COL)`.
  static DebugLocation fileLineCol(std::string_view file, int64_t line,
                                   int64_t col);
  // `loc("NAME")`, or `loc("NAME"(CHILD))`.
  static DebugLocation named(std::string_view name);
  static DebugLocation named(std::string_view name, const DebugLocation& child);
  // The text between `loc(` and `)`, taken as it is (e.g.
  // `callsite("f"("a.py":1:2) at "b.py":3:4)`, `fused["a", "b"]`).
  static DebugLocation fromText(std::string_view text);

  bool isUnknown() const { return text_ == "unknown"; }
  // The text inside `loc(...)`.
  const std::string& text() const { return text_; }
  // `loc(TEXT)`.
  std::string toString() const;

  // The first FILE:LINE:COL inside the location, if any (line 0 if none).
  const std::string& file() const { return file_; }
  int64_t line() const { return line_; }
  int64_t col() const { return col_; }

  friend bool operator==(const DebugLocation& a, const DebugLocation& b) {
    return a.text_ == b.text_;
  }

 private:
  void findFileLineCol();

  std::string text_ = "unknown";
  std::string file_;
  int64_t line_ = 0;
  int64_t col_ = 0;
};

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_IR_LOCATION_H_
