// Op syntaxes: the interfaces an op's pretty ("custom") form uses to read and
// write it, and the table that maps op names to them. shardkit registers the
// sdy, func and StableHLO forms; a compiler can register its own dialect's
// forms with registerOpSyntax.
#ifndef SHARDKIT_ASM_OP_SYNTAX_H_
#define SHARDKIT_ASM_OP_SYNTAX_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"
#include "shardkit/text/attr_parser.h"
#include "shardkit/text/parser_base.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// A region or function argument as written: `%name: type {attrs}`.
struct ParsedArgument {
  std::string_view name;  // a view of the text being read
  Type type;
  AttrDict attrs;
  size_t offset = 0;
};

// What a syntax's parse function gets: the token cursor plus value scopes,
// types, attributes and regions.
class OpReader {
 public:
  virtual ~OpReader() = default;

  ParserBase& p() { return p_; }
  AttrParser& sdy() { return sdy_; }
  Module& module() { return *module_; }

  // `%name` or `%name#3`.
  virtual absl::StatusOr<Value> parseOperand() = 0;
  // parseOperand, appending the operand to `operands`.
  absl::Status parseOperandInto(std::vector<Value>& operands);
  // `@name` or `@"any name"`: the symbol's name (`what` names it in errors).
  absl::StatusOr<std::string> parseSymbolName(std::string_view what);
  // Zero or more comma-separated operands (stops at a token that is not `%`).
  absl::Status parseOperandList(std::vector<Value>& operands);
  virtual absl::StatusOr<Type> parseType() = 0;
  // One or more comma-separated types.
  absl::Status parseTypeList(std::vector<Type>& types);
  // `(t, ...)` (possibly empty). Virtual: a reader may read plain lists
  // faster (a function's type lists every argument's).
  virtual absl::Status parseParenTypeList(std::vector<Type>& types);
  // `(ins) -> out` or `(ins) -> (outs)`.
  absl::Status parseFunctionalType(std::vector<Type>& inputs,
                                   std::vector<Type>& results);
  // `: (ins) -> outs` ending an op: the outs become `state`'s result types,
  // the ins must be the types of `state`'s operands.
  absl::Status parseTrailingFunctionalType(OperationState& state);
  // `attr-dict : (ins) -> outs`, the end of most pretty forms: the optional
  // attribute dictionary, then parseTrailingFunctionalType.
  absl::Status parseAttrsAndFunctionalType(OperationState& state);
  // `attr-dict %a, ...`, the start of the forms that write the attributes
  // before the operands: the optional attribute dictionary, then the
  // operands (exactly one with `one_operand`), into `state`.
  absl::Status parseAttrDictAndOperands(OperationState& state,
                                        bool one_operand);
  // `attr-dict value`, the form of the constants: the value, an elements
  // literal that carries the result type, becomes `state`'s `value`
  // attribute; `expected` is the error for another value.
  absl::Status parseConstantForm(OperationState& state,
                                 std::string_view expected);
  // `: t1, t2` ending an op: one type per operand, which must be the types
  // of `operands`.
  absl::Status parseTrailingOperandTypes(const std::vector<Value>& operands,
                                         std::vector<Type>& types);
  // `: t` ending an op of one operand (in `operands`), which must have type
  // `t`: returns `t`.
  absl::StatusOr<Type> parseTrailingOperandType(
      const std::vector<Value>& operands);
  // `t` or `(ins) -> out`: the types of an op whose operands and results may
  // all share one type.
  absl::Status parseSameOrFunctionalType(size_t num_operands,
                                         size_t num_results,
                                         std::vector<Type>& inputs,
                                         std::vector<Type>& results);
  virtual absl::StatusOr<Attribute> parseAttribute() = 0;
  // An optional `{...}` dictionary, each entry filed into `state` (inherent or
  // discardable by the op's registered names).
  virtual absl::Status parseOptionalAttrDict(OperationState& state) = 0;
  // `<{...}>` properties (generic form and some pretty forms).
  virtual absl::Status parseOptionalProperties(OperationState& state) = 0;
  // `(%a: t {attrs}, ...)`.
  virtual absl::Status parseArgumentList(std::vector<ParsedArgument>& args,
                                         bool allow_attrs) = 0;
  // `{ ... }` into `region`; `args` become the entry block's arguments (when
  // the region's text has no block label of its own).
  virtual absl::Status parseRegion(Region region,
                                   const std::vector<ParsedArgument>& args,
                                   bool isolated) = 0;
  // Skips a balanced `{...}` region at the cursor and returns where it
  // started; `parseRegionAt` later parses it into an op created meanwhile.
  virtual absl::StatusOr<size_t> skipRegion() = 0;
  // Parses the region text starting at `offset` into `region`, then puts the
  // cursor back where it was.
  absl::Status parseRegionAt(size_t offset, Region region,
                             const std::vector<ParsedArgument>& args,
                             bool isolated);
  // Creates the op (detached) with the location of the op being parsed.
  virtual Op createOp(OperationState& state) = 0;
  // Checks that `values` have `types` (operand types written in the text).
  absl::Status checkOperandTypes(const std::vector<Value>& values,
                                 const std::vector<Type>& types, size_t offset);

