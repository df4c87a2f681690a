#include "shardkit/asm/op_syntax.h"

#include <algorithm>
#include <memory>
#include <mutex>

#include "absl/container/inlined_vector.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "src/asm/builtin_syntax.h"

namespace shardkit {
namespace {

bool startsType(TokenKind k) {
  return k == TokenKind::kBareIdent || k == TokenKind::kBangIdent ||
         k == TokenKind::kLParen;
}

}  // namespace

absl::Status OpReader::parseOperandInto(std::vector<Value>& operands) {
  SK_ASSIGN_OR_RETURN(Value operand, parseOperand());
  operands.push_back(operand);
  return absl::OkStatus();
}

absl::Status OpReader::parseOperandList(std::vector<Value>& operands) {
  if (!p().at(TokenKind::kPercentIdent)) return absl::OkStatus();
  SK_ASSIGN_OR_RETURN(Value first, parseOperand());
  operands.push_back(first);
  while (p().at(TokenKind::kComma) &&
         p().lexer().peek().kind == TokenKind::kPercentIdent) {
    p().advance();
    SK_ASSIGN_OR_RETURN(Value v, parseOperand());
    operands.push_back(v);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> OpReader::parseSymbolName(std::string_view what) {
  if (!p().at(TokenKind::kAtIdent)) return p().errorExpected(what);
  std::string_view spelling = p().tok().spelling.substr(1);
  std::string name(spelling);
  if (spelling.starts_with("\"") && !Lexer::unescape(spelling, name)) {
    return p().error(
        strCat("invalid escape sequence in symbol name ", p().tok().spelling));
  }
  p().advance();
  return name;
}

absl::Status OpReader::parseTypeList(std::vector<Type>& types) {
  SK_ASSIGN_OR_RETURN(Type first, parseType());
  types.push_back(first);
  while (p().at(TokenKind::kComma) && startsType(p().lexer().peek().kind)) {
    p().advance();
    SK_ASSIGN_OR_RETURN(Type t, parseType());
    types.push_back(t);
  }
  return absl::OkStatus();
}

absl::Status OpReader::parseParenTypeList(std::vector<Type>& types) {
  SK_RETURN_IF_ERROR(p().expect(TokenKind::kLParen, "'('"));
  if (p().consumeIf(TokenKind::kRParen)) return absl::OkStatus();
  SK_RETURN_IF_ERROR(parseTypeList(types));
  return p().expect(TokenKind::kRParen, "')'");
}

absl::Status OpReader::parseFunctionalType(std::vector<Type>& inputs,
                                           std::vector<Type>& results) {
  SK_RETURN_IF_ERROR(parseParenTypeList(inputs));
  SK_RETURN_IF_ERROR(p().expect(TokenKind::kArrow, "'->'"));
  if (p().at(TokenKind::kLParen)) {
    // `-> (a, b)`; but `-> (a) -> b` (a function result) is not supported.
    return parseParenTypeList(results);
  }
  SK_ASSIGN_OR_RETURN(Type t, parseType());
  results.push_back(t);
  return absl::OkStatus();
}

absl::Status OpReader::parseTrailingFunctionalType(OperationState& state) {
  SK_RETURN_IF_ERROR(p().expect(TokenKind::kColon, "':'"));
  size_t offset = p().tok().offset;
  std::vector<Type> inputs;
  SK_RETURN_IF_ERROR(parseFunctionalType(inputs, state.result_types));
  return checkOperandTypes(state.operands, inputs, offset);
}

absl::Status OpReader::parseAttrsAndFunctionalType(OperationState& state) {
  SK_RETURN_IF_ERROR(parseOptionalAttrDict(state));
  return parseTrailingFunctionalType(state);
}

absl::Status OpReader::parseAttrDictAndOperands(OperationState& state,
                                                bool one_operand) {
  SK_RETURN_IF_ERROR(parseOptionalAttrDict(state));
  return one_operand ? parseOperandInto(state.operands)
                     : parseOperandList(state.operands);
}

absl::Status OpReader::parseConstantForm(OperationState& state,
                                         std::string_view expected) {
  SK_RETURN_IF_ERROR(parseOptionalAttrDict(state));
  size_t offset = p().tok().offset;
  SK_ASSIGN_OR_RETURN(Attribute value, parseAttribute());
  const ElementsValue* elements = value.asElements();
  if (!elements) return p().errorAt(offset, expected);
  state.result_types.push_back(elements->type);
  state.addAttr("value", std::move(value));
  return absl::OkStatus();
}

absl::Status OpReader::parseTrailingOperandTypes(
    const std::vector<Value>& operands, std::vector<Type>& types) {
  SK_RETURN_IF_ERROR(p().expect(TokenKind::kColon, "':'"));
  size_t offset = p().tok().offset;
  SK_RETURN_IF_ERROR(parseTypeList(types));
  return checkOperandTypes(operands, types, offset);
}

absl::StatusOr<Type> OpReader::parseTrailingOperandType(
    const std::vector<Value>& operands) {
  SK_RETURN_IF_ERROR(p().expect(TokenKind::kColon, "':'"));
  size_t offset = p().tok().offset;
  SK_ASSIGN_OR_RETURN(Type type, parseType());
  SK_RETURN_IF_ERROR(checkOperandTypes(operands, {type}, offset));
  return type;
}

absl::Status OpReader::parseSameOrFunctionalType(size_t num_operands,
                                                 size_t num_results,
                                                 std::vector<Type>& inputs,
                                                 std::vector<Type>& results) {
  if (p().at(TokenKind::kLParen)) return parseFunctionalType(inputs, results);
  SK_ASSIGN_OR_RETURN(Type t, parseType());
  inputs.assign(num_operands, t);
  results.assign(num_results, t);
  return absl::OkStatus();
}

absl::Status OpReader::checkOperandTypes(const std::vector<Value>& values,
                                         const std::vector<Type>& types,
                                         size_t offset) {
  if (values.size() != types.size()) {
    return p().errorAt(offset, strCat(values.size(), " operands present, but ",
                                      types.size(), " types given"));
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (!(values[i].type() == types[i])) {
      return p().errorAt(
          offset, strCat("operand #", i, " has type ", values[i].type().str(),
                         " but the op's signature says ", types[i].str()));
    }
  }
  return absl::OkStatus();
}

absl::Status OpReader::parseRegionAt(size_t offset, Region region,
                                     const std::vector<ParsedArgument>& args,
                                     bool isolated) {
  size_t resume = p().tok().offset;
  p().resetTo(offset);
  SK_RETURN_IF_ERROR(parseRegion(region, args, isolated));
  p().resetTo(resume);
  return absl::OkStatus();
}

namespace {

// The indices 0, ..., n - 1 as a range for appendJoined. (std::views::iota
// does not compile with clang 14 and libstdc++ 12, the sanitizer build's
// pair.)
struct Indices {
  struct Iterator {
    unsigned i;
    unsigned operator*() const { return i; }
    Iterator& operator++() {
      ++i;
      return *this;
    }
    bool operator!=(const Iterator& other) const { return i != other.i; }
  };
  unsigned n;
  Iterator begin() const { return {0}; }
  Iterator end() const { return {n}; }
};

// Appends the type's text (an `append` for appendJoined).
void appendType(std::string& out, Type type) { out += type.str(); }

// `(ins) -> out`, the types given by count and index: `input(i)`,
// `result(i)`.
template <typename Input, typename Result>
void appendFunctionalType(std::string& out, unsigned num_inputs, Input input,
                          unsigned num_results, Result result) {
  auto types = [&](unsigned n, auto type_at) {
    appendJoined(out, Indices{n}, [&](std::string& o, unsigned i) {
      appendType(o, type_at(i));
    });
  };
  out += '(';
  types(num_inputs, input);
  out += ") -> ";
  if (num_results == 1 && result(0).kind() != TypeKind::kFunction) {
    appendType(out, result(0));
  } else {
    out += '(';
    types(num_results, result);
    out += ')';
  }
}

}  // namespace

void OpWriter::printOperands(const std::vector<Value>& values) {
  appendJoined(out_, values,
               [&](std::string& out, Value v) { appendValueName(out, v); });
}

void OpWriter::printOperands(Op op) {
  appendJoined(out_, Indices{op.numOperands()},
               [&](std::string& out, unsigned i) {
                 appendValueName(out, op.operand(i));
               });
}

void OpWriter::printTypes(const std::vector<Type>& types) {
  appendJoined(out_, types, appendType);
}

void OpWriter::printFunctionalType(const std::vector<Type>& inputs,
                                   const std::vector<Type>& results) {
  appendFunctionalType(
      out_, static_cast<unsigned>(inputs.size()),
      [&](unsigned i) { return inputs[i]; },
      static_cast<unsigned>(results.size()),
      [&](unsigned i) { return results[i]; });
}

void OpWriter::printFunctionalType(Op op) {
  appendFunctionalType(
      out_, op.numOperands(), [&](unsigned i) { return op.operand(i).type(); },
      op.numResults(), [&](unsigned i) { return op.result(i).type(); });
}

void OpWriter::printSameOrFunctionalType(Op op) {
  const unsigned num_operands = op.numOperands();
  const unsigned num_results = op.numResults();
  Type first = num_operands > 0  ? op.operand(0).type()
               : num_results > 0 ? op.result(0).type()
                                 : Type();
  bool same = static_cast<bool>(first);
  for (unsigned i = 0; same && i < num_operands; ++i) {
    same = op.operand(i).type() == first;
  }
  for (unsigned i = 0; same && i < num_results; ++i) {
    same = op.result(i).type() == first;
  }
  if (same) {
    out_ += first.str();
  } else {
    printFunctionalType(op);
  }
}

namespace {

// `{...}` of the entries of `first` and `second` but those named in
// `elided`; nothing when that leaves none.
void appendMergedDict(std::string& out, const AttrDict& first,
                      const AttrDict& second,
                      absl::Span<const std::string_view> elided) {
  // Both dictionaries are sorted by name: merge them, without copies.
  absl::InlinedVector<const NamedAttribute*, 8> entries;
  auto keep = [&](const NamedAttribute& a) {
    return std::find(elided.begin(), elided.end(), a.name) == elided.end();
  };
  auto a = first.begin();
  auto b = second.begin();
  while (a != first.end() || b != second.end()) {
    // A first entry first among equal names (a stable sort's order).
    const NamedAttribute& next =
        b == second.end() || (a != first.end() && a->name <= b->name) ? *a++
                                                                      : *b++;
    if (keep(next)) entries.push_back(&next);
  }
  if (!entries.empty()) appendAttrDict(out, entries);
}

}  // namespace

void OpWriter::appendDict(const AttrDict& first, const AttrDict& second,
                          absl::Span<const std::string_view> elided) {
  if (first.empty() && second.empty()) return;
  ScopedAttrTextMemo* memo = ScopedAttrTextMemo::active();
  if (memo == nullptr) {
    appendMergedDict(out_, first, second, elided);
    return;
  }
  out_ += memo->dictText(first, second, elided, [&] {
    std::string text;
    appendMergedDict(text, first, second, elided);
    return text;
  });
}

void OpWriter::printAttrDict(Op op,
                             std::initializer_list<std::string_view> elided) {
  size_t size = out_.size();
  out_ += ' ';
  appendDict(op.inherentAttrs(), op.discardableAttrs(), elided);
  if (out_.size() == size + 1) out_.resize(size);  // no entry printed
}

void OpWriter::printAttrsAndFunctionalType(
    Op op, std::initializer_list<std::string_view> elided) {
  printAttrDict(op, elided);
  out_ += " : ";
  printFunctionalType(op);
}

void OpWriter::printAttrsAndType(Op op,
                                 std::initializer_list<std::string_view> elided,
                                 Type type) {
  printAttrDict(op, elided);
  out_ += " : ";
  printType(type);
}

void OpWriter::printAttrDictAndOperands(
    Op op, std::string_view head,
    std::initializer_list<std::string_view> elided) {
  out_ += head;
  printAttrDict(op, elided);
  out_ += " ";
  printOperands(op);
  out_ += " : ";
}

void OpWriter::printConstantForm(Op op, std::string_view name) {
  out_ += name;
  printAttrDict(op, {"value"});
  out_ += " ";
  printAttribute(op.attr("value"));
}

void OpWriter::printUnaryForm(Op op, std::string_view after,
                              std::initializer_list<std::string_view> elided,
                              Type type) {
  strAppend(out_, op.name(), " ");
  appendValueName(out_, op.operand(0));
  out_ += after;
  printAttrsAndType(op, elided, type);
}

void OpWriter::printAttrsAndSameOrFunctionalType(
    Op op, std::initializer_list<std::string_view> elided) {
  printAttrDict(op, elided);
  out_ += " : ";
  printSameOrFunctionalType(op);
}

void OpWriter::printBlockArguments(Block block) {
  out_ += '(';
  for (unsigned i = 0; i < block.numArguments(); ++i) {
    if (i) out_ += ", ";
    Value arg = block.argument(i);
    appendValueName(out_, arg);
    strAppend(out_, ": ", arg.type().str());
  }
  out_ += ')';
}

namespace {

// The registered syntaxes, by name. They live in stable heap cells so that
// lookups can hand out pointers while registration continues.
template <typename T>
using SyntaxMap = absl::flat_hash_map<std::string, std::unique_ptr<T>>;

struct Registry {
  std::mutex mu;
  SyntaxMap<OpSyntax> syntaxes;
  SyntaxMap<DialectTextSyntax> dialects;

  // The entry `name` of `map`, or null.
  template <typename T>
  const T* find(const SyntaxMap<T>& map, std::string_view name) {
    std::lock_guard<std::mutex> lock(mu);
    auto it = map.find(toAbsl(name));
    return it == map.end() ? nullptr : it->second.get();
  }
  // Adds or replaces the entry `name` of `map` (its cell stays).
  template <typename T>
  void set(SyntaxMap<T>& map, std::string_view name, const T& value) {
    std::lock_guard<std::mutex> lock(mu);
    std::unique_ptr<T>& slot = map[toAbsl(name)];
    if (slot) {
      *slot = value;
    } else {
      slot = std::make_unique<T>(value);
    }
  }
};

Registry& registry() {
  static Registry* r = [] {
    auto* reg = new Registry();
    ir_internal::SyntaxTable builtin;
    ir_internal::addSdySyntax(builtin);
    ir_internal::addFuncSyntax(builtin);
    ir_internal::addStablehloSyntax(builtin);
    for (auto& [name, syntax] : builtin) {
      reg->syntaxes[std::string(name)] = std::make_unique<OpSyntax>(syntax);
    }
    return reg;
  }();
  return *r;
}

}  // namespace

const OpSyntax* findSyntax(std::string_view op_name) {
  Registry& r = registry();
  return r.find(r.syntaxes, op_name);
}

void registerOpSyntax(std::string_view op_name, OpSyntax syntax) {
  Registry& r = registry();
  r.set(r.syntaxes, op_name, syntax);
}

const DialectTextSyntax* findDialectTextSyntax(std::string_view dialect) {
  Registry& r = registry();
  return r.find(r.dialects, dialect);
}

void registerDialectTextSyntax(std::string_view dialect,
                               DialectTextSyntax syntax) {
  Registry& r = registry();
  r.set(r.dialects, dialect, syntax);
}

}  // namespace shardkit
