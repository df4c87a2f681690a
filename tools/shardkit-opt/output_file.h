// The tool's output, written as it is produced (a large module's text is
// never all in memory) and atomically: a file target is only replaced once
// everything was written.
#ifndef SHARDKIT_TOOLS_SHARDKIT_OPT_OUTPUT_FILE_H_
#define SHARDKIT_TOOLS_SHARDKIT_OPT_OUTPUT_FILE_H_

#include <optional>
#include <string>
#include <string_view>

#include "shardkit/asm/module_io.h"

namespace shardkit {

// Writes to stdout ("-") and special files (/dev/null, /dev/full, a FIFO) as
// text comes, like a stream. A regular file (or a path that does not exist
// yet) is written to a temporary file in its directory, renamed over it by
// commit(). Any error (opening, ENOSPC, EIO, a closed stdout, EPIPE) is kept
// and returned by commit(); later writes are then dropped.
class OutputFile final : public TextSink {
 public:
  explicit OutputFile(std::string path) : path_(std::move(path)) {}
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  // An uncommitted temporary file is removed: the target is untouched.
  ~OutputFile() override { discard(); }

  void write(std::string_view text) override;
  // Finishes the output: the target now holds everything written. Returns
  // the first error, if any (the target is then untouched, except stdout
  // and special files, which keep what reached them).
  std::optional<std::string> commit();
  // Gives the output up: a file target keeps its previous contents (a
  // stream keeps what it was given). Errors are ignored.
  void discard();
  // Whether discard() takes back all that was written: a regular file
  // target (written to a temporary file), not stdout or a special file.
  // Opens the output if it is not open yet.
  bool withdrawable();

 private:
  void open();
  void writeOut(std::string_view text);
  void fail(int error);

  std::string path_;
  int fd_ = -1;
  bool opened_ = false;
  bool special_ = false;  // a special file, opened in place
  std::string temp_;      // the temporary file while it exists
  std::string pending_;   // small pieces, written together
  std::optional<std::string> error_;
};

// Writes `data` to `path` through an OutputFile; returns the error, if any.
std::optional<std::string> writeOutput(const std::string& path,
                                       std::string_view data);

}  // namespace shardkit

#endif  // SHARDKIT_TOOLS_SHARDKIT_OPT_OUTPUT_FILE_H_
