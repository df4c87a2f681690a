// How the extension reports failures: every absl::Status that is not OK
// becomes a C++ StatusError, which the translator registered in ext.cc turns
// into shardkit.Error (python/shardkit/_error.py) with the diagnostic's file,
// line, column and message. Nothing else is thrown by the bindings, so every
// failure of the library reaches Python as shardkit.Error.
#ifndef SHARDKIT_PYTHON_EXT_STATUS_H_
#define SHARDKIT_PYTHON_EXT_STATUS_H_

#include <exception>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace shardkit::python {

class StatusError : public std::exception {
 public:
  explicit StatusError(absl::Status status) : status_(std::move(status)) {
    message_ = std::string(status_.message());
  }
  const char* what() const noexcept override { return message_.c_str(); }
  const absl::Status& status() const { return status_; }

 private:
  absl::Status status_;
  std::string message_;
};

inline void throwIfError(const absl::Status& status) {
  if (!status.ok()) throw StatusError(status);
}

template <typename T>
T valueOrThrow(absl::StatusOr<T> value) {
  throwIfError(value.status());
  return *std::move(value);
}

// An error without a position (a bad argument from Python).
[[noreturn]] inline void throwError(std::string message) {
  throw StatusError(absl::InvalidArgumentError(std::move(message)));
}

}  // namespace shardkit::python

#endif  // SHARDKIT_PYTHON_EXT_STATUS_H_
