// What the libFuzzer targets share: how a broken property is reported (an
// abort libFuzzer records with the input), and the shape of a good error.
#ifndef SHARDKIT_TESTS_FUZZ_FUZZ_UTIL_H_
#define SHARDKIT_TESTS_FUZZ_FUZZ_UTIL_H_

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "shardkit/support/strings.h"

namespace shardkit::fuzz {

// Reports a broken property with the input and aborts.
[[noreturn]] inline void fail(std::string_view what, std::string_view input,
                              std::string_view detail = {}) {
  std::fprintf(stderr, "%.*s\n--- input:\n%.*s\n--- detail:\n%.*s\n",
               static_cast<int>(what.size()), what.data(),
               static_cast<int>(input.size()), input.data(),
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

// Whether every line of `message` reads `FILE:LINE:COL: error: TEXT` (or
// `note:` for the notes of an error) with
// LINE, COL >= 1 and some TEXT. For the text layer's `LINE:COL: TEXT`
// messages pass file = "" and error = false: only their first line is
// checked (they may quote input that spans lines; the IR layer and the tool
// make messages printable).
inline bool isLocated(std::string_view message, std::string_view file,
                      bool error = true) {
  if (message.empty()) return false;
  while (!message.empty()) {
    size_t end = message.find('\n');
    std::string_view line = message.substr(0, end);
    if (!file.empty()) {
      if (!line.starts_with(file) || line.size() <= file.size() ||
          line[file.size()] != ':') {
        return false;
      }
      line.remove_prefix(file.size() + 1);
    }
    // LINE:COL, then `: error: `, `: note: ` (an error's notes) or, for
    // the text layer, `: `; then some text.
    auto number = [&](int64_t& value) {
      size_t digits = 0;
      while (digits < line.size() && line[digits] >= '0' && line[digits] <= '9')
        ++digits;
      bool ok =
          digits > 0 && parseInt64(line.substr(0, digits), value) && value >= 1;
      line.remove_prefix(digits);
      return ok;
    };
    int64_t l = 0, c = 0;
    if (!number(l) || !line.starts_with(":")) return false;
    line.remove_prefix(1);
    if (!number(c)) return false;
    bool tagged = false;
    for (std::string_view tag : {": error: ", ": note: "}) {
      if (error && line.starts_with(tag)) {
        line.remove_prefix(tag.size());
        tagged = true;
      }
    }
    if (!error && line.starts_with(": ")) {
      line.remove_prefix(2);
      tagged = true;
    }
    if (!tagged || line.empty()) return false;
    if (end == std::string_view::npos || file.empty()) break;
    message.remove_prefix(end + 1);
  }
  return true;
}

// Splits fuzzer bytes: reads from the front, never past the end.
class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool empty() const { return pos_ >= size_; }
  uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  // The rest of the input as text.
  std::string_view rest() {
    std::string_view text(reinterpret_cast<const char*>(data_ + pos_),
                          size_ - pos_);
    pos_ = size_;
    return text;
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

// A target with two parsers: the first byte picks one (even: `first`, odd:
// `second`), which reads the rest as text; both get the whole input too,
// for their failure reports.
using TextFuzzer = void (*)(std::string_view text, std::string_view input);
inline int runOneOf(const uint8_t* data, size_t size, TextFuzzer first,
                    TextFuzzer second) {
  ByteReader in(data, size);
  uint8_t selector = in.byte();
  std::string_view text = in.rest();
  std::string_view input(reinterpret_cast<const char*>(data), size);
  (selector % 2 == 0 ? first : second)(text, input);
  return 0;
}

}  // namespace shardkit::fuzz

#endif  // SHARDKIT_TESTS_FUZZ_FUZZ_UTIL_H_
