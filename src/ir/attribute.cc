#include "shardkit/ir/attribute.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include "shardkit/support/strings.h"
#include "shardkit/text/lexer.h"

namespace shardkit {
namespace {

// The payload type of each kind, in the order of AttrKind (what make()
// stores; none for kNull and kUnit).
using BuiltinPayloads =
    std::tuple<std::monostate, std::monostate, bool, IntegerValue, FloatValue,
               std::string, std::string, std::vector<Attribute>,
               DenseArrayValue, std::vector<NamedAttribute>, Type,
               ElementsValue, std::string>;
using Payloads = decltype(std::tuple_cat(std::declval<BuiltinPayloads>(),
                                         std::declval<SdyPayloads>()));
static_assert(std::tuple_size_v<BuiltinPayloads> ==
              static_cast<size_t>(AttrKind::kTensorSharding));
static_assert(std::tuple_size_v<Payloads> ==
              static_cast<size_t>(AttrKind::kPropagationEdges) + 1);

// Whether `a` and `b`, of one kind whose payload is a `T`, hold equal
// payloads.
template <typename T>
bool samePayload(const Attribute& a, const Attribute& b) {
  if constexpr (std::is_same_v<T, std::monostate>) {
    return true;
  } else {
    return *static_cast<const T*>(a.identity()) ==
           *static_cast<const T*>(b.identity());
  }
}

// Whether `a` and `b`, of one kind, hold equal payloads (`Ts` are the
// payload types of the kinds, in order).
template <typename... Ts>
bool payloadsEqual(const Attribute& a, const Attribute& b,
                   const std::tuple<Ts...>* /*payloads*/) {
  using EqualFn = bool (*)(const Attribute&, const Attribute&);
  static constexpr EqualFn kEqual[] = {&samePayload<Ts>...};
  return kEqual[static_cast<size_t>(a.kind())](a, b);
}

}  // namespace

Attribute Attribute::unit() {
  Attribute a;
  a.kind_ = AttrKind::kUnit;
  return a;
}
Attribute Attribute::boolean(bool value) {
  return make(AttrKind::kBool, value);
}
Attribute Attribute::integer(int64_t value, std::string_view type) {
  return make(AttrKind::kInteger, IntegerValue{value, std::string(type)});
}
Attribute Attribute::floating(double value, std::string_view type) {
  return make(AttrKind::kFloat, FloatValue{value, std::string(type)});
}
Attribute Attribute::string(std::string value) {
  return make(AttrKind::kString, std::move(value));
}
Attribute Attribute::symbolRef(std::string name) {
  return make(AttrKind::kSymbolRef, std::move(name));
}
Attribute Attribute::array(std::vector<Attribute> elements) {
  return make(AttrKind::kArray, std::move(elements));
}
Attribute Attribute::denseArray(std::string element_type,
                                std::vector<int64_t> values) {
  return make(AttrKind::kDenseArray,
              DenseArrayValue{std::move(element_type), std::move(values)});
}
Attribute Attribute::dict(std::vector<NamedAttribute> entries) {
  auto by_name = [](const NamedAttribute& a, const NamedAttribute& b) {
    return a.name < b.name;
  };
  // Most come sorted; stable_sort would allocate a buffer even then.
  if (!std::is_sorted(entries.begin(), entries.end(), by_name)) {
    std::stable_sort(entries.begin(), entries.end(), by_name);
  }
  return make(AttrKind::kDict, std::move(entries));
}
Attribute Attribute::type(Type type) { return make(AttrKind::kType, type); }
Attribute Attribute::elements(std::string literal, Type type) {
  return make(AttrKind::kElements, ElementsValue{std::move(literal), type});
}
Attribute Attribute::opaque(std::string text) {
  return make(AttrKind::kOpaque, std::move(text));
}
std::vector<Attribute>* Attribute::mutableArrayIfUnique() {
  if (kind_ != AttrKind::kArray || data_.use_count() != 1) return nullptr;
  // Sole owner: nothing else can observe the change.
  return const_cast<std::vector<Attribute>*>(
      static_cast<const std::vector<Attribute>*>(data_.get()));
}

std::optional<int64_t> Attribute::intValue() const {
  if (const IntegerValue* i = asInteger()) return i->value;
  if (const bool* b = asBool()) return *b ? 1 : 0;
  return std::nullopt;
}

std::optional<std::vector<int64_t>> Attribute::intList() const {
  if (const DenseArrayValue* d = asDenseArray()) return d->values;
  if (const std::vector<Attribute>* elements = asArray()) {
    std::vector<int64_t> values;
    for (const Attribute& e : *elements) {
      std::optional<int64_t> v = e.intValue();
      if (!v) return std::nullopt;
      values.push_back(*v);
    }
    return values;
  }
  return std::nullopt;
}

bool operator==(const Attribute& a, const Attribute& b) {
  if (a.kind_ != b.kind_) return false;
  if (a.data_ == b.data_) return true;
  return payloadsEqual(a, b, static_cast<const Payloads*>(nullptr));
}

AttrDict::Rep* AttrDict::allocate(size_t size) {
  void* memory = ::operator new(sizeof(Rep) + size * sizeof(NamedAttribute));
  Rep* rep = new (memory) Rep;
  rep->refs.store(1, std::memory_order_relaxed);
  rep->size = static_cast<uint32_t>(size);
  return rep;
}

AttrDict::Rep* AttrDict::create(std::vector<NamedAttribute>&& entries) {
  if (entries.empty()) return nullptr;
  Rep* rep = allocate(entries.size());
  std::uninitialized_move(entries.begin(), entries.end(), rep->data());
  return rep;
}

void AttrDict::release(Rep* rep) {
  if (rep == nullptr || rep->refs.fetch_sub(1, std::memory_order_acq_rel) != 1)
    return;
  for (uint32_t i = 0; i < rep->size; ++i) rep->data()[i].~NamedAttribute();
  rep->~Rep();
  ::operator delete(rep);
}

void AttrDict::reset(std::vector<NamedAttribute>&& entries) {
  Rep* old = rep_;
  rep_ = create(std::move(entries));
  release(old);
}

namespace {

// A new dictionary block being filled: [first, last) are its entries
// constructed so far. If a copy throws before commit(), the guard destroys
// them and frees the block, so that the dictionary is left as it was.
struct BlockGuard {
  void* block;
  NamedAttribute* first;
  NamedAttribute* last;

