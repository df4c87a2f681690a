// Pass and PassRegistry: named module transformations with `key=value`
// options, as sdy_opt exposes them (`-sdy-basic-propagate`,
// `-sdy-aggressive-propagate="propagation-strategy=aggressive"`).
#ifndef SHARDKIT_PASSES_PASS_H_
#define SHARDKIT_PASSES_PASS_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "shardkit/export.h"
#include "shardkit/ir/graph.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

// The options given to a pass: `key=value` pairs (a bare `key` means
// `key=true`).
class PassOptions {
 public:
  PassOptions() = default;
  // Parses "k1=v1 k2=v2" as MLIR does: options are separated by spaces, a
  // value may hold commas (a list, `a@m1,b@m2`), and values may be quoted or
  // `{...}`-braced lists).
  static absl::StatusOr<PassOptions> parse(std::string_view text);

  bool has(std::string_view key) const {
    return values_.count(std::string(key)) > 0;
  }
  // The value of `key`, or `fallback`.
  std::string get(std::string_view key, std::string_view fallback = "") const;
  // Parses a boolean as LLVM's command line does (parseBoolOption); error on
  // anything else.
  absl::StatusOr<bool> getBool(std::string_view key, bool fallback) const;
  absl::StatusOr<int64_t> getInt(std::string_view key, int64_t fallback) const;
  const std::map<std::string, std::string>& values() const { return values_; }
  void set(std::string key, std::string value) {
    values_[std::move(key)] = std::move(value);
  }
  // The threads the pass may use: not a `key=value` option but how it is
  // run (runPass sets PassRunOptions::threads). A pass's output does not
  // depend on it.
  int threads() const { return threads_; }
  void setThreads(int threads) { threads_ = threads; }

 private:
  std::map<std::string, std::string> values_;
  int threads_ = 1;
};

// `true`, `TRUE`, `True`, `1` or nothing, and `false`, `FALSE`, `False` or
// `0`, as LLVM's command line reads a boolean; nullopt for anything else.
std::optional<bool> parseBoolOption(std::string_view value);

// The values an option takes, checked before any input is read.
enum class PassOptionKind { kString, kBool, kInt, kChoice };

// An option a pass accepts: its key, a one-line description (shown by
// --help) and its kind; a kChoice option lists the values it accepts.
struct PassOption {
  std::string name;
  std::string description;
  PassOptionKind kind = PassOptionKind::kString;
  std::vector<std::string> choices = {};
};

// A registered pass: its flag name (without the leading '-'), a one-line
// description, the options it accepts, and how to run it.
struct PassInfo {
  std::string name;
  std::string description;
  std::vector<PassOption> options;
  std::function<absl::Status(Module&, const PassOptions&)> run;
};

// OK if every key of `options` is one `pass` declares and every value is of
// its option's kind; otherwise InvalidArgument saying which and why.
absl::Status validatePassOptions(const PassInfo& pass,
                                 const PassOptions& options);

// A pass without options that runs `fn`.
inline PassInfo optionlessPass(std::string name, std::string description,
                               std::function<absl::Status(Module&)> fn) {
  return PassInfo{std::move(name),
                  std::move(description),
                  {},
                  [fn = std::move(fn)](Module& module, const PassOptions&) {
                    return fn(module);
                  }};
}

// A pass of one boolean option (false unless given) that runs
// `fn(module, value)`.
inline PassInfo boolOptionPass(std::string name, std::string description,
                               PassOption option,
                               std::function<absl::Status(Module&, bool)> fn) {
  option.kind = PassOptionKind::kBool;
  std::string key = option.name;
  return PassInfo{std::move(name),
                  std::move(description),
                  {std::move(option)},
                  [key = std::move(key), fn = std::move(fn)](
                      Module& module, const PassOptions& options) {
                    absl::StatusOr<bool> value = options.getBool(key, false);
                    if (!value.ok()) return value.status();
                    return fn(module, *value);
                  }};
}

// The same for a pass that runs `run(module, options)` with only `field` of
// its options set (to the option's value).
template <typename Options>
PassInfo boolOptionPass(std::string name, std::string description,
                        PassOption option, bool Options::*field,
                        absl::Status (*run)(Module&, const Options&)) {
  return boolOptionPass(std::move(name), std::move(description),
                        std::move(option),
                        [field, run](Module& module, bool value) {
                          Options options;
                          options.*field = value;
                          return run(module, options);
                        });
}

// Registers a pass (replacing one of the same name).
void registerPass(PassInfo info);
// The pass called `name`, or null. Registers shardkit's passes on first use.
const PassInfo* findPass(std::string_view name);
// All passes, sorted by name.
std::vector<const PassInfo*> allPasses();

// How runPass treats the module around the pass.
struct PassRunOptions {
  // Verify the module after the pass (verifyModule), as MLIR's pass manager
  // does by default (mlir-opt's -verify-each): a pass that turns a valid
  // module into an invalid one, e.g. by sinking an edge sharding that drops
  // a manual computation's manual axes, gets the verifier's located error.
  bool verify_after = true;
  // Threads for that verification (VerifyOptions::threads), and for the
  // pass (PassOptions::threads).
  int threads = 1;
};

// Runs `name` with `options` after checking them (validatePassOptions).
absl::Status runPass(Module& module, std::string_view name,
                     const PassOptions& options,
                     const PassRunOptions& run = PassRunOptions());

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_PASSES_PASS_H_
