// --explain-op=%NAME with the input's own value names: the printer numbers
// values afresh (`%0`, `%1`, ...), but a user reads the names of the file
// they wrote (`%h`, `%logits`). The op that defined such a name is found by
// where it started in the text, which the module keeps for each op.
#ifndef SHARDKIT_TOOLS_SHARDKIT_OPT_SOURCE_NAMES_H_
#define SHARDKIT_TOOLS_SHARDKIT_OPT_SOURCE_NAMES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "shardkit/ir/graph.h"

namespace shardkit {

// Where `text` first defines the value `name` (`%h`, or `%h#1` for a result
// of a multi-result op): the offset of its op (the start of the op's result
// list, as the reader records op locations) and the op's name as written
// there (`dialect.op`, without quotes), or nullopt if `text` defines no
// such value.
struct SourceDefinition {
  uint32_t offset = 0;
  std::string op_name;
};
std::optional<SourceDefinition> findSourceDefinition(std::string_view text,
                                                     std::string_view name);

// The op the reader made of `definition`: the first op (in walk order) at
// its offset with its name, else the first op at its offset (a pass's op
// that took the place and location of the one written there); null if none
// is left.
Op findOpAt(Module& module, const SourceDefinition& definition);

}  // namespace shardkit

#endif  // SHARDKIT_TOOLS_SHARDKIT_OPT_SOURCE_NAMES_H_
