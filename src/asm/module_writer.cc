// The module writer: names values the way MLIR's printer does and prints ops
// in their pretty form when shardkit knows it, else in generic form.
#include <algorithm>
#include <charconv>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "shardkit/asm/module_io.h"
#include "shardkit/asm/op_syntax.h"
#include "shardkit/internal/phase_timing.h"
#include "shardkit/support/strings.h"
#include "src/ir/op_name_map.h"
#include "src/support/ordered_parallel.h"

namespace shardkit {
namespace {

// findSyntax, remembered per op name (an op name's text lives as long as the
// module, so its address identifies it).
class SyntaxCache {
 public:
  const OpSyntax* of(Op op) {
    return syntaxes_.get(op.opName(),
                         [](OpName name) { return findSyntax(name.str()); });
  }

 private:
  ir_internal::OpNameMap<const OpSyntax*> syntaxes_;
};

// MLIR's value naming. A function's values are numbered %0, %1, ... and its
// block arguments %arg0, ...; a nested region continues from the counters its
// parent region ended with (so sibling regions reuse numbers). Result and
// argument names an op asks for (`%c`, `%iterArg`) are made unique within the
// enclosing scopes with `_N` suffixes.
class Namer {
 public:
  // MLIR's generic form does not ask ops for names (`%c`, `%iterArg`).
  // Looks syntaxes up through `syntaxes` (shared with the writer).
  Namer(SyntaxCache& syntaxes, bool use_hints)
      : syntaxes_(&syntaxes), use_hints_(use_hints) {}

  // Names the module's top-level ops' results, then (from where those
  // counters end, like MLIR) the values in their regions.
  void nameModule(Module& module) {
    names_.assign(module.valueIdBound(), Name{});
    group_base_.assign(module.opIdBound(), Name{});
    nameRegion(module.body().parentRegion(), Counters{}, Chain{});
  }

  // Appends the name of `v` to `out`. Read-only once the module is named:
  // writers on several threads share it.
  void appendName(std::string& out, Value v) const {
    uint32_t id = v.id();
    if (id < names_.size() && names_[id].kind != Name::kNone) {
      append(out, names_[id]);
      return;
    }
    // A value defined outside what was named (should not happen in a valid
    // module): give it a recognizable placeholder.
    strAppend(out, "%<<UNKNOWN SSA VALUE ", id, ">>");
  }
  std::string name(Value v) const {
    std::string out;
    appendName(out, v);
    return out;
  }
  int blockId(Block b) const {
    auto it = block_ids_.find(b);
    return it == block_ids_.end() ? 0 : it->second;
  }
  // True when the results of `op` print as a group `%0:2`.
  bool isGroup(Op op) const {
    return op.id() < group_base_.size() &&
           group_base_[op.id()].kind != Name::kNone;
  }
  // The `%0` of a group's `%0:2`.
  void appendGroupBase(std::string& out, Op op) const {
    append(out, group_base_[op.id()]);
  }

 private:
  struct Counters {
    int64_t next_value = 0;
    int64_t next_argument = 0;
    int64_t next_conflict = 0;
  };
  using Chain = std::vector<const absl::flat_hash_set<std::string>*>;

  std::string unique(const std::string& base, Counters& c,
                     absl::flat_hash_set<std::string>& scope,
                     const Chain& chain) {
    auto used = [&](const std::string& n) {
      if (scope.contains(n)) return true;
      for (const auto* s : chain) {
        if (s->contains(n)) return true;
      }
      return false;
    };
    std::string candidate = base;
    while (used(candidate)) {
      candidate = strCat(base, "_", c.next_conflict++);
    }
    scope.insert(candidate);
    return candidate;
  }