  ~BlockGuard() {
    if (block == nullptr) return;
    std::destroy(first, last);
    ::operator delete(block);
  }
  void commit() { block = nullptr; }
  // Constructs [from, to) at `last`, moving the entries when `owned` (the
  // block they are in is about to be released; moves do not throw) and
  // copying them otherwise.
  void append(NamedAttribute* from, NamedAttribute* to, bool owned) {
    for (; from != to; ++from, ++last) {
      if (owned) {
        new (last) NamedAttribute(std::move(*from));
      } else {
        new (last) NamedAttribute(*from);
      }
    }
  }
};

}  // namespace

void AttrDict::unshare() {
  if (rep_ == nullptr || ownsEntries()) return;
  Rep* copy = allocate(rep_->size);
  BlockGuard guard{copy, copy->data(), copy->data()};
  guard.append(rep_->data(), rep_->data() + rep_->size, /*owned=*/false);
  guard.commit();
  release(std::exchange(rep_, copy));
}

Attribute* AttrDict::find(std::string_view name) {
  const NamedAttribute* e = findEntry(entries(), name);
  if (e == nullptr) return nullptr;
  const size_t index = e - rep_->data();
  unshare();
  return &rep_->data()[index].value;
}

// The new entry goes straight into a block one entry larger; the others are
// moved there if this dictionary owns them, copied if it shares them. What
// may throw (the new name, the copies) comes before anything is moved.
void AttrDict::set(std::string_view name, Attribute value) {
  if (Attribute* existing = find(name)) {
    *existing = std::move(value);
    return;
  }
  NamedAttribute entry{std::string(name), std::move(value)};
  const size_t count = size();
  const size_t at =
      std::lower_bound(begin(), end(), name,
                       [](const NamedAttribute& e, std::string_view n) {
                         return e.name < n;
                       }) -
      begin();
  Rep* grown = allocate(count + 1);
  BlockGuard guard{grown, grown->data(), grown->data()};
  NamedAttribute* old = rep_ ? rep_->data() : nullptr;
  const bool owned = ownsEntries();
  guard.append(old, old + at, owned);
  guard.append(&entry, &entry + 1, /*owned=*/true);
  guard.append(old + at, old + count, owned);
  guard.commit();
  release(std::exchange(rep_, grown));
}

void AttrDict::setAll(std::vector<NamedAttribute> entries) {
  if (entries.empty()) return;
  auto by_name = [](const NamedAttribute& a, const NamedAttribute& b) {
    return a.name < b.name;
  };
  std::stable_sort(entries.begin(), entries.end(), by_name);
  // Of equal names in `entries` keep the last, and prefer `entries` over
  // the existing ones: merge the new (sorted, unique) entries first.
  std::vector<NamedAttribute> unique;
  unique.reserve(entries.size());
  for (NamedAttribute& e : entries) {
    if (!unique.empty() && unique.back().name == e.name) {
      unique.back() = std::move(e);
    } else {
      unique.push_back(std::move(e));
    }
  }
  std::vector<NamedAttribute> merged;
  merged.reserve(unique.size() + size());
  auto a = unique.begin();
  const NamedAttribute* b = begin();
  while (a != unique.end() || b != end()) {
    if (b == end() || (a != unique.end() && a->name <= b->name)) {
      if (b != end() && a->name == b->name) ++b;
      merged.push_back(std::move(*a++));
    } else {
      merged.push_back(*b++);
    }
  }
  reset(std::move(merged));
}

bool AttrDict::erase(std::string_view name) {
  const NamedAttribute* e = findEntry(entries(), name);
  if (e == nullptr) return false;
  const size_t count = size();
  const size_t at = e - rep_->data();
  Rep* shrunk = count == 1 ? nullptr : allocate(count - 1);
  if (shrunk != nullptr) {
    BlockGuard guard{shrunk, shrunk->data(), shrunk->data()};
    NamedAttribute* old = rep_->data();
    const bool owned = ownsEntries();
    guard.append(old, old + at, owned);
    guard.append(old + at + 1, old + count, owned);
    guard.commit();
  }
  release(std::exchange(rep_, shrunk));
  return true;
}

namespace {

// The float formats MLIR prints: their significand bits (with the implicit
// one) and the decimal digits APFloat prints them with by default
// (2 + bits * 59 / 196).
struct FloatFormat {
  int bits = 53;
  int digits = 17;
};
FloatFormat floatFormatOf(std::string_view type) {
  if (type == "f32") return {24, 9};
  if (type == "f16") return {11, 5};
  if (type == "bf16") return {8, 4};
  return {53, 17};
}

// Whether `text` reads back as `value` in a format of `bits` significand
// bits: the nearest value of that format to the text is `value`.
bool readsBackAs(const char* text, double value, int bits) {
  const double read = std::strtod(text, nullptr);
  if (bits == 53) return read == value;
  if (bits == 24)
    return std::strtof(text, nullptr) == static_cast<float>(value);
  if (read == value) return true;
  int exponent = 0;
  std::frexp(value, &exponent);
  // Half a unit in the last place of `value` (subnormals aside).
  const double half_ulp = std::ldexp(1.0, exponent - bits - 1);
  return std::fabs(read - value) < half_ulp;
}

// APFloat's default text of `value`: `digits` significant digits, trailing
// zeros dropped, scientific (`1.5E+10`) unless at most three zeros pad it.
std::string apFloatText(double value, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*e", digits - 1, value);
  std::string text = buf;
  const bool negative = text[0] == '-';
  if (negative) text.erase(0, 1);
  const size_t e = text.find('e');
  const int sci_exp = std::atoi(text.c_str() + e + 1);
  std::string mantissa = text.substr(0, e);
  mantissa.erase(std::remove(mantissa.begin(), mantissa.end(), '.'),
                 mantissa.end());
  while (mantissa.size() > 1 && mantissa.back() == '0') mantissa.pop_back();
  const int n = static_cast<int>(mantissa.size());
  // The power of ten of the last digit.
  const int exp = sci_exp - (n - 1);
  constexpr int kMaxPadding = 3;
  bool scientific;
  if (exp >= 0) {
    scientific = exp > kMaxPadding || n + exp > digits;
  } else {
    const int msd = exp + n - 1;
    scientific = msd < 0 && -msd > kMaxPadding;
  }
  std::string out = negative ? "-" : "";
  if (scientific) {
    out += mantissa[0];
    out += '.';
    out += n == 1 ? std::string("0") : mantissa.substr(1);
    strAppend(out, "E", sci_exp >= 0 ? "+" : "-",
              sci_exp >= 0 ? sci_exp : -sci_exp);
    return out;
  }
  if (exp >= 0) return out + mantissa + std::string(exp, '0');
  const int whole = exp + n;
  if (whole > 0) {
    return out + mantissa.substr(0, whole) + "." + mantissa.substr(whole);
  }
  return out + "0." + std::string(-whole, '0') + mantissa;
}

}  // namespace

std::string formatFloat(double value, std::string_view type) {
  const bool is_f32 = type == "f32" || type == "f16" || type == "bf16";
  auto hex = [&]() -> std::string {
    char buf[32];
    if (is_f32) {
      float f = static_cast<float>(value);
      uint32_t bits;
      std::memcpy(&bits, &f, sizeof(bits));
      std::snprintf(buf, sizeof(buf), "0x%08X", bits);
    } else {
      uint64_t bits;
      std::memcpy(&bits, &value, sizeof(bits));
      std::snprintf(buf, sizeof(buf), "0x%016llX",
                    static_cast<unsigned long long>(bits));
    }
    return buf;
  };
  if (std::isnan(value) || std::isinf(value)) return hex();
  // As MLIR prints a float: six digits in exponent form when they read back
  // exactly in the value's format, else APFloat's default text when it has
  // a point, else the bits in hex.
  const FloatFormat format = floatFormatOf(type);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.6e", value);
  if (readsBackAs(buf, value, format.bits)) return buf;
  std::string text = apFloatText(value, format.digits);
  return text.find('.') != std::string::npos ? text : hex();
}

namespace {

void appendEntry(std::string& out, const NamedAttribute& entry) {
  // A name that is not an identifier is quoted, as MLIR does.
  if (isBareIdentifier(entry.name)) {
    out += entry.name;
  } else {
    appendQuoted(out, entry.name);
  }
  if (entry.value.kind() != AttrKind::kUnit) {
    out += " = ";
    appendAttribute(out, entry.value);
  }
}

}  // namespace

void appendAttrDict(std::string& out,
                    absl::Span<const NamedAttribute> entries) {
  out += '{';
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i) out += ", ";
    appendEntry(out, entries[i]);
  }
  out += '}';
}

