// Enum tables: one value per enumerator of an enum (its name, the op it
// builds, ...), looked up by the enumerator, in place of a `switch` that
// returns constants.
//
//   enum class Color { kRed, kBlue, kLast = kBlue };
//   constexpr EnumTable<Color, std::string_view> kColorNames = {{
//       {Color::kRed, "red"},
//       {Color::kBlue, "blue"},
//   }};
//   kColorNames[Color::kBlue] == "blue";
//   kColorNames.find("red") == Color::kRed;
//
// The enumerators are 0, 1, ..., with `kLast` an alias of the last one. The
// table has one value per enumerator, in order: a table that misses one
// does not compile, as a switch that misses a case does not (-Wswitch). Its
// rows name their enumerators, and one out of order does not compile either;
// a table whose rows would repeat what their values say lists the values
// alone (`= {{&AddOp::opName, &SubtractOp::opName}}`).
#ifndef SHARDKIT_SUPPORT_ENUM_TABLE_H_
#define SHARDKIT_SUPPORT_ENUM_TABLE_H_

#include <array>
#include <cstddef>
#include <optional>

namespace shardkit {

// The value of one enumerator.
template <typename Enum, typename Value>
struct EnumRow {
  Enum key;
  Value value;
};

template <typename Enum, typename Value>
class EnumTable {
 public:
  using Row = EnumRow<Enum, Value>;
  static constexpr size_t kSize = static_cast<size_t>(Enum::kLast) + 1;

  // `rows[i]` is the row of enumerator i. A missing row leaves a
  // value-initialized one (of enumerator 0) in its place, so a table short
  // of rows fails the check too, which runs at compile time (consteval; a
  // failed check is not a constant expression).
  consteval EnumTable(const Row (&rows)[kSize]) {  // NOLINT: implicit
    for (size_t i = 0; i < kSize; ++i) {
      if (static_cast<size_t>(rows[i].key) != i) throw "row out of order";
      rows_[i] = rows[i];
    }
  }
  // `values[i]` is the value of enumerator i.
  template <size_t N>
  consteval EnumTable(const Value (&values)[N]) {  // NOLINT: implicit
    static_assert(N == kSize, "an enum table has one value per enumerator");
    for (size_t i = 0; i < kSize; ++i) {
      rows_[i] = Row{static_cast<Enum>(i), values[i]};
    }
  }

  constexpr const Value& operator[](Enum key) const {
    return rows_[static_cast<size_t>(key)].value;
  }
  // The first enumerator whose value satisfies `pred`, or nullopt.
  template <typename Pred>
  constexpr std::optional<Enum> findIf(Pred&& pred) const {
    for (const Row& row : rows_) {
      if (pred(row.value)) return row.key;
    }
    return std::nullopt;
  }
  // The first enumerator whose value equals `value`, or nullopt.
  template <typename V>
  constexpr std::optional<Enum> find(const V& value) const {
    return findIf([&](const Value& v) { return v == value; });
  }

 private:
  std::array<Row, kSize> rows_{};
};

}  // namespace shardkit

#endif  // SHARDKIT_SUPPORT_ENUM_TABLE_H_
