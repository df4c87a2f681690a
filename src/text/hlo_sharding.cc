// HloSharding text: reading, printing, and the devices of its tiles.
#include "shardkit/text/hlo_sharding.h"

#include <algorithm>
#include <cctype>
#include <numeric>

#include "shardkit/support/enum_table.h"
#include "shardkit/support/status_macros.h"
#include "shardkit/support/strings.h"

namespace shardkit {
namespace {

// A character cursor over HloSharding text; errors name the 1-based column.
class HloShardingReader {
 public:
  explicit HloShardingReader(std::string_view text) : text_(text) {}

  absl::StatusOr<HloSharding> readAll() {
    SK_ASSIGN_OR_RETURN(HloSharding sharding, readSharding(0));
    skipSpace();
    if (pos_ != text_.size()) return expected("end of the sharding");
    return sharding;
  }

 private:
  static constexpr int kMaxTupleDepth = 64;

  void skipSpace() {
    while (pos_ < text_.size() &&
           std::isspace(static_cast<unsigned char>(text_[pos_]))) {
      ++pos_;
    }
  }
  bool consume(std::string_view token) {
    skipSpace();
    if (text_.substr(pos_).starts_with(token)) {
      pos_ += token.size();
      return true;
    }
    return false;
  }
  // Consumes a keyword only when no identifier character follows it.
  bool consumeWord(std::string_view word) {
    skipSpace();
    if (!text_.substr(pos_).starts_with(word)) return false;
    size_t end = pos_ + word.size();
    if (end < text_.size() &&
        (std::isalnum(static_cast<unsigned char>(text_[end])) ||
         text_[end] == '_')) {
      return false;
    }
    pos_ = end;
    return true;
  }
  absl::Status expected(std::string_view what) {
    skipSpace();
    std::string got = pos_ < text_.size()
                          ? strCat("'", text_.substr(pos_, 12), "'")
                          : std::string("end of text");
    return absl::InvalidArgumentError(strCat(
        "HloSharding col ", pos_ + 1, ": expected ", what, ", got ", got));
  }
  absl::Status expect(std::string_view token) {
    if (consume(token)) return absl::OkStatus();
    return expected(strCat("'", token, "'"));
  }
  absl::StatusOr<int64_t> readInt(std::string_view what) {
    skipSpace();
    size_t start = pos_;
    int64_t value = 0;
    while (pos_ < text_.size() &&
           std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      int digit = text_[pos_] - '0';
      if (value > (INT64_MAX - digit) / 10) {
        pos_ = start;
        return expected(strCat(what, " (an integer that fits in 64 bits)"));
      }
      value = value * 10 + digit;
      ++pos_;
    }
    if (pos_ == start) return expected(what);
    return value;
  }
  // `[a,b,...]` (at least one entry).
  absl::StatusOr<std::vector<int64_t>> readList(std::string_view what) {
    SK_RETURN_IF_ERROR(expect("["));
    std::vector<int64_t> values;
    do {
      SK_ASSIGN_OR_RETURN(int64_t v, readInt(what));
      values.push_back(v);
    } while (consume(","));
    SK_RETURN_IF_ERROR(expect("]"));
    return values;
  }
  // Skips `{...}` (metadata), minding quoted strings.
  absl::Status skipBraced() {
    SK_RETURN_IF_ERROR(expect("{"));
    int depth = 1;
    while (pos_ < text_.size() && depth > 0) {
      char c = text_[pos_++];
      if (c == '"') {
        while (pos_ < text_.size() && text_[pos_] != '"') {
          pos_ += text_[pos_] == '\\' ? 2 : 1;
        }
        if (pos_ >= text_.size()) return expected("'\"' closing a string");
        ++pos_;
      } else if (c == '{') {
        ++depth;
      } else if (c == '}') {
        --depth;
      }
    }
    if (depth > 0) return expected("'}' closing the metadata");
    return absl::OkStatus();
  }

