#include "src/asm/module_reader.h"

#include <utility>

#include "absl/container/inlined_vector.h"
#include "shardkit/ir/diagnostic.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {

ModuleReader::ModuleReader(std::string_view text, Module* module,
                           const ParseOptions& options)
    : OpReader(parser_, module),
      options_(options),
      parser_(text),
      module_(module),
      names_(text.size()) {}

absl::Status ModuleReader::located(const absl::Status& status,
                                   size_t offset) const {
  if (status.ok()) return status;
  auto diagnostic = [&](size_t at, std::string_view message) {
    Diagnostic d;
    d.location = sourceLocation(module_->file_name, parser_.buffer(), at);
    d.location.line += options_.first_line - 1;
    // One line per diagnostic: quoted input text may span lines.
    d.message = std::string(message);
    for (char& c : d.message) {
      if (c == '\n' || c == '\r') c = ' ';
    }
    return d;
  };
  std::vector<Diagnostic> diagnostics = {
      diagnostic(offset, fromAbsl(status.message()))};
  // The errors that go with the parser's current error.
  if (offset == parser_.errorOffset()) {
    for (const ParserBase::ExtraError& extra : parser_.extraErrors()) {
      diagnostics.push_back(diagnostic(extra.offset, extra.message));
    }
  }
  return diagnosticStatus(diagnostics);
}

absl::Status ModuleReader::nonFatalErrors() const {
  std::vector<ParserBase::ExtraError> errors = parser_.extraErrors();
  if (errors.empty()) return absl::OkStatus();
  ParserBase::ExtraError first = errors.front();
  return located(absl::InvalidArgumentError(toAbsl(first.message)),
                 first.offset);
}

absl::Status ModuleReader::enter() {
  if (++depth_ > kMaxDepth) {
    --depth_;
    return p().error(
        strCat("nesting deeper than ", kMaxDepth, " levels is not supported"));
  }
  return absl::OkStatus();
}

absl::Status ModuleReader::parseModuleBody() {
  names_.pushScope(/*isolated=*/true);
  Block body = module_->body();
  SK_RETURN_IF_ERROR(parseAliasDefinitions());
  if (p().atKeyword("module")) {
    p().advance();
    if (p().at(TokenKind::kAtIdent)) {
      SK_ASSIGN_OR_RETURN(module_->name, parseSymbolName("module name"));
    }
    if (p().consumeKeywordIf("attributes")) {
      SK_ASSIGN_OR_RETURN(std::vector<NamedAttribute> entries,
                          parseDictEntries());
      for (NamedAttribute& e : entries) {
        module_->attributes.set(e.name, std::move(e.value));
      }
    }
    skipOptionalLocation();
    SK_RETURN_IF_ERROR(p().expect(TokenKind::kLBrace, "'{'"));
    SK_RETURN_IF_ERROR(parseTopLevelOps(body, /*until_rbrace=*/true));
    SK_RETURN_IF_ERROR(p().expect(TokenKind::kRBrace, "'}'"));
    skipOptionalLocation();
    SK_RETURN_IF_ERROR(parseAliasDefinitions());  // e.g. trailing `#loc = ...`
    if (!p().at(TokenKind::kEof)) {
      return p().error(
          "expected end of input after the module (only one top-level module "
          "is supported)");
    }
    return absl::OkStatus();
  }
  return parseTopLevelOps(body, /*until_rbrace=*/false);
}

absl::Status ModuleReader::parseTopLevelOps(Block block, bool until_rbrace) {
  while (!p().at(TokenKind::kEof) &&
         !(until_rbrace && p().at(TokenKind::kRBrace))) {
    if (p().atKeyword("module")) {
      return p().error("nested modules are not supported");
    }
    SK_RETURN_IF_ERROR(parseAliasDefinitions());
    if (p().at(TokenKind::kEof) || (until_rbrace && p().at(TokenKind::kRBrace)))
      break;
    SK_RETURN_IF_ERROR(parseOperation(block));
  }
  return absl::OkStatus();
}