  void nameRegion(Region region, Counters counters, Chain chain) {
    absl::flat_hash_set<std::string> scope;
    Op parent = region.parentOp();
    const OpSyntax* parent_syntax = parent ? syntaxes_->of(parent) : nullptr;
    std::vector<std::string> arg_hints;
    if (use_hints_ && parent_syntax && parent_syntax->block_arg_names) {
      parent_syntax->block_arg_names(parent, region, arg_hints);
    }
    std::vector<std::pair<Region, Counters>> nested;
    for (unsigned b = 0; b < region.numBlocks(); ++b) {
      Block block = region.block(b);
      block_ids_[block] = static_cast<int>(b);
      for (unsigned i = 0; i < block.numArguments(); ++i) {
        Value arg = block.argument(i);
        if (b == 0 && i < arg_hints.size() && !arg_hints[i].empty()) {
          setName(arg, "%" + unique(arg_hints[i], counters, scope, chain));
        } else {
          names_[arg.id()] =
              numbered(Name::kArgument, counters.next_argument++);
        }
      }
      for (Op op : block) nameResults(op, counters, scope, chain);
    }
    for (unsigned b = 0; b < region.numBlocks(); ++b) {
      for (Op op : region.block(b)) {
        for (unsigned r = 0; r < op.numRegions(); ++r) {
          nested.emplace_back(op.region(r), counters);
        }
      }
    }
    chain.push_back(&scope);
    for (auto& [nested_region, saved] : nested) {
      nameRegion(nested_region, saved, chain);
    }
  }

  void nameResults(Op op, Counters& counters,
                   absl::flat_hash_set<std::string>& scope,
                   const Chain& chain) {
    if (op.numResults() == 0) return;
    std::vector<std::string> hints;
    const OpSyntax* syntax = syntaxes_->of(op);
    if (use_hints_ && syntax && syntax->result_names) {
      syntax->result_names(op, hints);
    }
    if (hints.size() == op.numResults()) {
      for (unsigned i = 0; i < op.numResults(); ++i) {
        setName(op.result(i), "%" + unique(hints[i], counters, scope, chain));
      }
      return;
    }
    Name number = numbered(Name::kNumber, counters.next_value++);
    if (op.numResults() == 1) {
      names_[op.result(0).id()] = number;
      return;
    }
    for (unsigned i = 0; i < op.numResults(); ++i) {
      Name result = number;
      result.kind = Name::kGroupResult;
      result.extra = i;
      names_[op.result(i).id()] = result;
    }
    group_base_[op.id()] = number;
  }

  // A name: eight bytes. MLIR's numbered names (`%3`, `%arg3`, `%3#1`), most
  // of a module's, are kept as numbers and formatted when printed (their
  // text would cost as much to make as to print); others as text in text_.
  struct Name {
    enum Kind : uint32_t { kNone, kText, kNumber, kArgument, kGroupResult };
    uint32_t value = 0;  // the number, or the text's offset in text_
    uint32_t kind : 3 = kNone;
    uint32_t extra : 29 = 0;  // kText: the text's size; kGroupResult: `#i`
  };
  static Name numbered(Name::Kind kind, int64_t number) {
    Name n;
    n.kind = kind;
    n.value = static_cast<uint32_t>(number);
    return n;
  }
  void setName(Value v, std::string_view text) {
    Name n;
    n.kind = Name::kText;
    n.value = static_cast<uint32_t>(text_.size());
    n.extra = static_cast<uint32_t>(text.size());
    text_ += text;
    names_[v.id()] = n;
  }
  void append(std::string& out, Name n) const {
    if (n.kind == Name::kText) {
      out.append(text_, n.value, n.extra);
      return;
    }
    // `%arg4294967295#536870911` at most: formatted here, appended once.
    char buf[32];
    char* end = buf + sizeof(buf);
    char* p = buf;
    *p++ = '%';
    if (n.kind == Name::kArgument) {
      std::memcpy(p, "arg", 3);
      p += 3;
    }
    p = std::to_chars(p, end, n.value).ptr;
    if (n.kind == Name::kGroupResult) {
      *p++ = '#';
      p = std::to_chars(p, end, static_cast<uint32_t>(n.extra)).ptr;
    }
    out.append(buf, static_cast<size_t>(p - buf));
  }

