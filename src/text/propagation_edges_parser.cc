// AttrParser::parsePropagationEdges: the body of `#sdy.propagation_edges`.
//
//   <[{step-N = [{AXIS = SOURCE -> [TARGET, ...]}, ...]}, ...]>
//
// where AXIS is an axis ref (`"x"`, `"x":(1)2`) and SOURCE/TARGET are
// `operand-I` or `result-I`. The step index may be written negative
// (`step--3`); the verifier rejects it.
#include "shardkit/support/status_macros.h"
#include "shardkit/text/attr_parser.h"
#include "src/text/delimited_list.h"

namespace shardkit {
namespace {

// `operand-I` or `result-I`.
absl::StatusOr<EdgeValueRef> parseEdgeValueRef(ParserBase& p) {
  EdgeValueRef ref;
  if (p.atKeyword("operand")) {
    ref.kind = EdgeValueRef::Kind::kOperand;
  } else if (p.atKeyword("result")) {
    ref.kind = EdgeValueRef::Kind::kResult;
  } else {
    return p.errorExpected("'operand' or 'result'");
  }
  p.advance();
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kMinus, "'-'"));
  SK_ASSIGN_OR_RETURN(ref.index, p.parseInteger("value index"));
  return ref;
}

// `AXIS = SOURCE -> [TARGET, ...]`.
absl::StatusOr<AxisPropagation> parseAxisPropagation(ParserBase& p) {
  AxisPropagation entry;
  SK_ASSIGN_OR_RETURN(entry.axis, AttrParser(p).parseAxisRef());
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kEqual, "'='"));
  SK_ASSIGN_OR_RETURN(entry.source, parseEdgeValueRef(p));
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kArrow, "'->'"));
  SK_RETURN_IF_ERROR(parseSquareListInto(p, entry.targets,
                                         [&] { return parseEdgeValueRef(p); }));
  return entry;
}

// `step-N = [{...}, ...]`, the braces of the step not included.
absl::StatusOr<PropagationStep> parsePropagationStep(ParserBase& p) {
  PropagationStep step;
  SK_RETURN_IF_ERROR(p.expectKeyword("step"));
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kMinus, "'-'"));
  SK_ASSIGN_OR_RETURN(step.step, p.parseInteger("step index"));
  SK_RETURN_IF_ERROR(p.expect(TokenKind::kEqual, "'='"));
  SK_RETURN_IF_ERROR(parseSquareListOfBraced(
      p, step.axes, [&] { return parseAxisPropagation(p); }));
  return step;
}

}  // namespace

absl::StatusOr<PropagationEdges> AttrParser::parsePropagationEdges() {
  PropagationEdges edges;
  SK_RETURN_IF_ERROR(p_.expect(TokenKind::kLess, "'<'"));
  SK_RETURN_IF_ERROR(parseSquareListOfBraced(
      p_, edges.steps, [&] { return parsePropagationStep(p_); }));
  SK_RETURN_IF_ERROR(p_.expect(TokenKind::kGreater, "'>'"));
  return edges;
}

}  // namespace shardkit
