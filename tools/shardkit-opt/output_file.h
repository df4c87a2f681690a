// The tool's outputs, written as they are produced (a large module's text is
// never all in memory) and committed together: a file target is only changed
// once every output of the run was written in full (docs/reliability.md,
// "Output files").
#ifndef SHARDKIT_TOOLS_SHARDKIT_OPT_OUTPUT_FILE_H_
#define SHARDKIT_TOOLS_SHARDKIT_OPT_OUTPUT_FILE_H_

#include <sys/types.h>

#include <optional>
#include <string>
#include <string_view>

#include "shardkit/asm/module_io.h"

namespace shardkit {

// One output. The path is resolved when the output is opened (at the first
// write or query):
// - "-", /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N write to
//   that descriptor of the process directly, as a stream;
// - symbolic links are followed to their target, which is what gets written
//   (the link stays a link), even when the target does not exist yet;
// - a special file (a FIFO, a terminal, /dev/null, /dev/full) is opened and
//   written in place, as a stream;
// - a regular file with one link, or a new file, is written to a temporary
//   file in the target's directory that replaces it on install(), with the
//   existing file's mode and (where permitted) owner;
// - a regular file with several hard links is written to a temporary file
//   too, which install() copies into the file itself (so every link sees the
//   new text) before removing it.
// Any error (opening, ENOSPC, EIO, a closed stdout, EPIPE) is kept and
// returned by finish(); later writes are then dropped. A temporary file is
// removed when the output is discarded, destroyed uncommitted, or the
// process gets SIGINT, SIGTERM or SIGHUP.
class OutputFile final : public TextSink {
 public:
  explicit OutputFile(std::string path) : path_(std::move(path)) {}
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  // An uninstalled temporary file is removed: the target is untouched.
  ~OutputFile() override { discard(); }

  void write(std::string_view text) override;
  // Writes out everything (a temporary file is then complete and synced,
  // the target not yet touched). Returns the first error, if any.
  std::optional<std::string> finish();
  // Puts a finished output in place; returns the error, if any (the target
  // is then as it was). Streams have nothing to install.
  std::optional<std::string> install();
  // finish() and, if it succeeded, install().
  std::optional<std::string> commit();
  // Gives the output up: a file target keeps its previous contents (a
  // stream keeps what it was given). Errors are ignored.
  void discard();
  // Whether discard() takes back all that was written: a file target
  // written to a temporary file, not a stream. Opens the output if it is
  // not open yet.
  bool withdrawable();

 private:
  enum class Kind { kStream, kReplace, kCopyInto };
  void open();
  void openTemp(const std::string& target);
  void writeOut(std::string_view text);
  void fail(int error);
  void removeTemp();
  std::optional<std::string> copyIntoTarget();

  std::string path_;
  Kind kind_ = Kind::kStream;
  int fd_ = -1;
  bool opened_ = false;
  bool close_fd_ = false;  // fd_ is ours (not stdout)
  std::string target_;     // the resolved file a temporary file replaces
  std::string temp_;       // the temporary file while it exists
  int temp_slot_ = -1;     // its entry in the signal handler's table
  mode_t mode_ = 0;        // the mode the installed file gets
  uid_t uid_ = 0;
  gid_t gid_ = 0;
  bool keep_owner_ = false;
  std::string pending_;  // small pieces, written together
  std::optional<std::string> error_;
};

// Follows symbolic links from `path` to the file they lead to (which may not
// exist); relative links resolve against their link's directory. Returns
// the path unchanged when it is not a link; an error after 40 links (a
// loop). Descriptor aliases (/dev/stdout, /proc/self/fd/N) are not
// followed: `fd` is set to the descriptor instead.
std::optional<std::string> resolveOutputPath(const std::string& path,
                                             std::string& resolved, int& fd);

}  // namespace shardkit

#endif  // SHARDKIT_TOOLS_SHARDKIT_OPT_OUTPUT_FILE_H_