  // Indexed by Value::id() / Op::id() (see nameModule); text_ only grows
  // while naming.
  std::vector<Name> names_;
  std::vector<Name> group_base_;  // set for `%0:2` groups
  std::string text_;
  absl::flat_hash_map<Block, int> block_ids_;
  SyntaxCache* syntaxes_;
  bool use_hints_ = true;
};

// Results of ops printed side by side: a chunk of a large block's ops, and
// how many chunks may be printed ahead of the one written next (per thread).
constexpr size_t kOpsPerChunk = 512;
constexpr size_t kChunksAheadPerThread = 4;

// Prints ops into its own buffer with the names of a shared, finished Namer:
// one writer per thread when ops print in parallel.
class OpTextWriter : public OpWriter {
 public:
  // With a `sink`, text is handed to it whenever a megabyte has collected
  // and can no longer be taken back (see printRegion). With `threads` > 1,
  // the ops of a block of at least kParallelPrintMinOps ops are printed in
  // chunks on that many threads.
  OpTextWriter(const Namer& namer, const PrintOptions& options, int indent,
               TextSink* sink = nullptr, int threads = 1)
      : options_(options),
        namer_(namer),
        indent_(indent),
        sink_(sink),
        threads_(threads) {}

  // Moves the text written so far out (the writer starts empty again).
  std::string take() { return std::exchange(out_, std::string()); }
  std::string& buffer() { return out_; }
  // Hands everything written so far to the sink.
  void flush() {
    if (sink_ == nullptr || out_.empty()) return;
    sink_->write(out_);
    out_.clear();
  }
  // The same once a megabyte has collected, if no printer may still take
  // text back.
  void flushIfFull() {
    if (!may_roll_back_ && out_.size() >= kFlushBytes) flush();
  }
  static constexpr size_t kFlushBytes = size_t{1} << 20;

  // A newline at the writer's indentation, then `op`.
  void printOnNewLine(Op op) {
    newline();
    printOp(op);
  }
  // `ops` printed as printOnNewLine prints them, `per_chunk` at a time on
  // the writer's threads, and written here in order.
  void printOpsSideBySide(const std::vector<Op>& ops, size_t per_chunk);

  // Valid until the next call.
  std::string_view valueName(Value value) override {
    name_.clear();
    namer_.appendName(name_, value);
    return name_;
  }
  void appendValueName(std::string& out, Value value) override {
    namer_.appendName(out, value);
  }

  void newline() override {
    out_ += '\n';
    out_.append(2 * indent_, ' ');
  }

  void printRegion(Region region, bool print_entry_args) override {
    // The generic form labels an empty entry block (`^bb0:`) so that it reads
    // back as a block, not as a region without blocks.
    bool label_empty_entry = std::exchange(label_empty_entry_, false);
    // A pretty printer that prints a region has committed to its form (none
    // fails after printing one): the text so far may go to the sink.
    may_roll_back_ = false;
    out_ += '{';
    ++indent_;
    for (unsigned b = 0; b < region.numBlocks(); ++b) {
      Block block = region.block(b);
      bool header = b > 0 || (print_entry_args && block.numArguments() > 0) ||
                    (label_empty_entry && block.empty());
      if (header) {
        out_ += '\n';
        out_.append(2 * (indent_ - 1), ' ');
        strAppend(out_, "^bb", namer_.blockId(block));
        if (block.numArguments() > 0) printBlockArguments(block);
        out_ += ':';
      }
      if (threads_ > 1 && block.numOps() >= kParallelPrintMinOps) {
        printOpsSideBySide(std::vector<Op>(block.begin(), block.end()),
                           kOpsPerChunk);
        continue;
      }
      for (Op op : block) {
        newline();
        printOp(op);
        flushIfFull();
      }
    }
    --indent_;
    newline();
    out_ += '}';
  }

