#include "shardkit/ir/diagnostic.h"

#include <optional>

#include "absl/strings/cord.h"
#include "shardkit/asm/module_io.h"
#include "shardkit/support/strings.h"
#include "shardkit/support/utf8.h"
#include "shardkit/text/lexer.h"

namespace shardkit {
namespace {

// The payload's type URL.
constexpr std::string_view kPayloadUrl = "shardkit/Diagnostic";

// ---- Payload encoding
// -------------------------------------------------------- A count, then per
// diagnostic: severity (one byte), file, line, col, op, message, and its notes
// the same way. Integers are LEB128 varints, strings a varint length and the
// bytes.

void putVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

void putString(std::string& out, std::string_view s) {
  putVarint(out, s.size());
  out.append(s);
}

void encode(std::string& out, const Diagnostic& d) {
  out += static_cast<char>(d.severity);
  putString(out, d.location.file);
  putVarint(out, static_cast<uint64_t>(d.location.line));
  putVarint(out, static_cast<uint64_t>(d.location.col));
  putString(out, d.location.op);
  putString(out, d.message);
  putVarint(out, d.notes.size());
  for (const Diagnostic& note : d.notes) encode(out, note);
}

class Decoder {
 public:
  explicit Decoder(std::string_view in) : in_(in) {}

  bool varint(uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (in_.empty()) return false;
      uint8_t byte = static_cast<uint8_t>(in_.front());
      in_.remove_prefix(1);
      v |= uint64_t{byte & 0x7fu} << shift;
      if (!(byte & 0x80)) return true;
    }
    return false;
  }
  bool string(std::string& s) {
    uint64_t n;
    if (!varint(n) || n > in_.size()) return false;
    s.assign(in_.substr(0, n));
    in_.remove_prefix(n);
    return true;
  }
  bool diagnostic(Diagnostic& d, int depth) {
    if (in_.empty() || depth > 1) return false;
    uint8_t severity = static_cast<uint8_t>(in_.front());
    in_.remove_prefix(1);
    if (severity > static_cast<uint8_t>(Severity::kNote)) return false;
    d.severity = static_cast<Severity>(severity);
    uint64_t line, col, notes;
    if (!string(d.location.file) || !varint(line) || !varint(col) ||
        !string(d.location.op) || !string(d.message) || !varint(notes) ||
        notes > in_.size()) {
      return false;
    }
    d.location.line = static_cast<int64_t>(line);
    d.location.col = static_cast<int64_t>(col);
    d.notes.resize(notes);
    for (Diagnostic& note : d.notes) {
      if (!diagnostic(note, depth + 1)) return false;
    }
    return true;
  }
  bool done() const { return in_.empty(); }
  size_t remaining() const { return in_.size(); }

 private:
  std::string_view in_;
};

std::optional<std::vector<Diagnostic>> decode(std::string_view in) {
  Decoder decoder(in);
  uint64_t count;
  if (!decoder.varint(count) || count > decoder.remaining()) {
    return std::nullopt;
  }
  std::vector<Diagnostic> result(count);
  for (Diagnostic& d : result) {
    if (!decoder.diagnostic(d, 0)) return std::nullopt;
  }
  if (!decoder.done()) return std::nullopt;
  return result;
}

void appendLine(std::string& out, const Diagnostic& d) {
  std::string where = toString(d.location);
  if (!where.empty()) strAppend(out, printableText(where), ": ");
  strAppend(out, toString(d.severity), ": ", printableText(d.message));
}

// How an op without a source position is named: its first result as the
// printer names it (`%3` for `%3:2` too), its symbol, or its id.
std::string opName(Op op) {
  if (op.numResults() > 0) {
    std::string name = printedName(op.result(0));
    if (size_t hash = name.find('#'); hash != std::string::npos) {
      name.resize(hash);
    }
    return name;
  }
  if (const std::string* symbol = op.attr("sym_name").asString()) {
    return strCat("@", *symbol);
  }
  return strCat("op#", op.id());
}

}  // namespace

std::string printableText(std::string_view text) {
  constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c >= 0x20 && c < 0x7F) || c == '\t') {
      out += text[i++];
      continue;
    }
    if (size_t n = c >= 0x80 ? utf8SequenceLength(text.substr(i)) : 0) {
      out.append(text.substr(i, n));
      i += n;
      continue;
    }
    out += '\\';
    out += kHex[c >> 4];
    out += kHex[c & 0xF];
    ++i;
  }
  return out;
}

std::string_view toString(Severity severity) {
  switch (severity) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kRemark:
      return "remark";
    case Severity::kNote:
      return "note";
  }
  return "error";
}

