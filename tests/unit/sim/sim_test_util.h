// Helpers for the sim tests: values parsed from their text, and a mesh
// table for "@m" (and "@m2").
#ifndef SHARDKIT_TESTS_UNIT_SIM_SIM_TEST_UTIL_H_
#define SHARDKIT_TESTS_UNIT_SIM_SIM_TEST_UTIL_H_

#include <catch2/catch.hpp>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "shardkit/core/mesh_table.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/parse.h"

namespace shardkit::testing {

// The value `parser` reads from `text`; the test fails if it cannot.
template <typename Parser>
auto parsed(Parser parser, std::string_view text) {
  auto result = parser(text);
  INFO(std::string(text) << ": "
                         << std::string(fromAbsl(result.status().message())));
  REQUIRE(result.ok());
  return *std::move(result);
}

inline TensorSharding sharding(std::string_view text) {
  return parsed(parseTensorSharding, text);
}
inline Mesh mesh(std::string_view text) { return parsed(parseMesh, text); }
inline ListOfAxisRefLists axesPerDim(std::string_view text) {
  return parsed(parseListOfAxisRefLists, text);
}
inline AxisRefList axisList(std::string_view text) {
  return parsed(parseAxisRefList, text);
}
inline AllToAllParamList params(std::string_view text) {
  return parsed(parseAllToAllParamList, text);
}

// `@m` is `m_text`, `@m2` (if given) is `m2_text`.
inline MeshTable meshTable(std::string_view m_text,
                           std::string_view m2_text = "") {
  MeshTable table;
  table.add("m", mesh(m_text));
  if (!m2_text.empty()) table.add("m2", mesh(m2_text));
  return table;
}

inline std::string messageOf(const absl::Status& status) {
  return std::string(fromAbsl(status.message()));
}

}  // namespace shardkit::testing

#endif  // SHARDKIT_TESTS_UNIT_SIM_SIM_TEST_UTIL_H_