absl::Status ModuleReader::parseAliasDefinitions() {
  while ((p().at(TokenKind::kBangIdent) || p().at(TokenKind::kHashIdent)) &&
         p().lexer().peek().kind == TokenKind::kEqual) {
    Token name = p().tok();
    std::string key(name.spelling);
    if (type_aliases_.contains(key) || attr_aliases_.contains(key)) {
      return p().error(strCat("redefinition of alias '", key, "'"));
    }
    p().advance();  // name
    p().advance();  // '='
    if (name.is(TokenKind::kBangIdent)) {
      SK_ASSIGN_OR_RETURN(Type type, parseType());
      type_aliases_.emplace(std::move(key), type);
    } else if (p().atKeyword("loc")) {
      SK_ASSIGN_OR_RETURN(std::optional<std::string_view> loc,
                          readOptionalLocation());
      if (loc) loc_aliases_.emplace(std::move(key), std::string(*loc));
    } else {
      SK_ASSIGN_OR_RETURN(Attribute attr, parseAttribute());
      attr_aliases_.emplace(std::move(key), std::move(attr));
    }
  }
  return absl::OkStatus();
}

void ModuleReader::skipOptionalLocation() {
  if (!p().atKeyword("loc")) return;
  Token next = p().lexer().peek();
  if (next.kind != TokenKind::kLParen) return;
  absl::StatusOr<size_t> end = scanBalanced(next.offset, Nesting::kOwnKind);
  if (!end.ok()) return;
  p().resetTo(*end);
}

absl::StatusOr<std::optional<std::string_view>>
ModuleReader::readOptionalLocation() {
  if (!p().atKeyword("loc")) return std::nullopt;
  Token next = p().lexer().peek();
  if (next.kind != TokenKind::kLParen) return std::nullopt;
  SK_ASSIGN_OR_RETURN(size_t end, scanBalanced(next.offset, Nesting::kOwnKind));
  std::string_view inner = trimSpaces(
      parser_.buffer().substr(next.offset + 1, end - next.offset - 2));
  p().resetTo(end);
  return inner;
}

absl::Status ModuleReader::resolveLocations() {
  for (auto& [key, text] : op_locations_) {
    std::string resolved(text);
    // Aliases may name aliases; a cycle or a runaway chain stops here.
    for (int round = 0; round < 64; ++round) {
      Lexer lexer(resolved);
      std::string next;
      size_t copied = 0;
      bool replaced = false;
      for (Token t = lexer.next();
           t.kind != TokenKind::kEof && t.kind != TokenKind::kError;
           t = lexer.next()) {
        if (t.kind != TokenKind::kHashIdent) continue;
        auto it = loc_aliases_.find(std::string(t.spelling));
        if (it == loc_aliases_.end()) {
          return p().errorAt(
              key, strCat("undefined location alias '", t.spelling, "'"));
        }
        next.append(resolved, copied, t.offset - copied);
        next += it->second;
        copied = t.offset + t.spelling.size();
        replaced = true;
      }
      if (!replaced) break;
      next.append(resolved, copied);
      resolved = std::move(next);
      if (resolved.size() > (size_t{1} << 20)) {
        return p().errorAt(key, "location aliases expand without end");
      }
    }
    module_->setDebugLocation(key, DebugLocation::fromText(resolved));
  }
  return absl::OkStatus();
}

absl::Status ModuleReader::bindValues(std::string_view name, ValueGroup group,
                                      size_t offset) {
  if (!names_.bind(name, group)) {
    return p().errorAt(offset,
                       strCat("redefinition of SSA value '", name, "'"));
  }
  return absl::OkStatus();
}

absl::StatusOr<Value> ModuleReader::parseOperand() {
  if (!p().at(TokenKind::kPercentIdent)) {
    return p().errorExpected("SSA value");
  }
  Token token = p().tok();
  std::string_view spelling = token.spelling;
  uint32_t index = 0;
  bool has_index = false;
  if (size_t hash = spelling.find('#'); hash != std::string_view::npos) {
    int64_t n = 0;
    if (!parseInt64(spelling.substr(hash + 1), n) || n < 0 || n > 0xFFFFFF) {
      return p().error(strCat("invalid result number in '", spelling, "'"));
    }
    index = static_cast<uint32_t>(n);
    has_index = true;
    spelling = spelling.substr(0, hash);
  }
  if (const ValueGroup* group = names_.find(spelling)) {
    if (index >= group->count || (!has_index && group->count != 1)) {
      return p().error(strCat("'", token.spelling,
                              "' does not name a single "
                              "value (its group has ",
                              group->count, " values)"));
    }
    p().advance();
    return Value(module_, group->first + index);
  }
  return p().error(strCat("use of undeclared SSA value '", spelling, "'"));
}

