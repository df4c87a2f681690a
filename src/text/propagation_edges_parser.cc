// AttrParser::parsePropagationEdges: the body of `#sdy.propagation_edges`.
//
//   <[{step-N = [{AXIS = SOURCE -> [TARGET, ...]}, ...]}, ...]>
//
// where AXIS is an axis ref (`"x"`, `"x":(1)2`) and SOURCE/TARGET are
// `operand-I` or `result-I`. The step index may be written negative
// (`step--3`); the verifier rejects it.
#include "shardkit/core/status_macros.h"
#include "shardkit/text/attr_parser.h"
#include "src/text/delimited_list.h"

namespace shardkit {

absl::StatusOr<EdgeValueRef> AttrParser::parseEdgeValueRef() {
  EdgeValueRef ref;
  if (p_.atKeyword("operand")) {
    ref.kind = EdgeValueRef::Kind::kOperand;
  } else if (p_.atKeyword("result")) {
    ref.kind = EdgeValueRef::Kind::kResult;
  } else {
    return p_.errorExpected("'operand' or 'result'");
  }
  p_.advance();
  SK_RETURN_IF_ERROR(p_.expect(TokenKind::kMinus, "'-'"));
  SK_ASSIGN_OR_RETURN(ref.index, p_.parseInteger("value index"));
  return ref;
}

absl::StatusOr<AxisPropagation> AttrParser::parseAxisPropagation() {
  AxisPropagation entry;
  SK_ASSIGN_OR_RETURN(entry.axis, parseAxisRef());
  SK_RETURN_IF_ERROR(p_.expect(TokenKind::kEqual, "'='"));
  SK_ASSIGN_OR_RETURN(entry.source, parseEdgeValueRef());
  SK_RETURN_IF_ERROR(p_.expect(TokenKind::kArrow, "'->'"));
  SK_RETURN_IF_ERROR(parseSquareListInto(p_, entry.targets,
                                         [&] { return parseEdgeValueRef(); }));
  return entry;
}

absl::StatusOr<PropagationStep> AttrParser::parsePropagationStep() {
  PropagationStep step;
  SK_RETURN_IF_ERROR(p_.expectKeyword("step"));
  SK_RETURN_IF_ERROR(p_.expect(TokenKind::kMinus, "'-'"));
  SK_ASSIGN_OR_RETURN(step.step, p_.parseInteger("step index"));
  SK_RETURN_IF_ERROR(p_.expect(TokenKind::kEqual, "'='"));
  SK_RETURN_IF_ERROR(parseSquareListOfBraced(
      p_, step.axes, [&] { return parseAxisPropagation(); }));
  return step;
}

absl::StatusOr<PropagationEdges> AttrParser::parsePropagationEdges() {
  PropagationEdges edges;
  SK_RETURN_IF_ERROR(p_.expect(TokenKind::kLess, "'<'"));
  SK_RETURN_IF_ERROR(parseSquareListOfBraced(
      p_, edges.steps, [&] { return parsePropagationStep(); }));
  SK_RETURN_IF_ERROR(p_.expect(TokenKind::kGreater, "'>'"));
  return edges;
}

}  // namespace shardkit