 protected:
  OpReader(ParserBase& p, Module* module) : p_(p), sdy_(p), module_(module) {}

 private:
  ParserBase& p_;
  AttrParser sdy_;
  Module* module_;
};

// What a syntax's print function gets.
class OpWriter {
 public:
  virtual ~OpWriter() = default;

  std::string& out() { return out_; }
  OpWriter& operator<<(std::string_view text) {
    out_ += text;
    return *this;
  }
  // The printed name of `value` (`%3`); valid until the next call.
  virtual std::string_view valueName(Value value) = 0;
  // Appends that name to `out` (a writer may format it there in place).
  virtual void appendValueName(std::string& out, Value value) {
    out += valueName(value);
  }
  void printOperand(Value value) { appendValueName(out_, value); }
  void printOperands(const std::vector<Value>& values);
  // The op's operands, read in place.
  void printOperands(Op op);
  void printType(Type type) { out_ += type.str(); }
  void printTypes(const std::vector<Type>& types);
  // `(ins) -> out`.
  void printFunctionalType(const std::vector<Type>& inputs,
                           const std::vector<Type>& results);
  // The op's operand and result types, read in place.
  void printFunctionalType(Op op);
  // `t` when all operands and results have one type, else functional.
  void printSameOrFunctionalType(Op op);
  void printAttribute(const Attribute& attr) { appendAttribute(out_, attr); }
  // ` {a = 1, ...}` with all of the op's attributes except `elided`;
  // nothing when that leaves none.
  void printAttrDict(Op op, std::initializer_list<std::string_view> elided);
  // `{a = 1, ...}` of the entries of `first` and `second` except `elided`,
  // nothing when that leaves none; remembered by the active
  // ScopedAttrTextMemo (ops share dictionaries).
  void appendDict(const AttrDict& first, const AttrDict& second,
                  absl::Span<const std::string_view> elided);
  // ` {a = 1, ...} : (ins) -> outs`: printAttrDict, then the functional type
  // (what parseAttrsAndFunctionalType reads).
  void printAttrsAndFunctionalType(
      Op op, std::initializer_list<std::string_view> elided);
  // ` {a = 1, ...} : t`: printAttrDict, then `type`.
  void printAttrsAndType(Op op, std::initializer_list<std::string_view> elided,
                         Type type);
  // `<head> {a = 1, ...} %a, ... : ` (what parseAttrDictAndOperands reads,
  // and the colon): the caller then prints the types.
  void printAttrDictAndOperands(Op op, std::string_view head,
                                std::initializer_list<std::string_view> elided);
  // `name {a = 1, ...} value`, what parseConstantForm reads after `name`.
  void printConstantForm(Op op, std::string_view name);
  // `name %x<after> {a = 1, ...} : t`, the form of many ops of one operand:
  // `after` is what the op writes after its operand.
  void printUnaryForm(Op op, std::string_view after,
                      std::initializer_list<std::string_view> elided,
                      Type type);
  // ` {a = 1, ...} : t` or `: (ins) -> outs`: printAttrDict, then
  // printSameOrFunctionalType.
  void printAttrsAndSameOrFunctionalType(
      Op op, std::initializer_list<std::string_view> elided);
  // `(%a: t, ...)` for a block's arguments.
  void printBlockArguments(Block block);
  // ` {` ... `}` of a region; `print_entry_args` prints the entry block's
  // `^bb0(...):` header. Commits the calling print function to its form.
  virtual void printRegion(Region region, bool print_entry_args) = 0;
  // Emits a newline and the current indentation.
  virtual void newline() = 0;