absl::Status ModuleReader::parseArgumentList(std::vector<ParsedArgument>& args,
                                             bool allow_attrs) {
  if (p().at(TokenKind::kLParen)) {
    size_t end = readArgumentsFast(p().tok().offset, args);
    if (end != kNotRead) {
      p().resetTo(end);
      return absl::OkStatus();
    }
  }
  SK_RETURN_IF_ERROR(p().expect(TokenKind::kLParen, "'('"));
  if (p().consumeIf(TokenKind::kRParen)) return absl::OkStatus();
  do {
    ParsedArgument arg;
    arg.offset = p().tok().offset;
    if (!p().at(TokenKind::kPercentIdent))
      return p().errorExpected("argument name");
    arg.name = p().tok().spelling;
    p().advance();
    SK_RETURN_IF_ERROR(p().expect(TokenKind::kColon, "':'"));
    SK_ASSIGN_OR_RETURN(arg.type, parseType());
    if (allow_attrs && p().at(TokenKind::kLBrace)) {
      SK_ASSIGN_OR_RETURN(std::vector<NamedAttribute> entries,
                          parseDictEntries());
      for (NamedAttribute& e : entries)
        arg.attrs.set(e.name, std::move(e.value));
    }
    skipOptionalLocation();
    args.push_back(std::move(arg));
  } while (p().consumeIf(TokenKind::kComma));
  return p().expect(TokenKind::kRParen, "')'");
}

absl::Status ModuleReader::parseRegion(Region region,
                                       const std::vector<ParsedArgument>& args,
                                       bool isolated) {
  SK_RETURN_IF_ERROR(enter());
  SK_RETURN_IF_ERROR(p().expect(TokenKind::kLBrace, "'{'"));
  names_.pushScope(isolated);
  Block current;
  if (!args.empty()) {
    current = region.addBlock();
    for (const ParsedArgument& arg : args) {
      Value v = current.addArgument(arg.type);
      SK_RETURN_IF_ERROR(bindValues(arg.name, {v.id(), 1}, arg.offset));
    }
  }
  bool labeled = false;
  while (!p().at(TokenKind::kRBrace) && !p().at(TokenKind::kEof)) {
    if (p().at(TokenKind::kCaretIdent)) {
      if (current && !labeled && current.empty() && !args.empty()) {
        return p().error(
            "a region with named arguments cannot start with a block label");
      }
      if (!current || labeled || !current.empty()) current = region.addBlock();
      labeled = true;
      p().advance();
      if (p().at(TokenKind::kLParen)) {
        std::vector<ParsedArgument> block_args;
        SK_RETURN_IF_ERROR(
            parseArgumentList(block_args, /*allow_attrs=*/false));
        for (const ParsedArgument& arg : block_args) {
          Value v = current.addArgument(arg.type);
          SK_RETURN_IF_ERROR(bindValues(arg.name, {v.id(), 1}, arg.offset));
        }
      }
      SK_RETURN_IF_ERROR(
          p().expect(TokenKind::kColon, "':' after block label"));
    } else if (!current) {
      current = region.addBlock();
    }
    SK_RETURN_IF_ERROR(parseBlockOps(current));
  }
  SK_RETURN_IF_ERROR(p().expect(TokenKind::kRBrace, "'}'"));
  names_.popScope();
  leave();
  return absl::OkStatus();
}

absl::Status ModuleReader::parseBlockOps(Block block) {
  // After an op the fast path read, the next one is tried from its first
  // character, before its token is read (lexing it costs about as much as
  // the rest of the op); the tokens catch up when the token parser is
  // needed.
  size_t next_op = kNotRead;
  while (true) {
    size_t start = std::exchange(next_op, kNotRead);
    if (start == kNotRead) {
      if (p().at(TokenKind::kRBrace) || p().at(TokenKind::kCaretIdent) ||
          p().at(TokenKind::kEof)) {
        return absl::OkStatus();
      }
      if (p().at(TokenKind::kPercentIdent) || p().at(TokenKind::kString)) {
        start = p().tok().offset;
      }
    }
    if (start != kNotRead) {
      SK_ASSIGN_OR_RETURN(size_t end, readOpFast(block, start));
      if (end == kRegionOpRead) continue;
      if (end != kNotRead) {
        next_op = nextPlainOp(end);
        if (next_op == kNotRead) {
          SK_RETURN_IF_ERROR(readLocationAfterFastOp(start, end));
        }
        continue;
      }
      if (p().tok().offset != start) p().resetTo(start);
    }
    SK_RETURN_IF_ERROR(parseOperationTokens(block));
  }
}