void appendAttrDict(std::string& out,
                    absl::Span<const NamedAttribute* const> entries) {
  out += '{';
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i) out += ", ";
    appendEntry(out, *entries[i]);
  }
  out += '}';
}

namespace {

thread_local ScopedAttrTextMemo* active_memo = nullptr;

// Appends `print()`, or the text remembered for `attr` by the active memo.
template <typename PrintFn>
void appendMemoized(std::string& out, const Attribute& attr, PrintFn print) {
  ScopedAttrTextMemo* memo = ScopedAttrTextMemo::active();
  if (memo == nullptr) {
    out += print();
  } else {
    out += memo->text(attr, print);
  }
}

// How each sdy payload is written as an attribute, in the order of
// SdyPayloads: `prefix`, the payload's text, `suffix`. The text of the
// `memoized` ones (shardings, rules) is remembered while a
// ScopedAttrTextMemo lives.
struct SdyAttrForm {
  std::string_view prefix;
  std::string_view suffix;
  bool memoized;
};
constexpr SdyAttrForm kSdyAttrForms[] = {
    {"#sdy.sharding", "", true},
    {"#sdy.sharding_per_value", "", true},
    {"#sdy.op_sharding_rule", "", true},
    {"#sdy.mesh", "", false},
    {"#sdy<manual_axes", ">", false},
    {"#sdy<axis_ref_list", ">", false},
    {"#sdy<list_of_axis_ref_lists", ">", false},
    {"#sdy<all_to_all_param_list", ">", false},
    {"#sdy<propagation_direction ", ">", false},
    {"#sdy.propagation_edges", "", false}};
static_assert(std::size(kSdyAttrForms) == std::tuple_size_v<SdyPayloads>);

template <typename T>
void appendSdyPayloadAs(std::string& out, const Attribute& attr,
                        const SdyAttrForm& form) {
  auto print = [&] {
    return strCat(form.prefix, toString(*attr.as<T>()), form.suffix);
  };
  if (form.memoized) {
    appendMemoized(out, attr, print);
  } else {
    out += print();
  }
}

// Appends `attr`, of an sdy kind (`Ts` are the sdy payload types, in the
// order of their kinds).
template <typename... Ts>
void appendSdyPayload(std::string& out, const Attribute& attr,
                      const std::tuple<Ts...>* /*payloads*/) {
  using AppendFn = void (*)(std::string&, const Attribute&, const SdyAttrForm&);
  static constexpr AppendFn kAppend[] = {&appendSdyPayloadAs<Ts>...};
  const size_t index = static_cast<size_t>(attr.kind()) -
                       static_cast<size_t>(AttrKind::kTensorSharding);
  kAppend[index](out, attr, kSdyAttrForms[index]);
}

}  // namespace

