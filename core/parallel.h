// Splitting work over threads so that the result does not depend on the
// thread count. Work is cut into chunks whose bounds depend only on the
// problem size, never on the thread count, and every reduction is done per
// chunk and then summed in chunk order: results are bit-for-bit the same
// with 1 or 64 threads (the ranker relies on it; ranker-mpi too).
#ifndef FCRAWL_CORE_PARALLEL_H_
#define FCRAWL_CORE_PARALLEL_H_

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

namespace fcrawl::parallel {

// The number of chunks of `chunk` items that cover `n` items.
inline size_t NumChunks(uint64_t n, uint64_t chunk) {
  return static_cast<size_t>((n + chunk - 1) / chunk);
}

// The thread count to use for `requested` (0 = all cores).
inline int EffectiveThreads(int requested) {
  if (requested > 0) return requested;
  const unsigned hc = std::thread::hardware_concurrency();
  return hc == 0 ? 1 : static_cast<int>(hc);
}

// Calls fn(chunk) once for every chunk in [0, chunks), on up to `threads`
// threads (the caller's included). Chunks are handed out dynamically, so fn
// must only write state owned by its chunk.
template <typename Fn>
void ParallelFor(int threads, size_t chunks, const Fn& fn) {
  const size_t workers =
      std::min<size_t>(static_cast<size_t>(std::max(threads, 1)), chunks);
  if (workers <= 1) {
    for (size_t c = 0; c < chunks; ++c) fn(c);
    return;
  }
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t c = next.fetch_add(1, std::memory_order_relaxed); c < chunks;
         c = next.fetch_add(1, std::memory_order_relaxed)) {
      fn(c);
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(workers - 1);
  for (size_t i = 0; i + 1 < workers; ++i) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
}

// Sums per-chunk partial results in chunk order.
inline double SumInOrder(const std::vector<double>& partials) {
  double s = 0;
  for (double v : partials) s += v;
  return s;
}

}  // namespace fcrawl::parallel

#endif  // FCRAWL_CORE_PARALLEL_H_