absl::StatusOr<size_t> ModuleReader::skipRegion() {
  if (!p().at(TokenKind::kLBrace)) return p().errorExpected("'{' (a region)");
  size_t start = p().tok().offset;
  SK_ASSIGN_OR_RETURN(size_t end, scanBalanced(start, Nesting::kOwnKind));
  p().resetTo(end);
  return start;
}

Op ModuleReader::createOp(OperationState& state) {
  state.location = op_location_;
  return module_->createOp(state);
}

absl::Status ModuleReader::parseOperation(Block block) {
  if (p().at(TokenKind::kPercentIdent) || p().at(TokenKind::kString)) {
    SK_ASSIGN_OR_RETURN(bool done, parseGenericOpFast(block));
    if (done) return absl::OkStatus();
  }
  return parseOperationTokens(block);
}

absl::Status ModuleReader::parseOperationTokens(Block block) {
  size_t start = p().tok().offset;
  // Results: `%0 =`, `%0:2 =`, `%a, %b =`.
  ResultNames result_names;
  if (p().at(TokenKind::kPercentIdent)) {
    do {
      if (!p().at(TokenKind::kPercentIdent))
        return p().errorExpected("result name");
      ResultName r{p().tok().spelling, 1, p().tok().offset};
      if (r.name.find('#') != std::string_view::npos) {
        return p().error("result names cannot contain '#'");
      }
      p().advance();
      if (p().consumeIf(TokenKind::kColon)) {
        SK_ASSIGN_OR_RETURN(int64_t count, p().parseInteger("result count"));
        if (count < 1 || count > 0xFFFF)
          return p().error("invalid result count");
        r.count = static_cast<uint32_t>(count);
      }
      result_names.push_back(r);
    } while (p().consumeIf(TokenKind::kComma));
    SK_RETURN_IF_ERROR(p().expect(TokenKind::kEqual, "'='"));
  }
  uint32_t saved_location = op_location_;
  op_location_ = static_cast<uint32_t>(start);
  Op op;
  if (p().at(TokenKind::kString)) {
    // Most names have no escapes: read them in place.
    std::string_view spelling = p().tok().spelling;
    std::string unescaped;
    std::string_view name = spelling.substr(1, spelling.size() - 2);
    OpName op_name;
    if (name.find('\\') == std::string_view::npos) {
      p().advance();
      op_name = opNameOf(name);
    } else {
      SK_ASSIGN_OR_RETURN(unescaped, p().parseString());
      name = unescaped;
      op_name = module_->opName(name);
    }
    if (!op_name.isRegistered() && !options_.allow_unregistered_dialect) {
      return p().errorAt(start, strCat("unregistered operation '", name,
                                       "' (use -allow-unregistered-dialect)"));
    }
    SK_ASSIGN_OR_RETURN(op, parseGenericOp(op_name));
  } else if (p().at(TokenKind::kBareIdent)) {
    Token name_token = p().tok();
    std::string name(name_token.spelling);
    const OpSyntax* syntax = findSyntax(name);
    if (!syntax && name.find('.') == std::string::npos &&
        !default_dialect_.empty()) {
      name = strCat(default_dialect_, ".", name);
      syntax = findSyntax(name);
    }
    if (!syntax || !syntax->parse) {
      return p().error(strCat("unknown operation '", name_token.spelling,
                              "' (write it in generic form: \"",
                              name_token.spelling, "\"(...))"));
    }
    p().advance();
    std::string saved_dialect = default_dialect_;
    OpName op_name = module_->opName(name);
    if (op_name.hasTrait(OpTrait::kDefaultDialectScope)) {
      default_dialect_ = op_name.dialect();
    }
    absl::StatusOr<Op> parsed = syntax->parse(*this, op_name);
    default_dialect_ = saved_dialect;
    if (!parsed.ok()) return parsed.status();
    op = *parsed;
  } else {
    return p().errorExpected("operation");
  }
  return finishOp(block, op, start, result_names, saved_location);
}

