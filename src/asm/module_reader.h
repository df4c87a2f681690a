// Internal: the module reader (see module_io.h for the contract).
#ifndef SHARDKIT_SRC_ASM_MODULE_READER_H_
#define SHARDKIT_SRC_ASM_MODULE_READER_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/container/node_hash_map.h"
#include "absl/status/statusor.h"
#include "shardkit/asm/module_io.h"
#include "shardkit/asm/op_syntax.h"
#include "shardkit/internal/mix_word.h"
#include "shardkit/support/budgets.h"
#include "shardkit/text/scanner.h"
#include "src/asm/text_hash.h"
#include "src/asm/value_names.h"

namespace shardkit {

// The ends of the bracket pairs found inside earlier scans, so that a nested
// region is not scanned again (which would cost the nesting depth times the
// text). Adding is a push; the first lookup after adds sorts the new pairs.
class BracketEnds {
 public:
  void add(BracketPair pair) { pairs_.push_back(pair); }

  // The end of the pair opening at `open`, or npos.
  size_t find(size_t open) {
    if (sorted_ < pairs_.size()) {
      auto byOpen = [](const BracketPair& a, const BracketPair& b) {
        return a.open < b.open;
      };
      std::sort(pairs_.begin() + sorted_, pairs_.end(), byOpen);
      std::inplace_merge(pairs_.begin(), pairs_.begin() + sorted_, pairs_.end(),
                         byOpen);
      sorted_ = pairs_.size();
    }
    auto it = std::lower_bound(
        pairs_.begin(), pairs_.end(), open,
        [](const BracketPair& p, size_t o) { return p.open < o; });
    if (it == pairs_.end() || it->open != open) {
      return std::string_view::npos;
    }
    return it->end;
  }

 private:
  std::vector<BracketPair> pairs_;
  size_t sorted_ = 0;  // pairs_[0, sorted_) is sorted by `open`
};

class ModuleReader : public OpReader {
 public:
  ModuleReader(std::string_view text, Module* module,
               const ParseOptions& options);

  // Parses the whole text into the module.
  absl::Status parseModuleBody();

  absl::StatusOr<Value> parseOperand() override;
  absl::StatusOr<Type> parseType() override;
  absl::Status parseParenTypeList(std::vector<Type>& types) override;
  absl::StatusOr<Attribute> parseAttribute() override;
  absl::Status parseOptionalAttrDict(OperationState& state) override;
  absl::Status parseOptionalProperties(OperationState& state) override;
  absl::Status parseArgumentList(std::vector<ParsedArgument>& args,
                                 bool allow_attrs) override;
  absl::Status parseRegion(Region region,
                           const std::vector<ParsedArgument>& args,
                           bool isolated) override;
  Op createOp(OperationState& state) override;
  absl::StatusOr<size_t> skipRegion() override;

  // Turns a parser status into an error Diagnostic at `offset`.
  absl::Status located(const absl::Status& status, size_t offset) const;
  // The errors the parse reported without stopping (none, OK), as located
  // errors.
  absl::Status nonFatalErrors() const;
  absl::Status located(const absl::Status& status) const {
    return located(status, parser_.errorOffset());
  }

 private:
  using ValueGroup = ValueNames::Group;

