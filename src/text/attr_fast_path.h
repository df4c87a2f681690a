// Internal: the fast path of AttrParser for the attributes a module holds most
// of (tensor shardings, meshes).
//
// One pass over the characters of the common, well-formed spelling (the
// one MLIR's printer gives: a space after a comma, no other blank): no
// tokens, no Status on the way, one allocation per vector of the result (its
// exact size; axis names fit std::string's inline buffer). The scan accepts a
// subset of what AttrParser accepts and gives the same value for it; on
// anything else (a comment, an escape in a string, a negative or hex number,
// any error) it gives up, and the caller parses the same text again with
// AttrParser's token parser, which alone knows the error messages and
// positions. The result is then the token parser's, byte for byte.
#ifndef SHARDKIT_SRC_TEXT_ATTR_FAST_PATH_H_
#define SHARDKIT_SRC_TEXT_ATTR_FAST_PATH_H_

#include <cstddef>
#include <string_view>

#include "shardkit/core/mesh.h"
#include "shardkit/core/tensor_sharding.h"

namespace shardkit {

// What follows a text: kNul promises that `text.data()[text.size()]` is
// readable and NUL (a std::string's terminator), which spares the scan its
// end checks; kUnknown promises nothing.
enum class TextEnd { kUnknown, kNul };

// `<@mesh, [{"x":(1)2, ?}p1, {}], replicated={"y"}>` starting at
// `text[offset]` (the `<`): the offset one past its `>`, with the sharding in
// `out`; npos when the text is outside the fast path's subset (then `out` is
// unspecified).
size_t fastParseTensorSharding(std::string_view text, size_t offset,
                               TensorSharding& out,
                               TextEnd end = TextEnd::kUnknown);

// `<["x"=2, "y"=4], device_ids=[...]>` starting at `text[offset]`; like
// fastParseTensorSharding.
size_t fastParseMesh(std::string_view text, size_t offset, Mesh& out,
                     TextEnd end = TextEnd::kUnknown);

}  // namespace shardkit

#endif  // SHARDKIT_SRC_TEXT_ATTR_FAST_PATH_H_
