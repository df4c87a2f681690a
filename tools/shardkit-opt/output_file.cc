#include "tools/shardkit-opt/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace shardkit {
namespace {

// Pieces smaller than this are collected before a write(2).
constexpr size_t kPendingBytes = size_t{64} << 10;
// Links followed before a path counts as a loop (Linux's own limit).
constexpr int kMaxLinks = 40;

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

// ---- temporary files removed on a terminating signal ----
//
// The handler may run at any point, so the table is plain storage: a slot's
// path is written before `used` is set, and `used` is cleared before the
// slot is reused. Registration and removal run with the signals blocked,
// so a temporary file is never created or removed unseen by the handler.

constexpr int kTempSlots = 8;
constexpr size_t kTempPathBytes = 4096;
char temp_paths[kTempSlots][kTempPathBytes];
std::atomic<bool> temp_used[kTempSlots];
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};

void onTerminate(int signal) {
  for (int i = 0; i < kTempSlots; ++i) {
    if (temp_used[i].load()) ::unlink(temp_paths[i]);
  }
  // Die of the signal, as the caller expects.
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

// Installs the handler for the signals the process does not ignore (a run
// under nohup keeps ignoring SIGHUP).
void installCleanupHandler() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int signal : kCleanupSignals) {
      struct sigaction previous {};
      ::sigaction(signal, nullptr, &previous);
      if (previous.sa_handler != SIG_DFL) continue;
      struct sigaction action {};
      action.sa_handler = onTerminate;
      sigemptyset(&action.sa_mask);
      ::sigaction(signal, &action, nullptr);
    }
  });
}

// Blocks the cleanup signals for its lifetime.
class BlockCleanupSignals {
 public:
  BlockCleanupSignals() {
    sigset_t set;
    sigemptyset(&set);
    for (int signal : kCleanupSignals) sigaddset(&set, signal);
    ::pthread_sigmask(SIG_BLOCK, &set, &previous_);
  }
  ~BlockCleanupSignals() {
    ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }

 private:
  sigset_t previous_;
};

// Returns the slot now naming `path`, or -1 when none is free or the path
// is too long (the file is then removed on the usual paths only).
int registerTemp(const std::string& path) {
  if (path.size() >= kTempPathBytes) return -1;
  for (int i = 0; i < kTempSlots; ++i) {
    if (temp_used[i].load()) continue;
    std::memcpy(temp_paths[i], path.c_str(), path.size() + 1);
    temp_used[i].store(true);
    return i;
  }
  return -1;
}

// The descriptor a path names by itself, or -1: /dev/stdout, /dev/stderr,
// /dev/fd/N, /proc/self/fd/N. Opening such a path would open the file
// behind the descriptor anew (at offset 0, or fail for a socket); writing
// the descriptor keeps its offset and append mode, as a shell redirection
// expects.
int descriptorAlias(const std::string& path) {
  if (path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  std::string_view digits;
  for (std::string_view prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (path.compare(0, prefix.size(), prefix) == 0) {
      digits = std::string_view(path).substr(prefix.size());
    }
  }
  if (digits.empty() || digits.size() > 9) return -1;
  int fd = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return -1;
    fd = fd * 10 + (c - '0');
  }
  return fd;
}

}  // namespace

std::optional<std::string> resolveOutputPath(const std::string& path,
                                             std::string& resolved, int& fd) {
  fd = -1;
  std::string current = path;
  for (int links = 0; links <= kMaxLinks; ++links) {
    fd = descriptorAlias(current);
    struct stat st;
    if (fd >= 0 || ::lstat(current.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) {
      resolved = current;
      return std::nullopt;
    }
    std::string target(kTempPathBytes, '\0');
    ssize_t n = ::readlink(current.c_str(), target.data(), target.size());
    if (n < 0) return std::string(std::strerror(errno));
    if (static_cast<size_t>(n) >= target.size()) return "link too long";
    target.resize(static_cast<size_t>(n));
    if (target.empty() || target[0] != '/') {
      size_t slash = current.rfind('/');
      std::string dir =
          slash == std::string::npos ? "" : current.substr(0, slash + 1);
      target = dir.append(target);
    }
    current = std::move(target);
  }
  return std::string(std::strerror(ELOOP));
}

void OutputFile::fail(int error) {
  if (!error_) error_ = std::string(std::strerror(error));
}

void OutputFile::open() {
  opened_ = true;
  if (path_ == "-") {
    fd_ = STDOUT_FILENO;
    return;
  }
  int alias = -1;
  if (std::optional<std::string> error =
          resolveOutputPath(path_, target_, alias)) {
    error_ = std::move(error);
    return;
  }
  if (alias >= 0) {
    if (::fcntl(alias, F_GETFD) < 0) return fail(errno);
    fd_ = alias;
    return;
  }
  struct stat st;
  if (::stat(target_.c_str(), &st) != 0) {
    if (errno != ENOENT) return fail(errno);
    // A new file gets the usual umask-derived mode.
    mode_t mask = ::umask(0);
    ::umask(mask);
    mode_ = 0666 & ~mask;
    return openTemp(target_);
  }
  if (S_ISDIR(st.st_mode)) {
    error_ = "is a directory";
    return;
  }
  if (!S_ISREG(st.st_mode)) {
    fd_ = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd_ < 0) return fail(errno);
    close_fd_ = true;
    return;
  }
  mode_ = st.st_mode & 07777;
  uid_ = st.st_uid;
  gid_ = st.st_gid;
  keep_owner_ = st.st_uid != ::geteuid() || st.st_gid != ::getegid();
  kind_ = st.st_nlink > 1 ? Kind::kCopyInto : Kind::kReplace;
  openTemp(target_);
}