absl::Status ModuleReader::finishOp(Block block, Op op, size_t start,
                                    const ResultNames& results,
                                    uint32_t saved_location) {
  SK_ASSIGN_OR_RETURN(std::optional<std::string_view> loc,
                      readOptionalLocation());
  if (loc && *loc != "unknown") op_locations_.emplace_back(op_location_, *loc);
  op_location_ = saved_location;
  block.pushBack(op);
  // Bind the result names.
  uint32_t total = 0;
  for (const ResultName& r : results) total += r.count;
  if (!results.empty() && total != op.numResults()) {
    return p().errorAt(start,
                       strCat("operation defines ", op.numResults(),
                              " results but was given ", total, " names"));
  }
  uint32_t next = op.numResults() ? op.result(0).id() : 0;
  for (const ResultName& r : results) {
    SK_RETURN_IF_ERROR(bindValues(r.name, {next, r.count}, r.offset));
    next += r.count;
  }
  return absl::OkStatus();
}

absl::StatusOr<Op> ModuleReader::parseGenericOp(OpName name) {
  OperationState state(name);
  SK_RETURN_IF_ERROR(p().expect(TokenKind::kLParen, "'('"));
  SK_RETURN_IF_ERROR(parseOperandList(state.operands));
  SK_RETURN_IF_ERROR(p().expect(TokenKind::kRParen, "')'"));
  if (p().at(TokenKind::kLSquare)) {
    return p().error("block successors are not supported");
  }
  SK_RETURN_IF_ERROR(parseOptionalProperties(state));
  if (!p().at(TokenKind::kLParen) ||
      p().lexer().peek().kind != TokenKind::kLBrace) {
    SK_RETURN_IF_ERROR(parseGenericOpTail(state));
    return createOp(state);
  }
  // Regions, `({...}, {...})`, come before the attributes and types that
  // end the op. The op is created first, without attributes or results (the
  // ops of its regions may not use them; its registered traits decide the
  // scoping), its regions are read in place, and the tail completes it.
  OperationState head(name);
  head.operands = state.operands;
  Op op = createOp(head);
  SK_RETURN_IF_ERROR(parseRegionsOf(op));
  SK_RETURN_IF_ERROR(completeWithTail(op, state));
  return op;
}

absl::Status ModuleReader::parseRegionsOf(Op op) {
  OpName name = op.opName();
  bool isolated = name.hasTrait(OpTrait::kIsolatedFromAbove);
  // A function's default dialect applies in its generic form too (the writer
  // prints a nested `return` when the function itself falls back to it).
  std::string saved_dialect = default_dialect_;
  if (name.hasTrait(OpTrait::kDefaultDialectScope)) {
    default_dialect_ = name.dialect();
  }
  p().advance();  // '('
  do {
    size_t start = p().tok().offset;
    absl::Status status = parseRegion(module_->appendRegion(op), {}, isolated);
    if (!status.ok()) {
      // A region without its closing brace is reported as such, whatever
      // went wrong inside it first. (Each enclosing region checks again on
      // the way out: remembering the pairs each time would cost the depth
      // times the pairs, sorted and merged.)
      absl::StatusOr<size_t> end =
          scanBalanced(start, Nesting::kOwnKind, /*remember=*/false);
      return end.ok() ? status : end.status();
    }
  } while (p().consumeIf(TokenKind::kComma));
  default_dialect_ = saved_dialect;
  return p().expect(TokenKind::kRParen, "')'");
}

absl::Status ModuleReader::completeWithTail(Op op, OperationState& state) {
  SK_RETURN_IF_ERROR(parseGenericOpTail(state));
  op.inherentAttrs() = std::move(state.inherent_attrs);
  op.discardableAttrs() = std::move(state.discardable_attrs);
  module_->setResultTypes(op, state.result_types);
  return absl::OkStatus();
}

absl::Status ModuleReader::parseRegionOpAfterHead(Block block, size_t start,
                                                  const ResultNames& results) {
  uint32_t saved_location = op_location_;
  op_location_ = static_cast<uint32_t>(start);
  OperationState& head = fast_state_;
  head.inherent_attrs = AttrDict();
  head.discardable_attrs = AttrDict();
  head.result_types.clear();
  head.num_regions = 0;
  Op op = createOp(head);
  SK_RETURN_IF_ERROR(parseRegionsOf(op));
  // fast_state_ served the ops of the regions; region_tail_state_ is free
  // again once they are read (an op in them completed its tail first).
  OperationState& state = region_tail_state_;
  state.name = op.opName();
  state.operands.clear();
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    state.operands.push_back(op.operand(i));
  }
  state.inherent_attrs = AttrDict();
  state.discardable_attrs = AttrDict();
  state.result_types.clear();
  SK_RETURN_IF_ERROR(completeWithTail(op, state));
  return finishOp(block, op, start, results, saved_location);
}

}  // namespace shardkit