  absl::StatusOr<HloSharding> readSharding(int depth) {
    if (depth > kMaxTupleDepth) return expected("a less deeply nested tuple");
    SK_RETURN_IF_ERROR(expect("{"));
    skipSpace();
    if (consume("{") || consume("}")) {
      // A tuple: `{}` or `{{...}, {...}}`.
      --pos_;
      HloSharding tuple;
      tuple.kind = HloShardingKind::kTuple;
      if (consume("}")) return tuple;
      do {
        // XLA numbers every fifth element: `, /*index=5*/{...}`.
        if (consume("/*")) {
          size_t end = text_.find("*/", pos_);
          if (end == std::string_view::npos) return expected("'*/'");
          pos_ = end + 2;
        }
        SK_ASSIGN_OR_RETURN(HloSharding element, readSharding(depth + 1));
        tuple.elements.push_back(std::move(element));
      } while (consume(","));
      SK_RETURN_IF_ERROR(expect("}"));
      return tuple;
    }
    HloSharding sharding;
    if (consumeWord("replicated")) {
    } else if (consumeWord("manual")) {
      sharding.kind = HloShardingKind::kManual;
    } else if (consumeWord("maximal")) {
      sharding.kind = HloShardingKind::kMaximal;
      SK_RETURN_IF_ERROR(expect("device"));
      SK_RETURN_IF_ERROR(expect("="));
      SK_ASSIGN_OR_RETURN(sharding.device, readInt("a device id"));
    } else if (consumeWord("devices")) {
      SK_RETURN_IF_ERROR(readTiled(sharding));
    } else if (consumeWord("unknown") || consumeWord("unreduced")) {
      return absl::InvalidArgumentError(
          "HloSharding: {unknown} and {unreduced} have no sdy equivalent");
    } else {
      return expected(
          "'replicated', 'manual', 'maximal', 'devices' or a tuple");
    }
    SK_RETURN_IF_ERROR(readTrailer(sharding));
    SK_RETURN_IF_ERROR(expect("}"));
    return sharding;
  }

  // After `devices`: `=[dims]` then `<=[reshape]T(perm)` or `d0,d1,...`.
  absl::Status readTiled(HloSharding& sharding) {
    sharding.kind = HloShardingKind::kTiled;
    SK_RETURN_IF_ERROR(expect("="));
    SK_ASSIGN_OR_RETURN(sharding.tile_dims, readList("a tile dimension"));
    int64_t count = 1;
    for (int64_t d : sharding.tile_dims) {
      if (d < 1 || count > (int64_t{1} << 40) / d) {
        return absl::InvalidArgumentError(
            "HloSharding: tile dimensions must be positive (at most 2^40 "
            "tiles)");
      }
      count *= d;
    }
    if (consume("<=")) {
      SK_ASSIGN_OR_RETURN(sharding.iota_reshape_dims,
                          readList("a reshape dimension"));
      if (consume("T(")) {
        --pos_;
        SK_RETURN_IF_ERROR(expect("("));
        do {
          SK_ASSIGN_OR_RETURN(int64_t p, readInt("a permutation index"));
          sharding.iota_perm.push_back(p);
        } while (consume(","));
        SK_RETURN_IF_ERROR(expect(")"));
      } else {
        sharding.iota_perm.resize(sharding.iota_reshape_dims.size());
        std::iota(sharding.iota_perm.begin(), sharding.iota_perm.end(), 0);
      }
      return checkIota(sharding, count);
    }
    do {
      SK_ASSIGN_OR_RETURN(int64_t d, readInt("a device id"));
      sharding.devices.push_back(d);
    } while (consume(","));
    if (static_cast<int64_t>(sharding.devices.size()) != count) {
      return absl::InvalidArgumentError(
          strCat("HloSharding: ", sharding.devices.size(),
                 " devices listed for ", count, " tiles"));
    }
    std::vector<int64_t> sorted = sharding.devices;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
      return absl::InvalidArgumentError(
          "HloSharding: a device is listed twice");
    }
    return absl::OkStatus();
  }

