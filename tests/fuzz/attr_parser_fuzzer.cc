// libFuzzer target for the attribute parsers of shardkit/text/parse.h.
//
// The first input byte selects the entry point (byte % 11; the seed corpus
// uses the letters B..L):
//   B mesh, C axis ref, D axis ref list, E dimension sharding,
//   F tensor sharding, G sharding per value, H op sharding rule,
//   I manual axes, J list of axis ref lists, K all-to-all params,
//   L propagation direction;
// and the mpmd dialect's text (shardkit/dialect/mpmd/mpmd_attrs.h,
// mesh_tensor.h):
//   M an `#mpmd.<name><...>` attribute, N a `!mpmd.mesh_tensor<...>` type.
// For those, what reads must read back from its canonical text to the same
// canonical text.
// The rest is the text. Whatever parses must print to text that parses back
// to an equal value and prints identically; a failed parse must carry a
// "LINE:COL: " located message. Parsed shardings, meshes, axis lists and
// rules are also run through the verifier (which must not crash on any
// value), and a sharding that verifies is canonicalized, which must be
// idempotent.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "shardkit/core/canonical_sharding.h"
#include "shardkit/core/sharding_math.h"
#include "shardkit/core/verify.h"
#include "shardkit/dialect/mpmd/mesh_tensor.h"
#include "shardkit/dialect/mpmd/mpmd_attrs.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/parse.h"

