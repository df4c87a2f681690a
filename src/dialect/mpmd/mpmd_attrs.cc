// The mpmd attributes: reading their text, printing it canonically.
#include "shardkit/dialect/mpmd/mpmd_attrs.h"

#include <utility>

#include "shardkit/support/enum_table.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"
#include "shardkit/text/attr_parser.h"

namespace shardkit::mpmd {
namespace {

constexpr std::string_view kPrefix = "#mpmd.";

constexpr EnumTable<ReductionType, std::string_view> kReductionNames = {
    {"none", "add", "max", "min", "mul", "or", "and"}};

std::string quoted(std::string_view s) {
  std::string out;
  appendQuoted(out, s);
  return out;
}

// ---- Parsing (each starts at the attribute's '<') ----

absl::StatusOr<NamedMesh> parseNamedMesh(ParserBase& p) {
  NamedMesh named;
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kLess, "'<'"));
  SK_ASSIGN_OR_RETURN(named.name, p.parseString("mesh name"));
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kColon, "':'"));
  SK_ASSIGN_OR_RETURN(named.mesh, AttrParser(p).parseMesh());
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kGreater, "'>'"));
  return named;
}

absl::StatusOr<Topology> parseTopology(ParserBase& p) {
  Topology topology;
  size_t start = p.tok().offset;
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kLess, "'<'"));
  if (!p.at(TokenKind::kGreater)) {
    do {
      SK_ASSIGN_OR_RETURN(NamedMesh mesh, parseNamedMesh(p));
      topology.meshes.push_back(std::move(mesh));
    } while (p.consumeIf(TokenKind::kComma));
  }
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kGreater, "'>'"));
  if (topology.meshes.empty()) {
    return p.errorAt(start, "TopologyAttr must have at least one mesh.");
  }
  return topology;
}

absl::StatusOr<UserOrigin> parseUserOrigin(ParserBase& p) {
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kLess, "'<'"));
  SK_ASSIGN_OR_RETURN(UserOrigin origin, parseShortUserOrigin(p));
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kGreater, "'>'"));
  return origin;
}

absl::StatusOr<ReductionType> parseReduction(ParserBase& p) {
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kLess, "'<'"));
  std::optional<ReductionType> type;
  if (p.at(TokenKind::kBareIdent)) type = parseReductionType(p.tok().spelling);
  if (!type) {
    return p.errorExpected(
        "reduction kind (none, add, max, min, mul, or, and)");
  }
  p.advance();
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kGreater, "'>'"));
  return *type;
}

// `"mesh"` or `"mesh"["origin", ...]`.
absl::StatusOr<MeshWithOrigins> parseMeshWithOrigins(ParserBase& p) {
  MeshWithOrigins mesh;
  SK_ASSIGN_OR_RETURN(mesh.mesh_name, p.parseString("mesh name"));
  if (p.consumeIf(TokenKind::kLSquare)) {
    if (!p.at(TokenKind::kRSquare)) {
      do {
        SK_ASSIGN_OR_RETURN(std::string origin, p.parseString("origin label"));
        mesh.origins.push_back(std::move(origin));
      } while (p.consumeIf(TokenKind::kComma));
    }
    SK_RETURN_IF_ERROR(p.expect(TokenKind::kRSquare, "']'"));
  }
  return mesh;
}

absl::StatusOr<std::vector<MeshWithOrigins>> parseMeshesWithOrigins(
    ParserBase& p) {
  std::vector<MeshWithOrigins> meshes;
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kLess, "'<'"));
  if (!p.at(TokenKind::kGreater)) {
    do {
      SK_ASSIGN_OR_RETURN(MeshWithOrigins mesh, parseMeshWithOrigins(p));
      meshes.push_back(std::move(mesh));
    } while (p.consumeIf(TokenKind::kComma));
  }
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kGreater, "'>'"));
  return meshes;
}

// ---- Printing ----

void appendNamedMesh(std::string& out, const NamedMesh& mesh) {
  strAppend(out, "<", quoted(mesh.name), " : ", toString(mesh.mesh), ">");
}

void appendMeshWithOrigins(std::string& out, const MeshWithOrigins& mesh) {
  out += quoted(mesh.mesh_name);
  if (mesh.origins.empty()) return;
  out += "[";
  for (size_t i = 0; i < mesh.origins.size(); ++i) {
    strAppend(out, i ? ", " : "", quoted(mesh.origins[i]));
  }
  out += "]";
}

std::string topologyText(const Topology& topology) {
  std::string out = "#mpmd.topology<";
  for (size_t i = 0; i < topology.meshes.size(); ++i) {
    if (i) out += ", ";
    appendNamedMesh(out, topology.meshes[i]);
  }
  return out + ">";
}

std::string meshesWithOriginsText(const std::vector<MeshWithOrigins>& meshes) {
  std::string out = "#mpmd.meshes_with_origins<";
  for (size_t i = 0; i < meshes.size(); ++i) {
    if (i) out += ", ";
    appendMeshWithOrigins(out, meshes[i]);
  }
  return out + ">";
}

// The body of `attr` after `#mpmd.<name>` when it is such an attribute.
std::optional<std::string_view> bodyOf(const Attribute& attr,
                                       std::string_view name) {
  const std::string* text = attr.asOpaque();
  if (!text) return std::nullopt;
  std::string_view view(*text);
  if (!view.starts_with(kPrefix)) return std::nullopt;
  view.remove_prefix(kPrefix.size());
  if (!view.starts_with(name) || view.size() == name.size() ||
      view[name.size()] != '<') {
    return std::nullopt;
  }
  return view.substr(name.size());
}

