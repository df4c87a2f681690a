#include "shardkit/passes/pass.h"

#include <algorithm>
#include <mutex>

#include "shardkit/dialect/verify_module.h"
#include "shardkit/internal/phase_timing.h"
#include "shardkit/support/nearest_name.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/scanner.h"
#include "src/passes/pass_list.h"

namespace shardkit {
namespace {

std::map<std::string, PassInfo>& registry() {
  static auto* passes = new std::map<std::string, PassInfo>();
  return *passes;
}

std::mutex& registryMutex() {
  static auto* mu = new std::mutex();
  return *mu;
}

void ensureBuiltins() {
  static std::once_flag once;
  std::call_once(once, [] { passes_internal::registerBuiltinPasses(); });
}

}  // namespace

absl::StatusOr<PassOptions> PassOptions::parse(std::string_view text) {
  PassOptions options;
  size_t i = 0;
  auto skip_separators = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  };
  skip_separators();
  while (i < text.size()) {
    size_t key_start = i;
    while (i < text.size() && text[i] != '=' && text[i] != ' ' &&
           text[i] != '\t')
      ++i;
    std::string key(text.substr(key_start, i - key_start));
    if (key.empty()) {
      return absl::InvalidArgumentError(
          toAbsl(strCat("invalid pass options '", text, "'")));
    }
    std::string value = "true";
    if (i < text.size() && text[i] == '=') {
      ++i;
      size_t value_start = i;
      if (i < text.size() && (text[i] == '"' || text[i] == '\'')) {
        char quote = text[i++];
        value_start = i;
        while (i < text.size() && text[i] != quote) ++i;
        if (i >= text.size()) {
          return absl::InvalidArgumentError(toAbsl(
              strCat("unterminated quote in pass options '", text, "'")));
        }
        value = std::string(text.substr(value_start, i - value_start));
        ++i;
      } else if (i < text.size() && text[i] == '{') {
        ScanResult scan = scanBrackets(text, i, Nesting::kOwnKind);
        if (!scan.ok()) {
          return absl::InvalidArgumentError(
              toAbsl(strCat("invalid pass options '", text,
                            "': ", scanErrorMessage(text, value_start, scan))));
        }
        i = scan.end;
        value = std::string(text.substr(value_start, i - value_start));
      } else {
        while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
        value = std::string(text.substr(value_start, i - value_start));
      }
    }
    options.values_[key] = value;
    skip_separators();
  }
  return options;
}

std::string PassOptions::get(std::string_view key,
                             std::string_view fallback) const {
  auto it = values_.find(std::string(key));
  return it == values_.end() ? std::string(fallback) : it->second;
}

absl::StatusOr<bool> PassOptions::getBool(std::string_view key,
                                          bool fallback) const {
  auto it = values_.find(std::string(key));
  if (it == values_.end()) return fallback;
  if (std::optional<bool> value = parseBoolOption(it->second)) return *value;
  return absl::InvalidArgumentError(toAbsl(strCat(
      "option '", key, "' expects true or false, got '", it->second, "'")));
}

std::optional<bool> parseBoolOption(std::string_view value) {
  for (std::string_view yes : {"", "true", "TRUE", "True", "1"}) {
    if (value == yes) return true;
  }
  for (std::string_view no : {"false", "FALSE", "False", "0"}) {
    if (value == no) return false;
  }
  return std::nullopt;
}

absl::Status validatePassOptions(const PassInfo& pass,
                                 const PassOptions& options) {
  auto invalid = [&](std::string_view why) {
    return absl::InvalidArgumentError(
        toAbsl(strCat("pass '-", pass.name, "' ", why)));
  };
  for (const auto& entry : options.values()) {
    const std::string& key = entry.first;
    const std::string& value = entry.second;
    auto option =
        std::find_if(pass.options.begin(), pass.options.end(),
                     [&](const PassOption& o) { return o.name == key; });
    if (option == pass.options.end()) {
      std::vector<std::string> names;
      for (const PassOption& o : pass.options) names.push_back(o.name);
      std::string near = nearestName(key, names);
      return invalid(strCat("has no option '", key, "'",
                            near.empty() ? "" : "; did you mean '", near,
                            near.empty() ? "" : "'?"));
    }
    int64_t number = 0;
    switch (option->kind) {
      case PassOptionKind::kString:
        break;
      case PassOptionKind::kBool:
        if (!parseBoolOption(value)) {
          return invalid(strCat("option '", key,
                                "' expects true or false, got '", value, "'"));
        }
        break;
      case PassOptionKind::kInt:
        if (!parseInt64(value, number)) {
          return invalid(strCat("option '", key,
                                "' expects a 64-bit integer, got '", value,
                                "'"));
        }
        break;
      case PassOptionKind::kChoice:
        if (std::find(option->choices.begin(), option->choices.end(), value) ==
            option->choices.end()) {
          std::string expected;
          for (const std::string& choice : option->choices) {
            strAppend(expected, expected.empty() ? "'" : ", '", choice, "'");
          }
          return invalid(strCat("option '", key, "' expects one of ", expected,
                                ", got '", value, "'"));
        }
        break;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> PassOptions::getInt(std::string_view key,
                                            int64_t fallback) const {
  auto it = values_.find(std::string(key));
  if (it == values_.end()) return fallback;
  int64_t value = 0;
  if (!parseInt64(it->second, value)) {
    return absl::InvalidArgumentError(toAbsl(strCat(
        "option '", key, "' expects an integer, got '", it->second, "'")));
  }
  return value;
}

void registerPass(PassInfo info) {
  std::lock_guard<std::mutex> lock(registryMutex());
  std::string name = info.name;
  registry()[name] = std::move(info);
}

const PassInfo* findPass(std::string_view name) {
  ensureBuiltins();
  std::lock_guard<std::mutex> lock(registryMutex());
  auto it = registry().find(std::string(name));
  return it == registry().end() ? nullptr : &it->second;
}

std::vector<const PassInfo*> allPasses() {
  ensureBuiltins();
  std::lock_guard<std::mutex> lock(registryMutex());
  std::vector<const PassInfo*> result;
  for (const auto& [name, info] : registry()) result.push_back(&info);
  return result;
}

absl::Status runPass(Module& module, std::string_view name,
                     const PassOptions& options, const PassRunOptions& run) {
  const PassInfo* pass = findPass(name);
  if (!pass) {
    return absl::InvalidArgumentError(
        toAbsl(strCat("unknown pass '-", name, "'")));
  }
  SK_RETURN_IF_ERROR(validatePassOptions(*pass, options));
  PassOptions with_threads = options;
  with_threads.setThreads(run.threads);
  SK_RETURN_IF_ERROR(pass->run(module, with_threads));
  if (!run.verify_after) return absl::OkStatus();
  TimedPhase phase("verify");
  VerifyOptions verify;
  verify.threads = run.threads;
  return verifyModule(module, verify);
}

}  // namespace shardkit
