#include "shardkit/ir/type.h"

#include <deque>
#include <mutex>

#include "absl/container/flat_hash_map.h"
#include "shardkit/ir/tensor_view.h"
#include "shardkit/support/strings.h"

namespace shardkit {

// Every field has an initializer, so that the constructors below name only
// the fields of their kind.
struct TypeStorage {
  const TypeContext* context = nullptr;
  TypeKind kind = TypeKind::kOther;
  std::vector<int64_t> shape = {};
  std::string element_type = {};
  std::string encoding = {};
  std::vector<Type> elements = {};
  std::vector<Type> results = {};
  std::string text = {};
  // A kOther type's tensor view (registerTensorView), or null.
  Type tensor_view = {};
};

struct TypeContext::Impl {
  std::mutex mu;  // verifier hooks on several threads may create types
  std::deque<TypeStorage> storage;  // stable addresses
  absl::flat_hash_map<std::string, const TypeStorage*> by_text;
};

namespace {

struct TensorViewEntry {
  std::string prefix;
  TensorViewParser parse;
};

// The registered tensor views; read on every kOther type creation.
struct TensorViewRegistry {
  std::mutex mu;
  std::vector<TensorViewEntry> entries;
};

TensorViewRegistry& tensorViews() {
  static TensorViewRegistry* registry = new TensorViewRegistry();
  return *registry;
}

// The tensor view of the type spelled `text`, if a registered parser reads
// it.
bool findTensorView(std::string_view text, TensorViewParts& parts) {
  TensorViewRegistry& registry = tensorViews();
  std::lock_guard<std::mutex> lock(registry.mu);
  for (const TensorViewEntry& entry : registry.entries) {
    if (text.starts_with(entry.prefix) && entry.parse(text, parts)) {
      return true;
    }
  }
  return false;
}

void appendTypeList(std::string& out, absl::Span<const Type> types) {
  for (size_t i = 0; i < types.size(); ++i) {
    if (i) out += ", ";
    out += types[i].str();
  }
}

}  // namespace

TypeContext::TypeContext() : impl_(new Impl()) {}
TypeContext::~TypeContext() { delete impl_; }
size_t TypeContext::size() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->storage.size();
}

Type TypeContext::intern(TypeStorage storage) {
  std::lock_guard<std::mutex> lock(impl_->mu);
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
  std::string text = "tensor<";
  for (int64_t d : dims) {
    if (d == kDynamicSize) {
      text += '?';
    } else {
      strAppend(text, d);
    }
    text += 'x';
  }
  text += element_type;
  if (!encoding.empty()) strAppend(text, ", ", encoding);
  text += '>';
  return intern({.kind = TypeKind::kRankedTensor,
                 .shape = {dims.begin(), dims.end()},
                 .element_type = std::string(element_type),
                 .encoding = std::string(encoding),
                 .text = std::move(text)});
}

Type TypeContext::unrankedTensor(std::string_view element_type) {
  return intern({.kind = TypeKind::kUnrankedTensor,
                 .element_type = std::string(element_type),
                 .text = strCat("tensor<*x", element_type, ">")});
}

Type TypeContext::tuple(absl::Span<const Type> elements) {
  std::string text = "tuple<";
  appendTypeList(text, elements);
  text += '>';
  return intern({.kind = TypeKind::kTuple,
                 .elements = {elements.begin(), elements.end()},
                 .text = std::move(text)});
}

Type TypeContext::function(absl::Span<const Type> inputs,
                           absl::Span<const Type> results) {
  std::string text = "(";
  appendTypeList(text, inputs);
  text += ") -> ";
  if (results.size() == 1 && results[0].kind() != TypeKind::kFunction) {
    text += results[0].str();
  } else {
    text += '(';
    appendTypeList(text, results);
    text += ')';
  }
  return intern({.kind = TypeKind::kFunction,
                 .elements = {inputs.begin(), inputs.end()},
                 .results = {results.begin(), results.end()},
                 .text = std::move(text)});
}

Type TypeContext::other(std::string_view text) {
  TensorViewParts parts;
  if (!text.starts_with('!') || !findTensorView(text, parts)) {
    return intern({.kind = TypeKind::kOther, .text = std::string(text)});
  }
  Type view = rankedTensor(parts.dims, parts.element_type, parts.encoding);
  return intern({.kind = TypeKind::kOther,
                 .shape = std::move(parts.dims),
                 .text = std::string(text),
                 .tensor_view = view});
}

void registerTensorView(std::string_view prefix, TensorViewParser parse) {
  TensorViewRegistry& registry = tensorViews();
  std::lock_guard<std::mutex> lock(registry.mu);
  for (const TensorViewEntry& entry : registry.entries) {
    if (entry.prefix == prefix) return;
  }
  registry.entries.push_back({std::string(prefix), parse});
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
  if (!isRankedTensor() && !(storage_ && storage_->tensor_view)) return false;
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
  if (storage_ && storage_->tensor_view) {
    return storage_->tensor_view.shapeView();
  }
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

Type tensorViewOf(Type type) {
  if (type.isRankedTensor()) return type;
  const auto* storage = static_cast<const TypeStorage*>(type.identity());
  return storage ? storage->tensor_view : Type();
}

}  // namespace shardkit