  static absl::Status checkIota(const HloSharding& sharding, int64_t count) {
    const auto& dims = sharding.iota_reshape_dims;
    const auto& perm = sharding.iota_perm;
    int64_t product = 1;
    for (int64_t d : dims) {
      if (d < 1 || product > count) break;
      product *= d;
    }
    if (product != count) {
      return absl::InvalidArgumentError(
          strCat("HloSharding: the iota reshape dimensions hold ", product,
                 " devices, the tiles ", count));
    }
    std::vector<int64_t> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < sorted.size(); ++i) {
      if (sorted.size() != dims.size() || sorted[i] != static_cast<int64_t>(i))
        return absl::InvalidArgumentError(
            "HloSharding: T(...) is not a permutation of the reshape "
            "dimensions");
    }
    return absl::OkStatus();
  }

  // ` last_tile_dim_replicate`, ` last_tile_dims={manual, replicated}`,
  // ` metadata={...}`, in any order.
  absl::Status readTrailer(HloSharding& sharding) {
    const bool tiled = sharding.kind == HloShardingKind::kTiled;
    while (true) {
      skipSpace();
      const size_t start = pos_;
      if (consumeWord("last_tile_dim_replicate") ||
          consumeWord("last_tile_dims")) {
        if (!tiled) {
          pos_ = start;
          return expected("'}' (only tiled shardings have subgroups)");
        }
      }
      pos_ = start;
      if (consumeWord("last_tile_dim_replicate")) {
        sharding.last_tile_dim_replicate = true;
      } else if (consumeWord("last_tile_dims")) {
        SK_RETURN_IF_ERROR(expect("="));
        SK_RETURN_IF_ERROR(expect("{"));
        do {
          if (consumeWord("manual")) {
            sharding.last_tile_dims.push_back(HloSubgroup::kManual);
          } else if (consumeWord("replicated")) {
            sharding.last_tile_dims.push_back(HloSubgroup::kReplicated);
          } else {
            return expected("'manual' or 'replicated'");
          }
        } while (consume(","));
        SK_RETURN_IF_ERROR(expect("}"));
      } else if (consumeWord("metadata")) {
        SK_RETURN_IF_ERROR(expect("="));
        SK_RETURN_IF_ERROR(skipBraced());
      } else if (consumeWord("shard_as") || consumeWord("shard_like")) {
        return absl::InvalidArgumentError(
            "HloSharding: shard_as/shard_like groups are not supported");
      } else {
        break;
      }
    }
    if (sharding.last_tile_dim_replicate && !sharding.last_tile_dims.empty()) {
      return absl::InvalidArgumentError(
          "HloSharding: both last_tile_dim_replicate and last_tile_dims");
    }
    if (sharding.kind == HloShardingKind::kTiled &&
        sharding.numSubgroupDims() > sharding.tile_dims.size()) {
      return absl::InvalidArgumentError(
          "HloSharding: more subgroups than tile dimensions");
    }
    return absl::OkStatus();
  }

  std::string_view text_;
  size_t pos_ = 0;
};

// The word that starts the text of each kind, `{word ...}` (none for a
// tuple), and the name of each subgroup kind (`last_tile_dims={manual}`).
constexpr EnumTable<HloShardingKind, std::string_view> kKindWords = {
    {"replicated", "manual", "maximal", "devices", ""}};
constexpr EnumTable<HloSubgroup, std::string_view> kSubgroupNames = {
    {"manual", "replicated"}};

