#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>

namespace chainerx {
namespace native {

// The one place that decides how many threads the native kernels use: OPENBLAS_NUM_THREADS, else
// OMP_NUM_THREADS, else the hardware's threads. With more than one, the native backend runs its own
// small persistent pool and keeps OpenBLAS single-threaded (OpenBLAS's idle workers busy-wait
// between calls and would take the cores from the pool's), so GEMMs are split by the callers.
int NumThreads();

// NumThreads(), or 1 on a thread already running a part of a parallel call: nested loops stay
// whole on it instead of being cut into parts run in turn.
int AvailableThreads();

// Runs fn(part) for every part in [0, parts), parts <= NumThreads(), concurrently, and returns
// when all are done (rethrowing the first exception). Runs them in turn on the calling thread
// when nested in another parallel call, when another thread holds the pool, or after a fork.
void RunParts(int parts, const std::function<void(int)>& fn);

// Calls f(part, begin, end) on disjoint ranges covering [0, n) in order, part < NumThreads(), at
// most one per thread and none shorter than min_per_part (so small work stays on the calling
// thread). The split depends only on n, min_per_part and AvailableThreads(), not on whether the
// pool is free: results are reproducible.
template <typename F>
void ParallelRanges(int64_t n, int64_t min_per_part, F&& f) {
    int64_t parts = std::min<int64_t>(AvailableThreads(), n / std::max<int64_t>(min_per_part, 1));
    if (parts <= 1) {
        if (n > 0) f(0, int64_t{0}, n);
        return;
    }
    RunParts(static_cast<int>(parts), [&](int part) { f(part, n * part / parts, n * (part + 1) / parts); });
}

}  // namespace native
}  // namespace chainerx
