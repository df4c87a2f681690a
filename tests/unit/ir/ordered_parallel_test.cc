// orderedParallel: every index produced once, results consumed in order on
// the calling thread, never more than the window in flight.
#include "src/support/ordered_parallel.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <cstddef>
#include <thread>
#include <vector>

namespace shardkit::ir_internal {
namespace {

struct Run {
  std::vector<size_t> consumed;
  std::atomic<int> producers{0};
  std::atomic<size_t> produced{0};
  // How many results `consume` has finished with.
  std::atomic<size_t> done{0};
  // Set by a producer that ran ahead of the window (Catch2's CHECK is not
  // for other threads).
  std::atomic<bool> past_window{false};
  bool consumed_elsewhere = false;
};

// Runs orderedParallel over `count` indices, producing i * i.
void run(Run& r, size_t count, int threads, size_t window) {
  std::thread::id caller = std::this_thread::get_id();
  size_t bound = window == 0 ? 1 : window;
  orderedParallel(
      count, threads, window,
      [&] {
        ++r.producers;
        return [&r, bound](size_t i) {
          if (i >= r.done.load() + bound) r.past_window = true;
          ++r.produced;
          return i * i;
        };
      },
      [&](size_t value) {
        if (std::this_thread::get_id() != caller) r.consumed_elsewhere = true;
        r.consumed.push_back(value);
        ++r.done;
      });
}

std::vector<size_t> squares(size_t count) {
  std::vector<size_t> out;
  for (size_t i = 0; i < count; ++i) out.push_back(i * i);
  return out;
}

TEST_CASE("orderedParallel consumes every result once, in order") {
  for (int threads : {1, 2, 3, 8}) {
    for (size_t window : {1, 2, 5}) {
      Run r;
      run(r, 1000, threads, window);
      CHECK(r.consumed == squares(1000));
      CHECK(r.produced == 1000);
      CHECK_FALSE(r.consumed_elsewhere);
      // Index i waits until result i - window is consumed.
      CHECK_FALSE(r.past_window);
    }
  }
}

TEST_CASE("orderedParallel with fewer indices than threads, or none") {
  Run few;
  run(few, 2, 8, 4);
  CHECK(few.consumed == squares(2));
  // No thread is started that would find nothing to do.
  CHECK(few.producers <= 2);

  Run none;
  run(none, 0, 4, 4);
  CHECK(none.consumed.empty());
  CHECK(none.produced == 0);
}

TEST_CASE("orderedParallel treats a window of 0 as 1") {
  Run r;
  run(r, 50, 3, 0);
  CHECK(r.consumed == squares(50));
  CHECK_FALSE(r.past_window);
}

}  // namespace
}  // namespace shardkit::ir_internal