 private:
  void printResults(Op op) {
    if (op.numResults() == 0) return;
    if (namer_.isGroup(op)) {
      namer_.appendGroupBase(out_, op);
      strAppend(out_, ":", op.numResults(), " = ");
      return;
    }
    for (unsigned i = 0; i < op.numResults(); ++i) {
      if (i > 0) out_ += ", ";
      namer_.appendName(out_, op.result(i));
    }
    out_ += " = ";
  }

  void printOp(Op op) {
    printOpWithoutLocation(op);
    if (!options_.debug_info) return;
    const DebugLocation* loc = op.debugLocation();
    out_ += ' ';
    out_ += loc ? loc->toString() : std::string("loc(unknown)");
  }

  void printOpWithoutLocation(Op op) {
    printResults(op);
    const OpSyntax* syntax = options_.generic ? nullptr : syntaxes_.of(op);
    if (syntax && syntax->print) {
      size_t mark = out_.size();
      int indent = indent_;
      // Nothing after `mark` may be flushed while the printer may still
      // fail; printRegion clears the flag once it cannot.
      bool outer = std::exchange(may_roll_back_, true);
      bool printed = syntax->print(*this, op);
      may_roll_back_ = outer;
      if (printed) return;
      out_.resize(mark);
      indent_ = indent;
    }
    printGeneric(op);
  }

  void printGeneric(Op op) {
    appendQuoted(out_, op.name());  // any name read from a string reads back
    out_ += '(';
    printOperands(op);
    out_ += ')';
    if (!op.inherentAttrs().empty() && !options_.inherent_in_attr_dict) {
      out_ += " <";
      appendDict(op.inherentAttrs(), AttrDict(), {});
      out_ += '>';
    }
    if (op.numRegions() > 0) {
      out_ += " (";
      for (unsigned r = 0; r < op.numRegions(); ++r) {
        if (r) out_ += ", ";
        label_empty_entry_ = true;
        printRegion(op.region(r), /*print_entry_args=*/true);
      }
      out_ += ')';
    }
    if (options_.inherent_in_attr_dict) {
      printAttrDict(op, {});
    } else if (!op.discardableAttrs().empty()) {
      out_ += ' ';
      appendDict(op.discardableAttrs(), AttrDict(), {});
    }
    out_ += " : ";
    printFunctionalType(op);
  }

  const PrintOptions& options_;
  const Namer& namer_;
  std::string name_;  // valueName's text
  SyntaxCache syntaxes_;
  int indent_ = 0;
  bool label_empty_entry_ = false;
  TextSink* sink_ = nullptr;
  bool may_roll_back_ = false;
  int threads_ = 1;
};

// One thread's printer of `ops`, `per_chunk` at a time, at `indent`: with its
// own writer and attribute-text memo (a memo is not shared between threads).
class ChunkPrinter {
 public:
  ChunkPrinter(const Namer& namer, const PrintOptions& options, int indent,
               const std::vector<Op>& ops, size_t per_chunk)
      : writer_(namer, options, indent), ops_(ops), per_chunk_(per_chunk) {}

  // The text of chunk `chunk`, each op on a new line.
  std::string operator()(size_t chunk) {
    size_t end = std::min(ops_.size(), (chunk + 1) * per_chunk_);
    for (size_t i = chunk * per_chunk_; i < end; ++i) {
      writer_.printOnNewLine(ops_[i]);
    }
    return writer_.take();
  }
  static size_t chunks(const std::vector<Op>& ops, size_t per_chunk) {
    return (ops.size() + per_chunk - 1) / per_chunk;
  }

