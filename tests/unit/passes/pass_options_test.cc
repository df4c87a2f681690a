// Pass options: parsing `key=value` text and checking values against the
// kinds the passes declare, as shardkit-opt does before reading any input.
#include <catch2/catch.hpp>

#include "shardkit/asm/module_io.h"
#include "shardkit/passes/pass.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

absl::Status check(std::string_view pass, std::string_view text) {
  absl::StatusOr<PassOptions> options = PassOptions::parse(text);
  if (!options.ok()) return options.status();
  const PassInfo* info = findPass(pass);
  REQUIRE(info != nullptr);
  return validatePassOptions(*info, *options);
}

TEST_CASE("booleans are read as LLVM's command line reads them") {
  for (std::string_view yes : {"", "true", "TRUE", "True", "1"}) {
    CHECK(parseBoolOption(yes) == std::optional<bool>(true));
  }
  for (std::string_view no : {"false", "FALSE", "False", "0"}) {
    CHECK(parseBoolOption(no) == std::optional<bool>(false));
  }
  for (std::string_view bad : {"yes", "tRUE", "2", " true", "01"}) {
    CHECK_FALSE(parseBoolOption(bad).has_value());
  }
  PassOptions options = *PassOptions::parse("a=TRUE b=False");
  CHECK(*options.getBool("a", false));
  CHECK_FALSE(*options.getBool("b", true));
}

TEST_CASE("option values are checked against their declared kinds") {
  CHECK(check("sdy-aggressive-propagate", "keep-sharding-rules=True").ok());
  CHECK(check("sdy-aggressive-propagate",
              "propagation-strategy=basic-then-aggressive")
            .ok());
  CHECK(check("sdy-aggressive-propagate", "module-dump-directory=/any/thing")
            .ok());

  absl::Status bad_bool =
      check("sdy-aggressive-propagate", "keep-sharding-rules=yes");
  CHECK(bad_bool.message() ==
        "pass '-sdy-aggressive-propagate' option 'keep-sharding-rules' "
        "expects true or false, got 'yes'");
  absl::Status bad_choice =
      check("sdy-propagation-pipeline", "propagation-strategy=greedy");
  CHECK(bad_choice.message() ==
        "pass '-sdy-propagation-pipeline' option 'propagation-strategy' "
        "expects one of 'aggressive', 'basic', 'basic-then-aggressive', got "
        "'greedy'");
  absl::Status unknown = check("sdy-close-shardings", "x=1");
  CHECK(unknown.message() == "pass '-sdy-close-shardings' has no option 'x'");
}

TEST_CASE("malformed option text is an error") {
  for (std::string_view text : {"k={a", "k=\"a", "=v", "k='a"}) {
    INFO(text);
    CHECK_FALSE(PassOptions::parse(text).ok());
  }
}

TEST_CASE("runPass checks the options it is given") {
  Module module;
  absl::Status status = runPass(module, "sdy-aggressive-propagate",
                                *PassOptions::parse("keep-sharding-rules=2"));
  CHECK(absl::IsInvalidArgument(status));
}

// What the validator lets through, the pass reads without an error: an
// option a pass reads as a boolean or a number must be declared so, or a bad
// value would only be found while running, once per input chunk.
TEST_CASE("every declared option kind matches how the pass reads it") {
  for (const PassInfo* pass : allPasses()) {
    absl::StatusOr<std::unique_ptr<Module>> base = parseModule("module {}");
    REQUIRE(base.ok());
    if (!pass->run(**base, PassOptions()).ok()) continue;
    for (const PassOption& option : pass->options) {
      std::string value;
      switch (option.kind) {
        case PassOptionKind::kString:
          value = "text";
          break;
        case PassOptionKind::kBool:
          value = "false";
          break;
        case PassOptionKind::kInt:
          value = "1";
          break;
        case PassOptionKind::kChoice:
          value = option.choices.front();
          break;
      }
      std::string text = strCat(option.name, "=", value);
      INFO(pass->name << " " << text);
      absl::StatusOr<PassOptions> options = PassOptions::parse(text);
      REQUIRE(options.ok());
      REQUIRE(validatePassOptions(*pass, *options).ok());
      absl::StatusOr<std::unique_ptr<Module>> module = parseModule("module {}");
      REQUIRE(module.ok());
      absl::Status status = pass->run(**module, *options);
      CHECK(status.message() == "");
    }
  }
}

}  // namespace
}  // namespace shardkit
