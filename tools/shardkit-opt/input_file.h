// The tool's input text. A regular file is mapped rather than copied: a
// 200 MB module is then in memory without a read(2) per 64 KB, and without
// faulting in and zeroing pages for a copy of it (docs/performance.md).
#ifndef SHARDKIT_TOOLS_SHARDKIT_OPT_INPUT_FILE_H_
#define SHARDKIT_TOOLS_SHARDKIT_OPT_INPUT_FILE_H_

#include <cstddef>
#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>

namespace shardkit {

class InputFile {
 public:
  InputFile() = default;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile() { release(); }

  // Reads `path` ("-" is stdin); on failure returns why. A directory, a
  // closed stdin and a read error are failures, not empty input. A regular
  // file whose size is not a multiple of the page size is mapped: the zero
  // fill of its last page supplies the NUL after the text. A mapped file
  // cut short while it is read (SIGBUS) ends the process with an error
  // naming it and exit code 1.
  // An input of more than `max_bytes` is an error, found before a file is
  // mapped and after at most that much of a stream was read.
  std::optional<std::string> open(const std::string& path,
                                  size_t max_bytes = SIZE_MAX);

  // The whole text; the byte just past it is a NUL (parseModuleInPlace).
  std::string_view text() const {
    return mapped_ ? std::string_view(mapped_, mapped_size_) : read_;
  }
  // Frees the text; text() is empty afterwards.
  void release();

  // Whether the mapped file changed (size or modification time) since open,
  // checked now while it is mapped, or at release. A file cut short reads
  // as NULs from the cut to the end of that page rather than faulting, so
  // a parse error may come from the cut: the caller asks this first.
  bool changedWhileRead() const;

 private:
  std::optional<std::string> readAll(int fd, size_t size_hint,
                                     size_t max_bytes);
  bool statChanged() const;

  std::string read_;  // the text, when it was read
  const char* mapped_ = nullptr;
  size_t mapped_size_ = 0;
  int mapped_fd_ = -1;  // kept open while mapped, for changedWhileRead
  struct timespec mapped_mtime_ {};
  bool changed_ = false;  // recorded at release
};

}  // namespace shardkit

#endif  // SHARDKIT_TOOLS_SHARDKIT_OPT_INPUT_FILE_H_
