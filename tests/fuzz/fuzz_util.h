// What the libFuzzer targets share: how a broken property is reported (an
// abort libFuzzer records with the input), and the shape of a good error.
#ifndef SHARDKIT_TESTS_FUZZ_FUZZ_UTIL_H_
#define SHARDKIT_TESTS_FUZZ_FUZZ_UTIL_H_

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "shardkit/core/strings.h"

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

// Whether every line of `message` reads `FILE:LINE:COL: error: TEXT` with
// LINE, COL >= 1 and some TEXT (FILE may be empty, for `LINE:COL: ...`
// messages of the text layer pass file = "" and error = false).
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
    std::string_view tag = error ? ": error: " : ": ";
    size_t colon = line.find(':');
    size_t rest =
        line.find(tag, colon == std::string_view::npos ? 0 : colon + 1);
    if (colon == std::string_view::npos || rest == std::string_view::npos ||
        rest + tag.size() >= line.size()) {
      return false;
    }
    int64_t l = 0, c = 0;
    if (!parseInt64(line.substr(0, colon), l) ||
        !parseInt64(line.substr(colon + 1, rest - colon - 1), c) || l < 1 ||
        c < 1) {
      return false;
    }
    if (end == std::string_view::npos) break;
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

}  // namespace shardkit::fuzz

#endif  // SHARDKIT_TESTS_FUZZ_FUZZ_UTIL_H_