 protected:
  std::string out_;
};

// An op's pretty syntax. `parse` starts after the op name; `print` writes
// from the op name on (the writer prints `%results = ` before).
struct OpSyntax {
  using ParseFn = absl::StatusOr<Op> (*)(OpReader& r, OpName name);
  // Returns false if the op cannot be printed in this form (then it is
  // printed in generic form). It decides before it prints a region: once a
  // region is printed the text so far may already be written out (a
  // TextSink), so returning false after it is a bug.
  using PrintFn = bool (*)(OpWriter& w, Op op);
  // Names for results (`%c` of stablehlo.constant) and for the entry
  // arguments of regions (`%iterArg` of stablehlo.while).
  using ResultNamesFn = void (*)(Op op, std::vector<std::string>& names);
  using BlockArgNamesFn = void (*)(Op op, Region region,
                                   std::vector<std::string>& names);

  OpSyntax() = default;
  OpSyntax(ParseFn parse, PrintFn print, ResultNamesFn result_names = nullptr,
           BlockArgNamesFn block_arg_names = nullptr)
      : parse(parse),
        print(print),
        result_names(result_names),
        block_arg_names(block_arg_names) {}

  ParseFn parse = nullptr;
  PrintFn print = nullptr;
  ResultNamesFn result_names = nullptr;
  BlockArgNamesFn block_arg_names = nullptr;
};

// The syntax of `op_name`, or null (then the op is read and written only in
// generic form). Thread-safe.
const OpSyntax* findSyntax(std::string_view op_name);
// Registers (or replaces) the pretty form of `op_name`. Thread-safe; the
// returned syntax pointers stay valid.
void registerOpSyntax(std::string_view op_name, OpSyntax syntax);

// A dialect's attribute and type syntaxes. The reader keeps attributes and
// types of dialects it does not model as text; a dialect that registers these
// checks that text and gives it its canonical spelling (what its printer
// writes), so malformed input is an error at its position and the writer
// prints what the dialect's own printer would.
struct DialectTextSyntax {
  // Parses the body of `#dialect.name<...>`: `p` is at the token after the
  // attribute's name (`name` is `dialect.name`). Returns the attribute
  // (usually Attribute::opaque of the canonical text).
  using AttrFn = absl::StatusOr<Attribute> (*)(ParserBase& p,
                                               std::string_view name);
  // Checks the whole text of a type (`!dialect.name<...>`, spaces collapsed)
  // and returns its canonical text.
  using TypeFn = absl::StatusOr<std::string> (*)(std::string_view text);

  AttrFn attribute = nullptr;
  TypeFn type = nullptr;
};

// Registers (or replaces) the attribute and type syntaxes of `dialect` (the
// prefix before the first '.'). Thread-safe.
void registerDialectTextSyntax(std::string_view dialect,
                               DialectTextSyntax syntax);
// The syntaxes of `dialect`, or null. Thread-safe.
const DialectTextSyntax* findDialectTextSyntax(std::string_view dialect);

// `attr-dict [%a, %b : t1, t2]`, shared by sdy.return, func.return and
// stablehlo.return (defined in sdy_syntax.cc).
absl::StatusOr<Op> parseReturnLikeOp(OpReader& r, OpName name);
bool printReturnLikeOp(OpWriter& w, Op op, std::string_view printed_name);

// `attr-dict dense<...> : type`, shared by sdy.constant and arith.constant
// (defined in sdy_syntax.cc).
absl::StatusOr<Op> parseConstantLikeOp(OpReader& r, OpName name);
bool printConstantLikeOp(OpWriter& w, Op op);

// `@callee(%a, ...) attr-dict : (ins) -> outs`, shared by func.call and
// mpmd.call (defined in func_syntax.cc).
absl::StatusOr<Op> parseCallLikeOp(OpReader& r, OpName name);
bool printCallLikeOp(OpWriter& w, Op op, std::string_view printed_name);
// The same text after an op's own prefix (mpmd.fragment_call's `<...>`):
// reads it into `state`, or prints it with `elided` (and `callee`) left out
// of the attribute dictionary. The printer returns false without a callee.
absl::Status parseCallTail(OpReader& r, OperationState& state);
bool printCallTail(OpWriter& w, Op op,
                   std::initializer_list<std::string_view> elided);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_ASM_OP_SYNTAX_H_