  absl::Status parseTopLevelOps(Block block, bool until_rbrace);
  // `!name = type` and `#name = attribute` definitions (uses print the
  // aliased value; `#loc = loc(...)` definitions are skipped).
  absl::Status parseAliasDefinitions();
  absl::Status parseOperation(Block block);
  // A generic op in the common spelling at the current token, read from the
  // characters (module_reader_fast.cc), then its location if it has one;
  // false, with nothing changed, when the token parser must read it.
  absl::StatusOr<bool> parseGenericOpFast(Block block);
  static constexpr size_t kNotRead = std::string_view::npos;
  // A result name as written (`%0`, `%0:2`): a view of the text.
  struct ResultName {
    std::string_view name;
    uint32_t count;
    size_t offset;
  };
  using ResultNames = absl::InlinedVector<ResultName, 1>;
  // A generic op's results, name and operands read from the characters at
  // `start` (the name and operands into fast_state_): the position after
  // the operands' ')' and the blanks after it, or kNotRead.
  size_t readFastHead(size_t start, ResultNames& results);
  // The op at `start` read from the characters, without its location and
  // without the tokens (which are left where they were): the end of its
  // line, or kNotRead with nothing changed. An op with regions (`({` after
  // its operands) is read from the characters up to the `(`, then by the
  // token parser as parseGenericOp reads it, location included:
  // kRegionOpRead, or the token parser's error.
  static constexpr size_t kRegionOpRead = kNotRead - 1;
  absl::StatusOr<size_t> readOpFast(Block block, size_t start);
  // The tail of the op whose head readFastHead read (ending at `tail_start`)
  // from the tail cache, and the op created: the end of its line, or
  // kNotRead with nothing changed.
  size_t readGenericOpTailFast(Block block, size_t start, size_t tail_start,
                               const ResultNames& results);
  absl::Status parseRegionOpAfterHead(Block block, size_t start,
                                      const ResultNames& results);
  // Where the op after `end` (the end of an op's line) starts if only blank
  // lines come first and it starts as generic ops do (`%` or `"`), so that
  // it has no location to read and the fast path may try it before any
  // token is read; kNotRead otherwise.
  size_t nextPlainOp(size_t end) const;
  // The tokens moved to `end`, and the location there read for the op at
  // `start`.
  absl::Status readLocationAfterFastOp(size_t start, size_t end);
  // `(%a: type, %b: type)` at `open` (a '(') read from the characters, each
  // type from the type cache (parseType reads one not seen yet), into
  // `args`: one past the ')', or kNotRead with `args` unchanged (attributes,
  // locations, a bad type or another spelling: the token parser reads the
  // list, from the start, and reports any error).
  size_t readArgumentsFast(size_t open, std::vector<ParsedArgument>& args);
  // `(type, type)` at `open` (a '(') read from the characters the same way,
  // appended to `types`: one past the ')', kNotRead with `types` unchanged,
  // or the error of a type the token parser reads (its own error there).
  absl::StatusOr<size_t> readTypeListFast(size_t open,
                                          std::vector<Type>& types);
  // The type at `pos` from the type cache, or read (and cached) by the token
  // parser, which moves the tokens (`moved_tokens` is then set): the end of
  // its text, or the token parser's error.
  absl::StatusOr<size_t> readTypeFast(size_t pos, Type& type,
                                      bool& moved_tokens);
  // An op read by the token parser (what parseOperation does once the fast
  // path declined it).
  absl::Status parseOperationTokens(Block block);
  // The op name of a generic op's (unescaped) quoted name; `name` is a view
  // of the text.
  OpName opNameOf(std::string_view name);
  absl::StatusOr<Op> parseGenericOp(OpName name);
  // The regions of `op` (created from its head; the parser at the `(` of
  // `({`), through the `)` after them.
  absl::Status parseRegionsOf(Op op);
  // The tail after the regions of `op`, which completes it: its attributes
  // and results. `state` holds the op's name and operands (and any
  // properties).
  absl::Status completeWithTail(Op op, OperationState& state);
  // The end of an op read from `start`: its location, then the op pushed to
  // `block` and its result names bound. `saved_location` is op_location_ as
  // it was before the op.
  absl::Status finishOp(Block block, Op op, size_t start,
                        const ResultNames& results, uint32_t saved_location);
  absl::Status parseBlockOps(Block block);
  absl::Status bindValues(std::string_view name, ValueGroup group,
                          size_t offset);
  // Deeper nesting (of regions, attributes or types) is rejected rather
  // than risking the stack.
  static constexpr int kMaxDepth = kMaxNestingDepth;
  absl::Status enter();  // recursion guard
  void leave() { --depth_; }
  void skipOptionalLocation();
  // `loc(...)`: the text inside the parentheses, or nullopt when there is
  // none.
  absl::StatusOr<std::optional<std::string_view>> readOptionalLocation();

