// Producing a sequence of results on several threads and consuming them in
// order on the calling thread, with a bounded number in flight: the shape of
// printing a module's ops side by side into text that must come out in
// module order without holding the whole text twice.
//
// Internal: the ir layer's printer and verifier use it, and explicit
// reshards (src/passes/export) for its dry runs.
#ifndef SHARDKIT_SRC_SUPPORT_ORDERED_PARALLEL_H_
#define SHARDKIT_SRC_SUPPORT_ORDERED_PARALLEL_H_

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace shardkit::ir_internal {

// Calls `produce(i)` for every i in [0, count), on up to `threads` threads
// (this one included), and `consume(result)` on this thread in the order of
// i. Index i is not produced before `consume` has returned for index
// i - window, which bounds the memory the results hold. `make_producer()` is
// called once on each thread that produces and returns that thread's `produce`
// (so that it can hold per-thread state). If threads cannot be started, this
// thread does all the work. `produce` and `consume` must not throw.
template <typename MakeProducer, typename Consume>
void orderedParallel(size_t count, int threads, size_t window,
                     MakeProducer make_producer, Consume consume) {
  using Producer = decltype(make_producer());
  using Result = decltype(std::declval<Producer&>()(size_t{0}));
  if (window == 0) window = 1;
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::optional<Result>> slots(window);
  size_t next = 0;      // the next index to produce
  size_t consumed = 0;  // how many results went to `consume`
  auto can_take = [&] { return next < count && next < consumed + window; };
  // Produces index `i` outside the lock and stores the result.
  auto produce_one = [&](Producer& produce, std::unique_lock<std::mutex>& lock,
                         size_t i) {
    lock.unlock();
    Result result = produce(i);
    lock.lock();
    slots[i % window].emplace(std::move(result));
    cv.notify_all();
  };

  auto worker = [&] {
    Producer produce = make_producer();
    std::unique_lock<std::mutex> lock(mu);
    while (true) {
      cv.wait(lock, [&] { return next == count || can_take(); });
      if (next == count) return;
      produce_one(produce, lock, next++);
    }
  };
  std::vector<std::thread> workers;
  for (int t = 1; t < threads && static_cast<size_t>(t) < count; ++t) {
    try {
      workers.emplace_back(worker);
    } catch (const std::system_error&) {
      break;  // fewer threads: this one takes what the others leave
    }
  }

  // This thread consumes in order and produces when the next result to
  // consume is not ready yet.
  {
    Producer produce = make_producer();
    std::unique_lock<std::mutex> lock(mu);
    while (consumed < count) {
      std::optional<Result>& slot = slots[consumed % window];
      if (slot) {
        Result result = std::move(*slot);
        slot.reset();
        lock.unlock();
        consume(std::move(result));
        lock.lock();
        ++consumed;
        cv.notify_all();  // the window moved
      } else if (can_take()) {
        produce_one(produce, lock, next++);
      } else {
        cv.wait(lock);
      }
    }
  }
  for (std::thread& w : workers) w.join();
}

}  // namespace shardkit::ir_internal

#endif  // SHARDKIT_SRC_SUPPORT_ORDERED_PARALLEL_H_
