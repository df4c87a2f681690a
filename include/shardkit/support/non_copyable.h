// NonCopyable: the base of a class whose objects are neither copied nor
// moved, e.g. a scope that registers itself while it lives or the owner of
// uniqued objects that others point into.
#ifndef SHARDKIT_SUPPORT_NON_COPYABLE_H_
#define SHARDKIT_SUPPORT_NON_COPYABLE_H_

namespace shardkit {

// `class Scope : public NonCopyable { ... };` deletes Scope's copy
// constructor and assignment, and so its moves.
class NonCopyable {
 public:
  NonCopyable(const NonCopyable&) = delete;
  NonCopyable& operator=(const NonCopyable&) = delete;

 protected:
  NonCopyable() = default;
  ~NonCopyable() = default;
};

}  // namespace shardkit

#endif  // SHARDKIT_SUPPORT_NON_COPYABLE_H_