// Parses the body of `attr` with `parse`, requiring it to be all of it.
template <typename T, typename ParseFn>
std::optional<T> valueOf(const Attribute& attr, std::string_view name,
                         ParseFn parse) {
  std::optional<std::string_view> body = bodyOf(attr, name);
  if (!body) return std::nullopt;
  ParserBase p(*body);
  absl::StatusOr<T> value = parse(p);
  if (!value.ok() || !p.at(TokenKind::kEof)) return std::nullopt;
  return *std::move(value);
}

}  // namespace

const Mesh* Topology::find(std::string_view name) const {
  for (const NamedMesh& mesh : meshes) {
    if (mesh.name == name) return &mesh.mesh;
  }
  return nullptr;
}

bool Topology::isHomogeneous() const {
  auto significantAxes = [](const Mesh& mesh) {
    std::vector<MeshAxis> axes;
    for (const MeshAxis& axis : mesh.axes) {
      if (axis.size != 1) axes.push_back(axis);
    }
    return axes;
  };
  for (const NamedMesh& mesh : meshes) {
    if (significantAxes(mesh.mesh) != significantAxes(meshes.front().mesh))
      return false;
  }
  return true;
}

std::string_view toString(ReductionType type) { return kReductionNames[type]; }

std::optional<ReductionType> parseReductionType(std::string_view text) {
  return kReductionNames.find(text);
}

Attribute topologyAttr(const Topology& topology) {
  return Attribute::opaque(topologyText(topology));
}

Attribute userOriginAttr(const UserOrigin& origin) {
  return Attribute::opaque(
      strCat("#mpmd.user_origin<", shortUserOrigin(origin), ">"));
}

Attribute reductionAttr(ReductionType type) {
  return Attribute::opaque(strCat("#mpmd.reduction<", toString(type), ">"));
}

Attribute meshesWithOriginsAttr(const std::vector<MeshWithOrigins>& meshes) {
  return Attribute::opaque(meshesWithOriginsText(meshes));
}

std::optional<Topology> topologyOf(const Attribute& attr) {
  return valueOf<Topology>(attr, "topology", parseTopology);
}

std::optional<UserOrigin> userOriginOf(const Attribute& attr) {
  return valueOf<UserOrigin>(attr, "user_origin", parseUserOrigin);
}

std::optional<ReductionType> reductionOf(const Attribute& attr) {
  return valueOf<ReductionType>(attr, "reduction", parseReduction);
}

std::optional<std::vector<MeshWithOrigins>> meshesWithOriginsOf(
    const Attribute& attr) {
  return valueOf<std::vector<MeshWithOrigins>>(attr, "meshes_with_origins",
                                               parseMeshesWithOrigins);
}

std::string shortUserOrigin(const UserOrigin& origin) {
  std::string text = quoted(origin.name);
  if (origin.transpose_count > 0)
    strAppend(text, "(", origin.transpose_count, ")");
  return text;
}

absl::StatusOr<UserOrigin> parseShortUserOrigin(ParserBase& p) {
  UserOrigin origin;
  SK_ASSIGN_OR_RETURN(origin.name, p.parseString("user origin name"));
  if (p.consumeIf(TokenKind::kLParen)) {
    SK_ASSIGN_OR_RETURN(origin.transpose_count,
                        p.parseInteger("transpose count"));
    SK_RETURN_IF_ERROR(p.expect(TokenKind::kRParen, "')'"));
  }
  return origin;
}

absl::StatusOr<std::string> parseAttributeText(ParserBase& p,
                                               std::string_view name) {
  std::string_view kind = name.substr(name.find('.') + 1);
  if (kind == "topology") {
    SK_ASSIGN_OR_RETURN(Topology topology, parseTopology(p));
    return topologyText(topology);
  }
  if (kind == "named_mesh") {
    SK_ASSIGN_OR_RETURN(NamedMesh mesh, parseNamedMesh(p));
    std::string out = "#mpmd.named_mesh";
    appendNamedMesh(out, mesh);
    return out;
  }
  if (kind == "user_origin") {
    SK_ASSIGN_OR_RETURN(UserOrigin origin, parseUserOrigin(p));
    return strCat("#mpmd.user_origin<", shortUserOrigin(origin), ">");
  }
  if (kind == "reduction") {
    SK_ASSIGN_OR_RETURN(ReductionType type, parseReduction(p));
    return strCat("#mpmd.reduction<", toString(type), ">");
  }
  if (kind == "origin") {
    SK_RETURN_IF_ERROR(p.expect(TokenKind::kLess, "'<'"));
    SK_ASSIGN_OR_RETURN(std::string label, p.parseString("origin label"));
    SK_RETURN_IF_ERROR(p.expect(TokenKind::kGreater, "'>'"));
    return strCat("#mpmd.origin<", quoted(label), ">");
  }
  if (kind == "mesh_with_origins") {
    SK_RETURN_IF_ERROR(p.expect(TokenKind::kLess, "'<'"));
    SK_ASSIGN_OR_RETURN(MeshWithOrigins mesh, parseMeshWithOrigins(p));
    SK_RETURN_IF_ERROR(p.expect(TokenKind::kGreater, "'>'"));
    std::string out = "#mpmd.mesh_with_origins<";
    appendMeshWithOrigins(out, mesh);
    return out + ">";
  }
  if (kind == "meshes_with_origins") {
    SK_ASSIGN_OR_RETURN(std::vector<MeshWithOrigins> meshes,
                        parseMeshesWithOrigins(p));
    return meshesWithOriginsText(meshes);
  }
  return p.error(strCat("unknown mpmd attribute '#", name, "'"));
}

}  // namespace shardkit::mpmd
