#include "shardkit/ir/type.h"

#include <deque>

#include "absl/container/flat_hash_map.h"
#include "shardkit/core/strings.h"

namespace shardkit {

struct TypeStorage {
  const TypeContext* context = nullptr;
  TypeKind kind = TypeKind::kOther;
  std::vector<int64_t> shape;
  std::string element_type;
  std::string encoding;
  std::vector<Type> elements;
  std::vector<Type> results;
  std::string text;
};

struct TypeContext::Impl {
  std::deque<TypeStorage> storage;  // stable addresses
  absl::flat_hash_map<std::string, const TypeStorage*> by_text;
};

namespace {

void appendTypeList(std::string& out, absl::Span<const Type> types) {
  for (size_t i = 0; i < types.size(); ++i) {
    if (i) out += ", ";
    out += types[i].str();
  }
}

}  // namespace

TypeContext::TypeContext() : impl_(new Impl()) {}
TypeContext::~TypeContext() { delete impl_; }
size_t TypeContext::size() const { return impl_->storage.size(); }

Type TypeContext::intern(TypeStorage storage) {
  auto it = impl_->by_text.find(storage.text);
  if (it != impl_->by_text.end()) return Type(it->second);
  storage.context = this;
  impl_->storage.push_back(std::move(storage));
  const TypeStorage* result = &impl_->storage.back();
  impl_->by_text.emplace(result->text, result);
  return Type(result);
}

Type TypeContext::rankedTensor(absl::Span<const int64_t> dims,
                               std::string_view element_type,
                               std::string_view encoding) {
  TypeStorage s;
  s.kind = TypeKind::kRankedTensor;
  s.shape.assign(dims.begin(), dims.end());
  s.element_type = std::string(element_type);
  s.encoding = std::string(encoding);
  s.text = "tensor<";
  for (int64_t d : dims) {
    if (d == kDynamicSize) {
      s.text += '?';
    } else {
      strAppend(s.text, d);
    }
    s.text += 'x';
  }
  s.text += element_type;
  if (!encoding.empty()) strAppend(s.text, ", ", encoding);
  s.text += '>';
  return intern(std::move(s));
}

Type TypeContext::unrankedTensor(std::string_view element_type) {
  TypeStorage s;
  s.kind = TypeKind::kUnrankedTensor;
  s.element_type = std::string(element_type);
  s.text = strCat("tensor<*x", element_type, ">");
  return intern(std::move(s));
}

Type TypeContext::tuple(absl::Span<const Type> elements) {
  TypeStorage s;
  s.kind = TypeKind::kTuple;
  s.elements.assign(elements.begin(), elements.end());
  s.text = "tuple<";
  appendTypeList(s.text, elements);
  s.text += '>';
  return intern(std::move(s));
}

Type TypeContext::function(absl::Span<const Type> inputs,
                           absl::Span<const Type> results) {
  TypeStorage s;
  s.kind = TypeKind::kFunction;
  s.elements.assign(inputs.begin(), inputs.end());
  s.results.assign(results.begin(), results.end());
  s.text = "(";
  appendTypeList(s.text, inputs);
  s.text += ") -> ";
  if (results.size() == 1 && results[0].kind() != TypeKind::kFunction) {
    s.text += results[0].str();
  } else {
    s.text += '(';
    appendTypeList(s.text, results);
    s.text += ')';
  }
  return intern(std::move(s));
}

Type TypeContext::other(std::string_view text) {
  TypeStorage s;
  s.kind = TypeKind::kOther;
  s.text = std::string(text);
  return intern(std::move(s));
}

Type TypeContext::import(Type type) {
  if (!type) return type;
  switch (type.kind()) {
    case TypeKind::kRankedTensor:
      return rankedTensor(type.shape(), type.elementType(), type.encoding());
    case TypeKind::kUnrankedTensor:
      return unrankedTensor(type.elementType());
    case TypeKind::kTuple: {
      std::vector<Type> elements;
      for (Type e : type.elements()) elements.push_back(import(e));
      return tuple(elements);
    }
    case TypeKind::kFunction: {
      std::vector<Type> inputs, results;
      for (Type e : type.elements()) inputs.push_back(import(e));
      for (Type e : type.results()) results.push_back(import(e));
      return function(inputs, results);
    }
    case TypeKind::kOther:
      return other(type.str());
  }
  return other(type.str());
}

bool operator==(Type a, Type b) {
  if (a.storage_ == b.storage_) return true;
  if (!a.storage_ || !b.storage_) return false;
  if (a.storage_->context == b.storage_->context) return false;
  return a.storage_->text == b.storage_->text;
}

TypeKind Type::kind() const {
  return storage_ ? storage_->kind : TypeKind::kOther;
}

bool Type::isToken() const {
  return storage_ && storage_->kind == TypeKind::kOther &&
         (storage_->text == "!stablehlo.token" ||
          storage_->text == "!mhlo.token");
}

absl::Span<const int64_t> Type::shape() const {
  if (!storage_) return {};
  return storage_->shape;
}

bool Type::hasStaticShape() const {
  if (!isRankedTensor()) return false;
  for (int64_t d : storage_->shape) {
    if (d == kDynamicSize) return false;
  }
  return true;
}

std::string_view Type::elementType() const {
  return storage_ ? std::string_view(storage_->element_type)
                  : std::string_view();
}

std::string_view Type::encoding() const {
  return storage_ ? std::string_view(storage_->encoding) : std::string_view();
}

absl::Span<const Type> Type::elements() const {
  if (!storage_) return {};
  return storage_->elements;
}

absl::Span<const Type> Type::results() const {
  if (!storage_) return {};
  return storage_->results;
}

TensorShapeView Type::shapeView() const {
  if (isRankedTensor()) return TensorShapeView(storage_->shape);
  // A sharding of a 1-tuple describes its element.
  if (kind() == TypeKind::kTuple && storage_->elements.size() == 1) {
    return storage_->elements[0].shapeView();
  }
  return TensorShapeView::nonShaped();
}

const std::string& Type::str() const {
  static const std::string* kNull = new std::string("<<null type>>");
  return storage_ ? storage_->text : *kNull;
}

std::string toString(Type type) { return type.str(); }

}  // namespace shardkit
