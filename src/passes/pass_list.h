// Internal to the passes layer: the registration of shardkit's own passes
// (pass_list.cc), which the pass registry (pass.cc) runs once, before its
// first lookup.
#ifndef SHARDKIT_SRC_PASSES_PASS_LIST_H_
#define SHARDKIT_SRC_PASSES_PASS_LIST_H_

namespace shardkit::passes_internal {

void registerBuiltinPasses();

}  // namespace shardkit::passes_internal

#endif  // SHARDKIT_SRC_PASSES_PASS_LIST_H_
