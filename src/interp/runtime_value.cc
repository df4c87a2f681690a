#include "shardkit/interp/runtime_value.h"

namespace shardkit::interp {

RuntimeValue RuntimeValue::tuple(std::vector<RuntimeValue> elements) {
  RuntimeValue v;
  v.kind_ = Kind::kTuple;
  v.elements_ =
      std::make_shared<const std::vector<RuntimeValue>>(std::move(elements));
  return v;
}

RuntimeValue RuntimeValue::token() {
  RuntimeValue v;
  v.kind_ = Kind::kToken;
  return v;
}

const std::vector<RuntimeValue>& RuntimeValue::elements() const {
  static const std::vector<RuntimeValue>* const kEmpty =
      new std::vector<RuntimeValue>();
  return elements_ ? *elements_ : *kEmpty;
}

std::string RuntimeValue::typeText() const {
  switch (kind_) {
    case Kind::kNull:
      return "<null>";
    case Kind::kTensor:
      return tensor_.typeText();
    case Kind::kToken:
      return "!stablehlo.token";
    case Kind::kTuple:
      break;
  }
  std::string out = "tuple<";
  for (size_t i = 0; i < elements().size(); ++i) {
    if (i) out += ", ";
    out += elements()[i].typeText();
  }
  out += '>';
  return out;
}

bool operator==(const RuntimeValue& a, const RuntimeValue& b) {
  if (a.kind_ != b.kind_) return false;
  if (a.kind_ == RuntimeValue::Kind::kTensor) return a.tensor_ == b.tensor_;
  if (a.kind_ == RuntimeValue::Kind::kTuple) {
    return a.elements() == b.elements();
  }
  return true;
}

}  // namespace shardkit::interp