std::string toString(const DiagnosticLocation& location) {
  if (location.hasPosition()) {
    std::string out =
        strCat(location.file, ":", location.line, ":", location.col);
    // An op built in C++ at a location its builder gave.
    if (!location.op.empty()) strAppend(out, " (", location.op, ")");
    return out;
  }
  if (location.op.empty()) return location.file;
  if (location.file.empty()) return location.op;
  return strCat(location.file, ":", location.op);
}

std::string formatDiagnostic(const Diagnostic& diagnostic) {
  std::string out;
  appendLine(out, diagnostic);
  for (const Diagnostic& note : diagnostic.notes) {
    out += '\n';
    appendLine(out, note);
  }
  return out;
}

absl::Status diagnosticStatus(const std::vector<Diagnostic>& diagnostics,
                              absl::StatusCode code) {
  std::string text;
  std::string payload;
  putVarint(payload, diagnostics.size());
  for (const Diagnostic& d : diagnostics) {
    if (!text.empty()) text += '\n';
    text += formatDiagnostic(d);
    encode(payload, d);
  }
  absl::Status status(code, toAbsl(text));
  status.SetPayload(toAbsl(kPayloadUrl), absl::Cord(toAbsl(payload)));
  return status;
}

absl::Status diagnosticStatus(const Diagnostic& diagnostic,
                              absl::StatusCode code) {
  return diagnosticStatus(std::vector<Diagnostic>{diagnostic}, code);
}

bool hasDiagnostics(const absl::Status& status) {
  return status.GetPayload(toAbsl(kPayloadUrl)).has_value();
}

std::vector<Diagnostic> diagnosticsOf(const absl::Status& status) {
  if (status.ok()) return {};
  if (absl::optional<absl::Cord> payload =
          status.GetPayload(toAbsl(kPayloadUrl))) {
    std::string bytes(*payload);
    if (std::optional<std::vector<Diagnostic>> decoded = decode(bytes)) {
      return *std::move(decoded);
    }
  }
  Diagnostic d;
  d.message = std::string(fromAbsl(status.message()));
  return {std::move(d)};
}

DiagnosticLocation sourceLocation(std::string_view file,
                                  std::string_view source, size_t offset) {
  LineCol lc = lineColAt(source, offset);
  return DiagnosticLocation{std::string(file), lc.line, lc.col, {}};
}

DiagnosticLocation locationOf(Op op) {
  Module& m = *op.module();
  uint32_t key = op.location();
  if (key != kNoSourceLocation && !m.isUserLocationKey(key)) {
    LineCol lc = m.source_lines.lineColAt(key);
    return DiagnosticLocation{m.file_name, lc.line, lc.col, {}};
  }
  // An op built in C++: the location its builder gave it, and the op.
  DiagnosticLocation location;
  location.op = opName(op);
  const DebugLocation* loc = op.debugLocation();
  if (loc && loc->line() > 0) {
    location.file = loc->file();
    location.line = loc->line();
    location.col = loc->col();
    return location;
  }
  // A module built in C++ keeps the default name "-": no file to name.
  if (m.file_name != "-") location.file = m.file_name;
  if (loc && !loc->isUnknown()) strAppend(location.op, " ", loc->toString());
  return location;
}

absl::Status locatedError(Op op, std::string_view message) {
  return diagnosticStatus(
      Diagnostic{locationOf(op), Severity::kError, std::string(message), {}});
}

absl::Status opError(Op op, std::string_view message) {
  return locatedError(op, strCat("'", op.name(), "' op ", message));
}

namespace {
std::vector<Diagnostic>& nonFatalDiagnostics() {
  thread_local std::vector<Diagnostic> diagnostics;
  return diagnostics;
}
std::vector<Diagnostic>& advisories() {
  thread_local std::vector<Diagnostic> diagnostics;
  return diagnostics;
}
}  // namespace

void emitAdvisory(Diagnostic diagnostic) {
  // An embedder that never takes them keeps a bounded list.
  constexpr size_t kMaxKept = 1024;
  if (advisories().size() < kMaxKept) {
    advisories().push_back(std::move(diagnostic));
  }
}

std::vector<Diagnostic> takeAdvisories() {
  std::vector<Diagnostic> taken;
  taken.swap(advisories());
  return taken;
}

void emitNonFatal(const absl::Status& status) {
  for (Diagnostic& d : diagnosticsOf(status)) {
    nonFatalDiagnostics().push_back(std::move(d));
  }
}

std::vector<Diagnostic> takeNonFatalDiagnostics() {
  std::vector<Diagnostic> taken;
  taken.swap(nonFatalDiagnostics());
  return taken;
}

}  // namespace shardkit
