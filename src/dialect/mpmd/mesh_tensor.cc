// MeshTensorType: reading, printing and verifying `!mpmd.mesh_tensor<...>`.
#include "shardkit/dialect/mpmd/mesh_tensor.h"

#include <memory>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "shardkit/core/verify_sharding.h"
#include "shardkit/ir/tensor_view.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/attr_parser.h"
#include "shardkit/text/char_classes.h"
#include "shardkit/text/scanner.h"

namespace shardkit::mpmd {
namespace {

constexpr std::string_view kMeshTensorPrefix = "!mpmd.mesh_tensor<";

absl::Status malformed(std::string_view what, std::string_view text) {
  return absl::InvalidArgumentError(strCat(what, " in '", text, "'"));
}

// An element type (`f32`, `complex<f32>`, `!dialect.type<...>`): it starts
// with a letter or '!' and has no whitespace outside its brackets.
bool isElementTypeText(std::string_view text) {
  char first = text.front();
  if (!(first == '!' || (first >= 'a' && first <= 'z') ||
        (first >= 'A' && first <= 'Z'))) {
    return false;
  }
  int depth = 0;
  for (char c : text) {
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (c == '\n' || c == '\t' || c == '\r' || (c == ' ' && depth == 0))
      return false;
  }
  return true;
}

// `tensor<4x?x8xf32[, encoding]>` into `type`'s dims, element and encoding.
absl::Status parseRankedTensor(std::string_view text, MeshTensorType& type) {
  if (!text.starts_with("tensor<") || !text.ends_with(">")) {
    return malformed("expected a ranked tensor type", text);
  }
  std::string_view body = trimSpaces(text.substr(7, text.size() - 8));
  size_t i = 0;
  while (i < body.size() && (body[i] == '?' || isDigitChar(body[i]))) {
    int64_t dim = kDynamicSize;
    if (body[i] == '?') {
      ++i;
    } else {
      size_t j = i;
      while (j < body.size() && isDigitChar(body[j])) ++j;
      if (!parseInt64(body.substr(i, j - i), dim)) {
        return malformed("tensor dimension does not fit in 64 bits", text);
      }
      i = j;
    }
    if (i >= body.size() || body[i] != 'x') {
      return malformed("expected 'x' after a dimension", text);
    }
    ++i;
    type.dims.push_back(dim);
  }
  absl::StatusOr<std::vector<std::string_view>> parts =
      splitTopLevel(body.substr(i));
  if (!parts.ok() || parts->empty() || parts->size() > 2 ||
      (*parts)[0].empty() || (*parts)[0][0] == '*') {
    return malformed("expected a ranked tensor type", text);
  }
  if (!isElementTypeText((*parts)[0]))
    return malformed("expected an element type", text);
  type.element_type = std::string((*parts)[0]);
  if (parts->size() == 2) type.encoding = std::string((*parts)[1]);
  return absl::OkStatus();
}

// `key=value` (spaces allowed around '='): the value, or nullopt when `part`
// is not `key`'s.
std::optional<std::string_view> valueOfKey(std::string_view part,
                                           std::string_view key) {
  if (!part.starts_with(key)) return std::nullopt;
  std::string_view rest = trimSpaces(part.substr(key.size()));
  if (!rest.starts_with("=")) return std::nullopt;
  return trimSpaces(rest.substr(1));
}

// Parses all of `text` with `parse` on a ParserBase.
template <typename T, typename ParseFn>
absl::StatusOr<T> parseAll(std::string_view text, std::string_view what,
                           ParseFn parse) {
  ParserBase p(text);
  absl::StatusOr<T> value = parse(p);
  if (!value.ok()) {
    return absl::InvalidArgumentError(
        strCat("malformed ", what, ": ", fromAbsl(value.status().message())));
  }
  if (!p.at(TokenKind::kEof))
    return malformed(strCat("trailing text after ", what), text);
  return value;
}

absl::StatusOr<MeshTensorType> parseMeshTensor(std::string_view text) {
  if (!text.starts_with(kMeshTensorPrefix) || !text.ends_with(">")) {
    return malformed("expected '!mpmd.mesh_tensor<...>'", text);
  }
  std::string_view body = text.substr(
      kMeshTensorPrefix.size(), text.size() - kMeshTensorPrefix.size() - 1);
  SK_ASSIGN_OR_RETURN(std::vector<std::string_view> parts, splitTopLevel(body));
  if (parts.size() < 2 || parts.size() > 4) {
    return malformed(
        "expected a mesh name, a ranked tensor type and optionally "
        "'sharding=' and 'memory_kind='",
        text);
  }
  MeshTensorType type;
  SK_ASSIGN_OR_RETURN(
      type.mesh_name,
      parseAll<std::string>(parts[0], "mesh name", [](ParserBase& p) {
        return p.parseString("mesh name");
      }));
  SK_RETURN_IF_ERROR(parseRankedTensor(parts[1], type));
  for (size_t i = 2; i < parts.size(); ++i) {
    if (std::optional<std::string_view> value =
            valueOfKey(parts[i], "sharding");
        value && !type.sharding && !type.memory_kind) {
      SK_ASSIGN_OR_RETURN(
          type.sharding,
          parseAll<TensorSharding>(*value, "sharding", [](ParserBase& p) {
            return AttrParser(p).parseTensorSharding();
          }));
    } else if (std::optional<std::string_view> kind =
                   valueOfKey(parts[i], "memory_kind");
               kind && !type.memory_kind) {
      SK_ASSIGN_OR_RETURN(
          type.memory_kind,
          parseAll<std::string>(*kind, "memory kind", [](ParserBase& p) {
            return p.parseString("memory kind");
          }));
    } else {
      return malformed("expected 'sharding=<...>' then 'memory_kind=\"...\"'",
                       text);
    }
  }
  return type;
}

}  // namespace

std::optional<MeshTensorType> MeshTensorType::of(Type type) {
  if (!type || type.kind() != TypeKind::kOther) return std::nullopt;
  const std::string& text = type.str();
  if (!text.starts_with(kMeshTensorPrefix)) return std::nullopt;
  // Types are parsed again and again by passes: remember the last ones.
  thread_local absl::flat_hash_map<std::string,
                                   std::shared_ptr<const MeshTensorType>>
      cache;
  auto it = cache.find(text);
  if (it == cache.end()) {
    absl::StatusOr<MeshTensorType> parsed = parseMeshTensor(text);
    if (!parsed.ok()) return std::nullopt;
    if (cache.size() > 4096) cache.clear();
    it =
        cache
            .emplace(text,
                     std::make_shared<const MeshTensorType>(*std::move(parsed)))
            .first;
  }
  return *it->second;
}

MeshTensorType MeshTensorType::fullyReplicated(std::string_view mesh,
                                               Type tensor) {
  MeshTensorType type;
  type.mesh_name = std::string(mesh);
  type.dims.assign(tensor.shape().begin(), tensor.shape().end());
  type.element_type = std::string(tensor.elementType());
  type.encoding = std::string(tensor.encoding());
  return type;
}

std::string MeshTensorType::globalTypeText() const {
  std::string out = "tensor<";
  for (int64_t dim : dims) {
    if (dim == kDynamicSize) {
      out += "?x";
    } else {
      strAppend(out, dim, "x");
    }
  }
  out += element_type;
  if (!encoding.empty()) strAppend(out, ", ", encoding);
  return out + ">";
}

Type MeshTensorType::globalType(TypeContext& types) const {
  return types.rankedTensor(dims, element_type, encoding);
}

std::string MeshTensorType::str() const {
  std::string out(kMeshTensorPrefix);
  appendQuoted(out, mesh_name);
  strAppend(out, ", ", globalTypeText());
  if (sharding) strAppend(out, ", sharding=", toString(*sharding));
  if (memory_kind) {
    out += ", memory_kind=";
    appendQuoted(out, *memory_kind);
  }
  return out + ">";
}

MeshTensorType MeshTensorType::withSharding(
    const TensorSharding* new_sharding) const {
  MeshTensorType type = *this;
  if (new_sharding) {
    type.sharding = *new_sharding;
  } else {
    type.sharding.reset();
  }
  return type;
}

namespace {

bool meshTensorView(std::string_view text, TensorViewParts& parts) {
  absl::StatusOr<MeshTensorType> parsed = parseMeshTensor(text);
  if (!parsed.ok()) return false;
  parts.dims = std::move(parsed->dims);
  parts.element_type = std::move(parsed->element_type);
  parts.encoding = std::move(parsed->encoding);
  return true;
}

}  // namespace

void registerMeshTensorView() {
  registerTensorView(kMeshTensorPrefix, meshTensorView);
}

bool isMeshTensor(Type type) {
  return type && type.kind() == TypeKind::kOther &&
         type.str().starts_with(kMeshTensorPrefix);
}

std::string meshNameOf(Type type) {
  std::optional<MeshTensorType> mesh_tensor = MeshTensorType::of(type);
  return mesh_tensor ? mesh_tensor->mesh_name : std::string();
}

absl::StatusOr<std::string> canonicalTypeText(std::string_view text) {
  if (!text.starts_with(kMeshTensorPrefix)) {
    return absl::InvalidArgumentError(strCat("unknown mpmd type '", text, "'"));
  }
  SK_ASSIGN_OR_RETURN(MeshTensorType type, parseMeshTensor(text));
  return type.str();
}

absl::Status verifyForMesh(const MeshTensorType& type, const Mesh& mesh) {
  if (!type.sharding) return absl::OkStatus();
  ShardingVerifyOptions options;
  options.check_divisibility = true;
  TensorShapeView shape(type.dims);
  return verifyTensorShardingWithMesh(*type.sharding, mesh, shape, options);
}

}  // namespace shardkit::mpmd