 public:
  // Gives the module the ops' locations, `#loc` aliases resolved (after the
  // whole text is read: MLIR prints the aliases last).
  absl::Status resolveLocations();

 private:
  // Attributes (module_reader_attrs.cc).
  absl::StatusOr<Attribute> parseNumberAttr();
  absl::StatusOr<Attribute> parseDialectAttr();
  absl::StatusOr<Attribute> parseDialectAttrUncached();
  absl::Status checkElementsType(Type type, size_t offset);
  absl::StatusOr<Attribute> parseElementsAttr();
  absl::StatusOr<Attribute> parseDenseArrayAttr();
  absl::StatusOr<std::vector<NamedAttribute>> parseDictEntries();
  absl::StatusOr<std::vector<NamedAttribute>> parseDictEntriesUncached();
  // A dictionary as an attribute's value (a function argument's attributes).
  absl::StatusOr<Attribute> parseDictAttr();
  // What `parse` reads from `start` on, remembered in `cache` by its text,
  // which ends at `end` (one past its closing bracket; npos: not known, the
  // text is read uncached). Only a text read through to `end` is
  // remembered (module_reader_cache.cc).
  template <typename T, typename Parse>
  absl::StatusOr<T> readCached(
      absl::flat_hash_map<std::string_view, T, TextHash>& cache, size_t start,
      size_t end, const Parse& parse);
  // What ends a generic op: `{attributes} : (inputs) -> results`, its
  // operands' types checked (module_reader_cache.cc).
  absl::Status parseGenericOpTail(OperationState& state);
  absl::Status parseGenericOpTailUncached(OperationState& state,
                                          std::vector<NamedAttribute>& attrs,
                                          std::vector<Type>& operand_types,
                                          size_t& types_offset);
  // Adds a dictionary's attributes to the op; one it already has is an
  // error at `offset`.
  absl::Status addAttributes(OperationState& state,
                             const std::vector<NamedAttribute>& attrs,
                             size_t offset);
  // Whether only whitespace lies between `end` and the current token: the
  // text a cached entry was read from ends at `end`.
  bool consumedThrough(size_t end) const;
  // The end of the line at `start`, before trailing blanks.
  static size_t lineEnd(std::string_view buffer, size_t start);
  // Types (module_reader_types.cc).
  absl::StatusOr<Type> parseTypeText(std::string_view text, size_t offset,
                                     int depth);
  // OK if `text`, not a tensor, tuple or function type, is a type: a builtin
  // one (`f32`, `i8`, `complex<f32>`, ...) or a dialect type (`!a.b`).
  absl::Status checkOtherType(std::string_view text, size_t offset, int depth);
  // One past the bracket that closes the one at `start` (scanner.h), or a
  // located error. A region's scan remembers the pairs inside it for the
  // scans of the regions nested in it, unless `remember` is false (a scan
  // for an error message: the parse is over).
  absl::StatusOr<size_t> scanBalanced(size_t start, Nesting nesting,
                                      bool remember = true);
  // The located error of a failed scan of the bracket at `start`.
  absl::Status scanError(size_t start, const ScanResult& scan);

