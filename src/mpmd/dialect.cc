// Registration of the whole mpmd dialect.
#include "shardkit/mpmd/dialect.h"

#include <mutex>

#include "shardkit/dialect/mpmd/mpmd_syntax.h"
#include "src/mpmd/registration.h"

namespace shardkit {

void registerMpmdDialect() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerMpmdSyntax();
    mpmd::mpmd_internal::registerCanonicalizationPatterns();
    mpmd::mpmd_internal::registerPasses();
    mpmd::mpmd_internal::registerTransferRule();
  });
}

}  // namespace shardkit
