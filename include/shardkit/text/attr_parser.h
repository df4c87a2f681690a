// AttrParser: recursive-descent parsing of every sdy attribute syntax, on a
// ParserBase shared with whoever is reading the surrounding text (the module
// reader parses `#sdy.sharding<...>` in place this way).
//
// Every `parseX` starts at the first token of X's stripped form and leaves the
// cursor after its last token. Only syntax is checked here (plus the few
// constraints the reference checks while parsing: axis sizes, priorities and
// factor symbol order); everything else is the verifier's job.
#ifndef SHARDKIT_TEXT_ATTR_PARSER_H_
#define SHARDKIT_TEXT_ATTR_PARSER_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "shardkit/core/axis_ref.h"
#include "shardkit/core/collective_params.h"
#include "shardkit/core/dimension_sharding.h"
#include "shardkit/core/mesh.h"
#include "shardkit/core/op_sharding_rule.h"
#include "shardkit/core/propagation_direction.h"
#include "shardkit/core/propagation_edges.h"
#include "shardkit/core/tensor_sharding.h"
#include "shardkit/export.h"
#include "shardkit/text/parser_base.h"

SHARDKIT_EXPORT_BEGIN

namespace shardkit {

class AttrParser {
 public:
  explicit AttrParser(ParserBase& p) : p_(p) {}

  // `<["a"=2], device_ids=[1, 0]>`. An explicit iota device list is dropped.
  absl::StatusOr<Mesh> parseMesh();
  // `"x"` or `"x":(2)4`.
  absl::StatusOr<AxisRef> parseAxisRef();
  // `{"x", "y":(1)2}`.
  absl::StatusOr<AxisRefVector> parseAxisRefList();
  // `{"x", ?}p1`.
  absl::StatusOr<DimensionSharding> parseDimensionSharding();
  // `@mesh` or `mesh<...>`.
  absl::StatusOr<MeshOrRef> parseMeshOrRef();
  // `<@mesh, [{"x"}, {}], replicated={"y"}, unreduced=max{"z"}>`.
  absl::StatusOr<TensorSharding> parseTensorSharding();
  // `<[<@mesh, ...>, ...]>`.
  absl::StatusOr<TensorShardingPerValue> parseTensorShardingPerValue();
  // `[<@mesh, ...>, ...]`, the list form manual/named computations print.
  // `element_context` is added to the error of a sharding that fails.
  absl::StatusOr<TensorShardingPerValue> parseTensorShardingList(
      std::string_view element_context = {});
  // `<([i, k], [k, j])->([i, j]) {i=8, j=16, k=8} reduction={k}, custom>`.
  absl::StatusOr<OpShardingRule> parseOpShardingRule();
  // `{"a", "b"}`.
  absl::StatusOr<ManualAxes> parseManualAxes();
  // `[{}, {"x"}]`.
  absl::StatusOr<ListOfAxisRefLists> parseListOfAxisRefLists();
  // `[{"b"}: 0->2, {"c"}: 1->3]`.
  absl::StatusOr<AllToAllParamList> parseAllToAllParamList();
  // `NONE`, `FORWARD`, `BACKWARD` or `BOTH`.
  absl::StatusOr<PropagationDirection> parsePropagationDirection();
  // `<[{step-0 = [{"a" = operand-0 -> [result-0]}]}]>`
  // (src/text/propagation_edges_parser.cc).
  absl::StatusOr<PropagationEdges> parsePropagationEdges();

 private:
  ParserBase& p_;
};

// Decodes one factor symbol at the start of `text` (`i`..`z`, or `z_N`),
// advancing `text` past it. `offset` is where `text` starts in the buffer, for
// errors.
absl::StatusOr<int64_t> consumeFactorSymbol(ParserBase& p,
                                            std::string_view& text,
                                            size_t offset);

}  // namespace shardkit

SHARDKIT_EXPORT_END

#endif  // SHARDKIT_TEXT_ATTR_PARSER_H_