// Appends `=[2,2]<=[4]` or `=[2,2]0,1,2,3`, then the trailing subgroups.
void appendTiles(std::string& out, const HloSharding& s) {
  appendList(out, "=[", s.tile_dims, appendInt, "]", ",");
  if (!s.isIota()) {
    appendJoined(out, s.devices, appendInt, ",");
  } else {
    appendList(out, "<=[", s.iota_reshape_dims, appendInt, "]", ",");
    if (s.iota_reshape_dims.size() > 1) {
      appendList(out, "T(", s.iota_perm, appendInt, ")", ",");
    }
  }
  if (s.last_tile_dim_replicate) out += " last_tile_dim_replicate";
  if (!s.last_tile_dims.empty()) {
    appendList(
        out, " last_tile_dims={", s.last_tile_dims,
        [](std::string& o, HloSubgroup group) { o += kSubgroupNames[group]; },
        "}");
  }
}

void appendSharding(std::string& out, const HloSharding& s) {
  strAppend(out, "{", kKindWords[s.kind]);
  switch (s.kind) {
    case HloShardingKind::kMaximal:
      strAppend(out, " device=", s.device);
      break;
    case HloShardingKind::kTiled:
      appendTiles(out, s);
      break;
    case HloShardingKind::kTuple:
      for (size_t i = 0; i < s.elements.size(); ++i) {
        if (i) out += ", ";
        if (i && i % 5 == 0) strAppend(out, "/*index=", i, "*/");
        appendSharding(out, s.elements[i]);
      }
      break;
    case HloShardingKind::kReplicated:
    case HloShardingKind::kManual:
      break;
  }
  out += '}';
}

}  // namespace

absl::StatusOr<HloSharding> parseHloSharding(std::string_view text) {
  return HloShardingReader(text).readAll();
}

std::string toString(const HloSharding& sharding) {
  std::string out;
  appendSharding(out, sharding);
  return out;
}

std::vector<int64_t> HloSharding::tileDevices() const {
  if (!isIota()) return devices;
  // Tile k is element k of iota(N) reshaped to iota_reshape_dims and
  // transposed by iota_perm: its digits over the transposed dimensions are
  // the reshape index's digits in perm order.
  const size_t n = iota_reshape_dims.size();
  int64_t count = 1;
  for (int64_t d : iota_reshape_dims) count *= d;
  std::vector<int64_t> strides(n, 1);
  for (size_t i = n; i-- > 1;)
    strides[i - 1] = strides[i] * iota_reshape_dims[i];
  std::vector<int64_t> result(static_cast<size_t>(count));
  for (int64_t k = 0; k < count; ++k) {
    int64_t rest = k, value = 0;
    for (size_t i = n; i-- > 0;) {
      int64_t dim = iota_perm[i];
      value += (rest % iota_reshape_dims[dim]) * strides[dim];
      rest /= iota_reshape_dims[dim];
    }
    result[static_cast<size_t>(k)] = value;
  }
  return result;
}

std::vector<std::vector<int64_t>> hloTileGroups(
    const HloSharding& sharding, int64_t rank, int64_t num_devices,
    std::vector<int64_t>& tile_dims) {
  tile_dims.assign(static_cast<size_t>(rank), 1);
  std::vector<std::vector<int64_t>> groups;
  switch (sharding.kind) {
    case HloShardingKind::kMaximal:
      groups.push_back({sharding.device});
      return groups;
    case HloShardingKind::kTiled:
      break;
    default: {
      std::vector<int64_t> all(static_cast<size_t>(num_devices));
      std::iota(all.begin(), all.end(), 0);
      groups.push_back(std::move(all));
      return groups;
    }
  }
  size_t data_rank = sharding.dataRank();
  tile_dims.assign(sharding.tile_dims.begin(),
                   sharding.tile_dims.begin() + data_rank);
  int64_t group_size = 1;
  for (size_t i = data_rank; i < sharding.tile_dims.size(); ++i)
    group_size *= sharding.tile_dims[i];
  std::vector<int64_t> devices = sharding.tileDevices();
  for (size_t start = 0; start < devices.size();
       start += static_cast<size_t>(group_size)) {
    std::vector<int64_t> group(devices.begin() + start,
                               devices.begin() + start + group_size);
    std::sort(group.begin(), group.end());
    groups.push_back(std::move(group));
  }
  return groups;
}

}  // namespace shardkit