void OutputFile::openTemp(const std::string& target) {
  if (kind_ == Kind::kStream) kind_ = Kind::kReplace;
  installCleanupHandler();
  BlockCleanupSignals blocked;
  temp_ = target + ".tmp-XXXXXX";
  fd_ = ::mkostemp(temp_.data(), O_CLOEXEC);
  if (fd_ < 0) {
    fail(errno);
    temp_.clear();
    return;
  }
  close_fd_ = true;
  temp_slot_ = registerTemp(temp_);
  // Another owner's file is replaced only when the new one can have the
  // same owner; else its text is copied into it.
  if (kind_ == Kind::kReplace && keep_owner_ &&
      ::fchown(fd_, uid_, gid_) != 0) {
    kind_ = Kind::kCopyInto;
  }
}

void OutputFile::removeTemp() {
  if (temp_.empty()) return;
  BlockCleanupSignals blocked;
  ::unlink(temp_.c_str());
  if (temp_slot_ >= 0) temp_used[temp_slot_].store(false);
  temp_slot_ = -1;
  temp_.clear();
}

void OutputFile::writeOut(std::string_view text) {
  if (error_ || text.empty()) return;
  if (fd_ >= 0 && !writeAll(fd_, text)) fail(errno);
}

bool OutputFile::withdrawable() {
  if (!opened_) open();
  return !error_ && kind_ != Kind::kStream;
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

std::optional<std::string> OutputFile::finish() {
  if (!opened_) open();
  writeOut(pending_);
  pending_.clear();
  if (fd_ < 0 || !close_fd_) return error_;
  if (!temp_.empty()) {
    if (!error_ && ::fsync(fd_) != 0) fail(errno);
    // mkstemp creates 0600: the installed file gets the target's mode.
    if (!error_ && kind_ == Kind::kReplace && ::fchmod(fd_, mode_) != 0) {
      fail(errno);
    }
    if (kind_ == Kind::kCopyInto) return error_;  // read back by install
  }
  if (::close(fd_) != 0) fail(errno);
  fd_ = -1;
  return error_;
}

std::optional<std::string> OutputFile::copyIntoTarget() {
  int target = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (target < 0) return std::string(std::strerror(errno));
  std::optional<std::string> error;
  off_t size = 0;
  char chunk[1 << 16];
  if (::lseek(fd_, 0, SEEK_SET) != 0) error = std::strerror(errno);
  while (!error) {
    ssize_t n = ::read(fd_, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) error = std::strerror(errno);
    if (n <= 0) break;
    if (!writeAll(target, std::string_view(chunk, static_cast<size_t>(n)))) {
      error = std::strerror(errno);
    }
    size += n;
  }
  if (!error && ::ftruncate(target, size) != 0) error = std::strerror(errno);
  if (!error && ::fsync(target) != 0) error = std::strerror(errno);
  if (::close(target) != 0 && !error) error = std::strerror(errno);
  return error;
}

std::optional<std::string> OutputFile::install() {
  if (error_ || temp_.empty()) return error_;
  if (kind_ == Kind::kCopyInto) {
    error_ = copyIntoTarget();
    ::close(fd_);
    fd_ = -1;
  } else if (::rename(temp_.c_str(), target_.c_str()) != 0) {
    fail(errno);
  } else {
    if (temp_slot_ >= 0) temp_used[temp_slot_].store(false);
    temp_slot_ = -1;
    temp_.clear();
  }
  removeTemp();
  return error_;
}

std::optional<std::string> OutputFile::commit() {
  if (std::optional<std::string> error = finish()) return error;
  return install();
}

void OutputFile::discard() {
  if (temp_.empty()) {
    // A stream keeps what it was given.
    writeOut(pending_);
    pending_.clear();
    if (close_fd_ && fd_ >= 0) ::close(fd_);
    fd_ = -1;
    return;
  }
  pending_.clear();
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  removeTemp();
}

}  // namespace shardkit