  const ParseOptions& options_;
  ParserBase parser_;
  Module* module_;
  // By name, views of the text (names are never copied).
  ValueNames names_;
  absl::flat_hash_map<std::string_view, Type, TextHash> type_cache_;
  // Where `text` goes among a few recent texts (modulo their count): its
  // size and three of its bytes, cheaper than a hash (a module's op names
  // share their start, its types their start and end).
  static size_t recentSlot(std::string_view text) {
    size_t n = text.size();
    if (n < 2) return n;
    auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
    uint64_t h = n * 31 + byte(n - 1) * 7 + byte(n - 2) * 3 + byte(n / 2);
    // Middle bits of a multiply: texts whose sums differ by a multiple of
    // the table's size get other slots.
    return static_cast<size_t>((h * core_detail::kGoldenRatio64) >> 40);
  }
  // The type read from `text` before, or null; the recent ones are compared
  // first (the types of a function's arguments and signature repeat a few).
  const Type* cachedType(std::string_view text) {
    RecentType& recent =
        recent_types_[recentSlot(text) % std::size(recent_types_)];
    if (!text.empty() && recent.text == text) return &recent.type;
    auto it = type_cache_.find(text);
    if (it == type_cache_.end()) return nullptr;
    recent = {it->first, it->second};
    return &it->second;
  }
  struct RecentType {
    std::string_view text;
    Type type;
  };
  RecentType recent_types_[16];
  absl::flat_hash_map<std::string, Type> type_aliases_;
  absl::flat_hash_map<std::string, Attribute> attr_aliases_;
  // What was read from a text, by the text (a view of the module's source):
  // large modules repeat the same attributes, dictionaries and signatures.
  absl::flat_hash_map<std::string_view, Attribute, TextHash>
      dialect_attr_cache_;
  absl::flat_hash_map<std::string_view, std::vector<NamedAttribute>, TextHash>
      dict_cache_;
  absl::flat_hash_map<std::string_view, Attribute, TextHash> dict_attr_cache_;
  // The last dictionary attributes read (a function's thousands of argument
  // dictionaries repeat a few texts), compared before the text is scanned.
  struct RecentDictAttr {
    std::string_view text;
    Attribute value;
  };
  RecentDictAttr recent_dict_attrs_[8] = {};
  size_t next_recent_dict_attr_ = 0;
  // The recent dictionary whose text starts at `start`, or null.
  const RecentDictAttr* recentDictAttrAt(size_t start) const;
  // `[a, b]` at `open` (a '[') read from the characters where its elements
  // are recent dictionaries (others are read from the tokens), the tokens
  // moved past it; nullopt, with the tokens where they were, on another
  // spelling (the token parser reads the array and reports any error); or
  // the error of an element the token parser read (its own error there).
  absl::StatusOr<std::optional<Attribute>> readArrayFast(size_t open);
  // What a generic op's tail read, by the op's name and the tail's text:
  // the dictionary as written, and split into the op kind's inherent and
  // discardable attributes.
  struct OpTail {
    std::vector<NamedAttribute> attrs;
    AttrDict inherent, discardable;
    std::vector<Type> operand_types, result_types;
    size_t colon_at;  // offsets of the ':' and of the types in the tail
    size_t types_at;
  };
  using TailKey = std::pair<const OpNameEntry*, absl::string_view>;
  // Nodes: recent_tails_ points at them.
  absl::node_hash_map<TailKey, OpTail> tail_cache_;
  // The cached tail of op `name` whose text is `text`, or null. A module
  // repeats few tails: most lookups end at their slot of the recent tails,
  // which compares the text without hashing it all.
  const OpTail* findTail(const OpNameEntry* name, std::string_view text);
  struct RecentTail {
    const OpNameEntry* name = nullptr;
    std::string_view text;
    const OpTail* tail = nullptr;
  };
  RecentTail recent_tails_[256] = {};
  // parseGenericOpFast's op state, reused from op to op, and the tail state
  // of the ops with regions whose head it read.
  OperationState fast_state_;
  OperationState region_tail_state_;
  // The op name of a generic op's quoted name, by its text; in front of it,
  // the last name seen in each slot of a small table (opNameOf).
  absl::flat_hash_map<std::string_view, OpName, TextHash> op_name_cache_;
  struct RecentOpName {
    std::string_view text;
    OpName name;
  };
  RecentOpName recent_op_names_[64] = {};
  // The `{...}` pairs found by region scans (see scanBalanced).
  BracketEnds brace_ends_;
  std::string default_dialect_;
  // The `loc(...)` of each op (by location key) as written, and the
  // `#alias = loc(...)` definitions.
  std::vector<std::pair<uint32_t, std::string_view>> op_locations_;
  absl::flat_hash_map<std::string, std::string> loc_aliases_;
  uint32_t op_location_ = 0;
  int depth_ = 0;
};

}  // namespace shardkit

#endif  // SHARDKIT_SRC_ASM_MODULE_READER_H_
