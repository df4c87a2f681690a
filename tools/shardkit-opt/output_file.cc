#include "tools/shardkit-opt/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace shardkit {
namespace {

// Pieces smaller than this are collected before a write(2).
constexpr size_t kPendingBytes = size_t{64} << 10;

// Writes all of `data` to `fd`; false on any write error.
bool writeAll(int fd, std::string_view data) {
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

void OutputFile::fail(int error) {
  if (!error_) error_ = std::string(std::strerror(error));
}

void OutputFile::open() {
  opened_ = true;
  if (path_ == "-") {
    fd_ = STDOUT_FILENO;
    return;
  }
  struct stat st;
  if (::stat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) {
      error_ = "is a directory";
      return;
    }
    special_ = true;
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) fail(errno);
    return;
  }
  temp_ = path_ + ".tmp-XXXXXX";
  fd_ = ::mkstemp(temp_.data());
  if (fd_ < 0) {
    fail(errno);
    temp_.clear();
  }
}

void OutputFile::writeOut(std::string_view text) {
  if (error_ || text.empty()) return;
  if (fd_ >= 0 && !writeAll(fd_, text)) fail(errno);
}

bool OutputFile::withdrawable() {
  if (!opened_) open();
  return !error_ && path_ != "-" && !special_;
}

void OutputFile::write(std::string_view text) {
  if (!opened_) open();
  if (error_) return;
  if (pending_.size() + text.size() < kPendingBytes) {
    pending_.append(text);
    return;
  }
  writeOut(pending_);
  pending_.clear();
  writeOut(text);
}

std::optional<std::string> OutputFile::commit() {
  if (!opened_) open();
  writeOut(pending_);
  pending_.clear();
  if (special_ && fd_ >= 0) {
    if (::close(fd_) != 0) fail(errno);
    fd_ = -1;
  }
  if (!temp_.empty()) {
    if (!error_ && ::fsync(fd_) != 0) fail(errno);
    if (::close(fd_) != 0) fail(errno);
    fd_ = -1;
    // mkstemp creates 0600; give the output the usual umask-derived mode.
    mode_t mask = ::umask(0);
    ::umask(mask);
    if (!error_ && ::chmod(temp_.c_str(), 0666 & ~mask) != 0) fail(errno);
    if (!error_ && ::rename(temp_.c_str(), path_.c_str()) != 0) fail(errno);
    if (error_) ::unlink(temp_.c_str());
    temp_.clear();
  }
  return error_;
}

void OutputFile::discard() {
  if (temp_.empty()) {
    // A stream keeps what it was given.
    writeOut(pending_);
    pending_.clear();
    if (special_ && fd_ >= 0) ::close(fd_);
    if (special_) fd_ = -1;
    return;
  }
  pending_.clear();
  ::close(fd_);
  fd_ = -1;
  ::unlink(temp_.c_str());
  temp_.clear();
}

std::optional<std::string> writeOutput(const std::string& path,
                                       std::string_view data) {
  OutputFile file(path);
  file.write(data);
  return file.commit();
}

}  // namespace shardkit