ScopedAttrTextMemo::ScopedAttrTextMemo() : outer_(active_memo) {
  active_memo = this;
}
ScopedAttrTextMemo::~ScopedAttrTextMemo() { active_memo = outer_; }
ScopedAttrTextMemo* ScopedAttrTextMemo::active() { return active_memo; }

namespace {

// Whether `text` is a nested symbol reference as the reader keeps it (after
// its first '@'): `root::@a::@b`, each part a whole symbol token, with
// nothing between them. A single symbol whose (quoted) name merely contains
// "::@" is not one.
bool isWrittenNestedRef(std::string_view text) {
  if (text.find("::@") == std::string_view::npos) return false;
  std::string written = strCat("@", text);
  Lexer lexer(written);
  size_t end = 0;
  auto nextIs = [&](TokenKind kind) {
    Token t = lexer.next();
    if (t.kind != kind || t.offset != end) return false;
    end = t.offset + t.spelling.size();
    return true;
  };
  if (!nextIs(TokenKind::kAtIdent)) return false;
  while (end < written.size()) {
    if (!nextIs(TokenKind::kColon) || !nextIs(TokenKind::kColon) ||
        !nextIs(TokenKind::kAtIdent)) {
      return false;
    }
  }
  return true;
}

}  // namespace

void appendAttribute(std::string& out, const Attribute& attr, bool elide_i64) {
  switch (attr.kind()) {
    case AttrKind::kNull:
      out += "<<NULL ATTRIBUTE>>";
      return;
    case AttrKind::kUnit:
      out += "unit";
      return;
    case AttrKind::kBool:
      out += *attr.asBool() ? "true" : "false";
      return;
    case AttrKind::kInteger: {
      const IntegerValue& i = *attr.asInteger();
      if (i.type == "i1") {
        out += i.value ? "true" : "false";
        return;
      }
      if (i.value < 0 && i.type.starts_with("ui")) {
        strAppend(out, static_cast<uint64_t>(i.value));  // MLIR prints unsigned
      } else {
        strAppend(out, i.value);
      }
      if (!(elide_i64 && i.type == "i64")) strAppend(out, " : ", i.type);
      return;
    }
    case AttrKind::kFloat: {
      const FloatValue& f = *attr.asFloat();
      out += formatFloat(f.value, f.type);
      if (!(elide_i64 && f.type == "f64")) strAppend(out, " : ", f.type);
      return;
    }
    case AttrKind::kString:
      appendQuoted(out, *attr.asString());
      return;
    case AttrKind::kSymbolRef:
      if (isWrittenNestedRef(*attr.asSymbolRef())) {
        strAppend(out, "@", *attr.asSymbolRef());  // nested, kept as written
      } else {
        appendSymbolRef(out, *attr.asSymbolRef());
      }
      return;
    case AttrKind::kArray: {
      out += '[';
      const auto& elements = *attr.asArray();
      for (size_t i = 0; i < elements.size(); ++i) {
        if (i) out += ", ";
        appendAttribute(out, elements[i], /*elide_i64=*/true);
      }
      out += ']';
      return;
    }
    case AttrKind::kDenseArray: {
      const DenseArrayValue& d = *attr.asDenseArray();
      strAppend(out, "array<", d.element_type);
      for (size_t i = 0; i < d.values.size(); ++i) {
        out += i ? ", " : ": ";
        if (d.element_type == "i1") {
          out += d.values[i] ? "true" : "false";
        } else {
          strAppend(out, d.values[i]);
        }
      }
      out += '>';
      return;
    }
    case AttrKind::kDict:
      appendAttrDict(out, *attr.asDict());
      return;
    case AttrKind::kType:
      out += attr.asType()->str();
      return;
    case AttrKind::kElements:
      strAppend(out, attr.asElements()->literal, " : ",
                attr.asElements()->type.str());
      return;
    case AttrKind::kOpaque:
      out += *attr.asOpaque();
      return;
    case AttrKind::kTensorSharding:
    case AttrKind::kTensorShardingPerValue:
    case AttrKind::kOpShardingRule:
    case AttrKind::kMesh:
    case AttrKind::kManualAxes:
    case AttrKind::kAxisRefList:
    case AttrKind::kListOfAxisRefLists:
    case AttrKind::kAllToAllParamList:
    case AttrKind::kPropagationDirection:
    case AttrKind::kPropagationEdges:
      appendSdyPayload(out, attr, static_cast<const SdyPayloads*>(nullptr));
      return;
  }
}

std::string toString(const Attribute& attr, bool elide_i64) {
  std::string out;
  appendAttribute(out, attr, elide_i64);
  return out;
}

}  // namespace shardkit