 private:
  ScopedAttrTextMemo memo_;
  OpTextWriter writer_;
  const std::vector<Op>& ops_;
  size_t per_chunk_;
};

void OpTextWriter::printOpsSideBySide(const std::vector<Op>& ops,
                                      size_t per_chunk) {
  ir_internal::orderedParallel(
      ChunkPrinter::chunks(ops, per_chunk), threads_,
      kChunksAheadPerThread * threads_,
      [&] { return ChunkPrinter(namer_, options_, indent_, ops, per_chunk); },
      [&](const std::string& text) {
        out_ += text;
        flushIfFull();
      });
}

// True when the top-level ops are worth printing side by side: the module is
// large, more than one of them holds a region (a function), and no function
// body is large enough for its own ops to print side by side (which balances
// the threads better when one function holds most of the module).
bool worthParallel(Module& module, const std::vector<Op>& ops, int threads) {
  if (threads < 2 || module.opIdBound() < kParallelPrintMinOps) return false;
  int with_regions = 0;
  for (Op op : ops) {
    if (op.numRegions() == 0) continue;
    ++with_regions;
    Block body = op.region(0).front();
    if (body && body.numOps() >= kParallelPrintMinOps) return false;
  }
  return with_regions > 1;
}

// The top-level ops of `module`, printed by one writer (into `out`, or
// through it to `sink`): side by side, a chunk an op, when worthParallel.
void printBody(Module& module, const std::vector<Op>& ops, const Namer& namer,
               const PrintOptions& options, std::string& out, TextSink* sink) {
  ScopedAttrTextMemo memo;  // sdy attribute texts, printed once each
  OpTextWriter writer(namer, options, /*indent=*/1, sink, options.threads);
  writer.buffer() = std::move(out);
  if (worthParallel(module, ops, options.threads)) {
    writer.printOpsSideBySide(ops, /*per_chunk=*/1);
  } else {
    for (Op op : ops) {
      writer.printOnNewLine(op);
      writer.flushIfFull();
    }
  }
  out = writer.take();
}

// Prints `module` into `out`; with a `sink`, `out` is only a buffer and the
// text goes to the sink as it is printed.
void printModuleTo(Module& module, const PrintOptions& options,
                   std::string& out, TextSink* sink) {
  out += "module";
  if (module.name) {
    out += ' ';
    appendSymbolRef(out, *module.name);
  }
  if (!module.attributes.empty()) {
    out += " attributes ";
    appendAttrDict(out, module.attributes.entries());
  }
  out += " {";
  SyntaxCache syntaxes;
  Namer namer(syntaxes, /*use_hints=*/!options.generic);
  {
    TimedPhase phase("name values");
    namer.nameModule(module);
  }
  std::vector<Op> ops;
  for (Op op : module.body()) ops.push_back(op);
  printBody(module, ops, namer, options, out, sink);
  out += "\n}\n";
  if (sink != nullptr) sink->write(out);
}

}  // namespace

void printModule(Module& module, const PrintOptions& options,
                 std::string& out) {
  // The printed text is about as long as the text read, a little longer
  // after the export passes (reshards, shardings): growing past the
  // reservation would copy the whole text into a buffer twice its size,
  // while capacity never written to costs no memory.
  size_t read = module.source_lines.textSize();
  size_t expected = read + read / 4;
  out.reserve(out.size() + expected + (size_t{4} << 10));
  printModuleTo(module, options, out, nullptr);
}

void printModule(Module& module, const PrintOptions& options, TextSink& sink) {
  std::string buffer;
  buffer.reserve(OpTextWriter::kFlushBytes + (size_t{64} << 10));
  printModuleTo(module, options, buffer, &sink);
}

std::string printModule(Module& module, const PrintOptions& options) {
  std::string out;
  printModule(module, options, out);
  return out;
}

std::string printedName(Value value) {
  SyntaxCache syntaxes;
  Namer namer(syntaxes, /*use_hints=*/true);
  namer.nameModule(*value.module());
  return namer.name(value);
}

std::vector<std::string> printedNames(Module& module) {
  SyntaxCache syntaxes;
  Namer namer(syntaxes, /*use_hints=*/true);
  namer.nameModule(module);
  std::vector<std::string> names(module.valueIdBound());
  auto nameOp = [&](Op op) {
    for (Value result : op.results()) names[result.id()] = namer.name(result);
    forEachBlock(op, [&](Block block) {
      for (unsigned i = 0; i < block.numArguments(); ++i) {
        names[block.argument(i).id()] = namer.name(block.argument(i));
      }
    });
  };
  module.walk(nameOp);
  return names;
}

}  // namespace shardkit