namespace shardkit {
namespace {

[[noreturn]] void fail(std::string_view what, std::string_view input,
                       std::string_view printed) {
  std::fprintf(stderr, "%.*s\n  input:   %.*s\n  printed: %.*s\n",
               static_cast<int>(what.size()), what.data(),
               static_cast<int>(input.size()), input.data(),
               static_cast<int>(printed.size()), printed.data());
  std::abort();
}

// "LINE:COL: message" with LINE, COL >= 1.
bool isLocated(const absl::Status& status) {
  std::string_view message = fromAbsl(status.message());
  size_t colon = message.find(':');
  size_t second = message.find(": ", colon + 1);
  if (colon == 0 || colon == std::string_view::npos ||
      second == std::string_view::npos || second == colon + 1) {
    return false;
  }
  int64_t line = 0, col = 0;
  return parseInt64(message.substr(0, colon), line) &&
         parseInt64(message.substr(colon + 1, second - colon - 1), col) &&
         line >= 1 && col >= 1 && message.size() > second + 2;
}

template <typename T, typename Parse>
const T* roundTrip(std::string_view text, Parse&& parse, T& storage) {
  absl::StatusOr<T> parsed = parse(text);
  if (!parsed.ok()) {
    if (parsed.status().code() != absl::StatusCode::kInvalidArgument ||
        !isLocated(parsed.status())) {
      fail(strCat("bad error: ", fromAbsl(parsed.status().message())), text,
           "");
    }
    return nullptr;
  }
  std::string printed(toString(*parsed));
  absl::StatusOr<T> reparsed = parse(printed);
  if (!reparsed.ok()) {
    fail(strCat("printed text does not parse: ",
                fromAbsl(reparsed.status().message())),
         text, printed);
  }
  if (!(*reparsed == *parsed)) fail("re-parsed value differs", text, printed);
  if (std::string(toString(*reparsed)) != printed) {
    fail("printing again differs", text, printed);
  }
  storage = *std::move(parsed);
  return &storage;
}

// A small fixed mesh table for resolving `@name` references.
const MeshTable& meshes() {
  static const MeshTable* table = [] {
    auto* t = new MeshTable();
    t->add("mesh", Mesh({{"x", 4}, {"y", 2}, {"z", 8}}));
    t->add("m", Mesh({{"a", 2}, {"b", 3}}, {5, 4, 3, 2, 1, 0}));
    t->add("maximal", Mesh::maximal(1));
    t->add("empty", Mesh());
    return t;
  }();
  return *table;
}

void exerciseSharding(const TensorSharding& sharding) {
  std::vector<int64_t> shape(sharding.dim_shardings.size(), 16);
  if (!shape.empty()) shape.front() = kDynamicSize;
  for (bool divisible : {false, true}) {
    ShardingVerifyOptions options;
    options.check_divisibility = divisible;
    if (!verifyTensorSharding(sharding, meshes(), shape, options).ok()) return;
  }
  const Mesh* mesh = meshes().resolve(sharding);
  if (mesh == nullptr) std::abort();  // Verified, so it resolves.
  TensorSharding canonical = canonicalize(sharding, *mesh);
  if (!(canonicalize(canonical, *mesh) == canonical)) {
    fail("canonicalize is not idempotent", toString(sharding),
         toString(canonical));
  }
  (void)shardCounts(sharding, *mesh);
  (void)localShape(sharding, *mesh, shape);
}

void exerciseRule(const OpShardingRule& rule) {
  std::vector<std::vector<int64_t>> operand_dims, result_dims;
  for (const TensorMapping& m : rule.operand_mappings) {
    operand_dims.emplace_back(m.dim_mappings.size(), 4);
  }
  for (const TensorMapping& m : rule.result_mappings) {
    result_dims.emplace_back(m.dim_mappings.size(), 4);
  }
  std::vector<TensorShapeView> operands(operand_dims.begin(),
                                        operand_dims.end());
  std::vector<TensorShapeView> results(result_dims.begin(), result_dims.end());
  (void)verifyOpShardingRule(rule, operands, results);
}

// `#mpmd.<name><body>`: the canonical text must read back to itself.
void fuzzMpmdAttribute(std::string_view text) {
  size_t open = text.find('<');
  if (!text.starts_with("#mpmd.") || open == std::string_view::npos) return;
  std::string_view name = text.substr(1, open - 1);
  ParserBase p(text.substr(open));
  absl::StatusOr<std::string> canonical = mpmd::parseAttributeText(p, name);
  if (!canonical.ok()) {
    if (canonical.status().code() != absl::StatusCode::kInvalidArgument)
      fail("bad error", text, fromAbsl(canonical.status().message()));
    return;
  }
  size_t again_open = canonical->find('<');
  ParserBase q(std::string_view(*canonical).substr(again_open));
  absl::StatusOr<std::string> again = mpmd::parseAttributeText(
      q, std::string_view(*canonical).substr(1, again_open - 1));
  if (!again.ok() || *again != *canonical)
    fail("canonical mpmd attribute does not read back", text, *canonical);
}

// `!mpmd.mesh_tensor<...>`: the canonical text must be a fixed point.
void fuzzMeshTensorType(std::string_view text) {
  absl::StatusOr<std::string> canonical = mpmd::canonicalTypeText(text);
  if (!canonical.ok()) return;
  absl::StatusOr<std::string> again = mpmd::canonicalTypeText(*canonical);
  if (!again.ok() || *again != *canonical)
    fail("canonical mesh tensor type does not read back", text, *canonical);
}

void fuzzOne(uint8_t selector, std::string_view text) {
  if (selector == 'M') return fuzzMpmdAttribute(text);
  if (selector == 'N') return fuzzMeshTensorType(text);
  switch (selector % 11) {
    case 0: {
      Mesh value;
      if (const Mesh* mesh = roundTrip(text, parseMesh, value)) {
        (void)verifyMesh(*mesh);
      }
      break;
    }
    case 1: {
      AxisRef value;
      if (const AxisRef* axis = roundTrip(text, parseAxisRef, value)) {
        (void)verifyAxisRef(*axis, *meshes().find("mesh"));
      }
      break;
    }
    case 2: {
      AxisRefList value;
      if (const AxisRefList* list = roundTrip(text, parseAxisRefList, value)) {
        (void)verifyAxisRefList(list->items, *meshes().find("mesh"));
      }
      break;
    }
    case 3: {
      DimensionSharding value;
      roundTrip(text, parseDimensionSharding, value);
      break;
    }
    case 4: {
      TensorSharding value;
      if (const TensorSharding* s =
              roundTrip(text, parseTensorSharding, value)) {
        exerciseSharding(*s);
      }
      break;
    }
    case 5: {
      TensorShardingPerValue value;
      if (const TensorShardingPerValue* list =
              roundTrip(text, parseTensorShardingPerValue, value)) {
        for (const TensorSharding& s : *list) exerciseSharding(s);
      }
      break;
    }
    case 6: {
      OpShardingRule value;
      if (const OpShardingRule* rule =
              roundTrip(text, parseOpShardingRule, value)) {
        exerciseRule(*rule);
      }
      break;
    }
    case 7: {
      ManualAxes value;
      if (const ManualAxes* axes = roundTrip(text, parseManualAxes, value)) {
        (void)verifyManualAxes(*axes, *meshes().find("mesh"));
      }
      break;
    }
    case 8: {
      ListOfAxisRefLists value;
      roundTrip(text, parseListOfAxisRefLists, value);
      break;
    }
    case 9: {
      AllToAllParamList value;
      roundTrip(text, parseAllToAllParamList, value);
      break;
    }
    case 10: {
      PropagationDirection value = PropagationDirection::kNone;
      roundTrip(text, parsePropagationDirection, value);
      break;
    }
  }
}

}  // namespace
}  // namespace shardkit

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  shardkit::fuzzOne(
      data[0],
      std::string_view(reinterpret_cast<const char*>(data + 1), size - 1));
  return 0;
}
