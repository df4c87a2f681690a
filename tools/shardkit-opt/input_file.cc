#include "tools/shardkit-opt/input_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>

namespace shardkit {
namespace {

// What the SIGBUS handler writes, set before the mapping exists: a mapped
// file that shrinks under the reader turns the read of a page past its new
// end into SIGBUS, which becomes an input error instead of a crash.
char bus_message[512];
size_t bus_message_size = 0;
struct sigaction previous_bus_action;

void onBusError(int /*signal*/) {
  // Async-signal-safe: one write, then exit as for any input error.
  ssize_t written = ::write(STDERR_FILENO, bus_message, bus_message_size);
  (void)written;
  ::_exit(1);
}

void setBusMessage(const std::string& path) {
  std::string message = "shardkit-opt: error: cannot read '" + path +
                        "': the file changed while it was read\n";
  if (message.size() > sizeof(bus_message)) {
    message =
        "shardkit-opt: error: the input file changed while it was "
        "read\n";
  }
  std::copy(message.begin(), message.end(), bus_message);
  bus_message_size = message.size();
}

// The error for an input larger than the limit.
std::string tooLarge(size_t max_bytes) {
  return "the input is larger than " + std::to_string(max_bytes) +
         " bytes (--max-input-size raises the limit)";
}

}  // namespace

std::optional<std::string> InputFile::open(const std::string& path,
                                           size_t max_bytes) {
  release();
  int fd = 0;
  if (path != "-") {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::string(std::strerror(errno));
  }
  std::optional<std::string> error;
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    error = std::string(std::strerror(errno));
  } else if (S_ISDIR(st.st_mode)) {
    error = "is a directory";
  } else {
    size_t size = S_ISREG(st.st_mode) && st.st_size > 0
                      ? static_cast<size_t>(st.st_size)
                      : 0;
    long page = ::sysconf(_SC_PAGESIZE);
    void* map = MAP_FAILED;
    if (size > max_bytes) {
      error = tooLarge(max_bytes);
    } else if (size > 0 && page > 0 && size % static_cast<size_t>(page) != 0) {
      // The reader reads the whole text: populate the mapping at once.
      map = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
      // The text must be followed by a NUL. The zero fill past the file's
      // end is one, but bytes appended to the file meanwhile would show
      // there: writing it makes the last page the process's own copy (and
      // only that page: the others stay the file's).
      size_t last_page =
          (size - 1) / static_cast<size_t>(page) * static_cast<size_t>(page);
      if (map != MAP_FAILED &&
          ::mprotect(static_cast<char*>(map) + last_page, size - last_page,
                     PROT_READ | PROT_WRITE) != 0) {
        ::munmap(map, size);
        map = MAP_FAILED;
      }
    }
    if (map != MAP_FAILED) {
      mapped_ = static_cast<const char*>(map);
      mapped_size_ = size;
      mapped_fd_ = fd;
      mapped_mtime_ = st.st_mtim;
      fd = 0;  // closed at release
      setBusMessage(path);
      struct sigaction action {};
      action.sa_handler = onBusError;
      sigemptyset(&action.sa_mask);
      ::sigaction(SIGBUS, &action, &previous_bus_action);
      // Once the handler is in place: a file cut short since fstat faults
      // here.
      static_cast<char*>(map)[size] = '\0';
    } else if (!error) {
      error = readAll(fd, size, max_bytes);
    }
  }
  if (fd != 0) ::close(fd);
  if (error) release();
  return error;
}

std::optional<std::string> InputFile::readAll(int fd, size_t size_hint,
                                              size_t max_bytes) {
  if (size_hint > 0) read_.reserve(size_hint);
  char chunk[1 << 16];
  while (true) {
    ssize_t n = ::read(fd, chunk, sizeof(chunk));
    if (n > 0) {
      if (read_.size() + static_cast<size_t>(n) > max_bytes) {
        return tooLarge(max_bytes);
      }
      read_.append(chunk, static_cast<size_t>(n));
    } else if (n == 0) {
      return std::nullopt;
    } else if (errno != EINTR) {
      return std::string(std::strerror(errno));
    }
  }
}

bool InputFile::statChanged() const {
  struct stat st;
  if (::fstat(mapped_fd_, &st) != 0) return true;
  return static_cast<size_t>(st.st_size) != mapped_size_ ||
         st.st_mtim.tv_sec != mapped_mtime_.tv_sec ||
         st.st_mtim.tv_nsec != mapped_mtime_.tv_nsec;
}

bool InputFile::changedWhileRead() const {
  return mapped_ ? statChanged() : changed_;
}

void InputFile::release() {
  changed_ = false;
  if (mapped_) {
    changed_ = statChanged();
    ::munmap(const_cast<char*>(mapped_), mapped_size_);
    ::sigaction(SIGBUS, &previous_bus_action, nullptr);
    if (mapped_fd_ > 0) ::close(mapped_fd_);  // stdin stays open
  }
  mapped_ = nullptr;
  mapped_size_ = 0;
  mapped_fd_ = -1;
  std::string().swap(read_);
}

}  // namespace shardkit
