#include "chainerx/native/thread_pool.h"

#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#if CHAINERX_HAVE_OPENBLAS
#include <cblas.h>
#endif

namespace chainerx {
namespace native {
namespace {

// A positive integer from the environment variable, or 0.
int EnvThreads(const char* name) {
    const char* value = std::getenv(name);
    return value == nullptr ? 0 : std::max(std::atoi(value), 0);
}

// An explicit setting is taken as it is (capped), as OpenBLAS takes it.
int ConfiguredThreads() {
    constexpr int kMaxThreads = 64;
    int wanted = EnvThreads("OPENBLAS_NUM_THREADS");
    if (wanted == 0) wanted = EnvThreads("OMP_NUM_THREADS");
    if (wanted == 0) wanted = std::thread::hardware_concurrency();
    return std::clamp(wanted, 1, kMaxThreads);
}

// Whether this thread is running a part of a parallel call.
thread_local bool in_parallel = false;

// Marks this thread as running parts while it lives (also when they run in turn, so that nested
// loops are split the same way either way).
class PartScope {
public:
    PartScope() : saved_{std::exchange(in_parallel, true)} {}
    ~PartScope() { in_parallel = saved_; }
    PartScope(const PartScope&) = delete;
    PartScope& operator=(const PartScope&) = delete;

private:
    bool saved_;
};

// Workers 1..size-1 wait for a generation number to change, run their part and report back; the
// calling thread runs part 0. Workers block (no spinning) between calls.
class ThreadPool {
public:
    explicit ThreadPool(int size) : size_{size}, pid_{getpid()}, errors_(size) {
        for (int i = 1; i < size; ++i) workers_.emplace_back([this, i] { Work(i); });
    }

    int size() const { return size_; }

    void Run(int parts, const std::function<void(int)>& fn) {
        std::unique_lock<std::mutex> caller{caller_mutex_, std::defer_lock};
        if (in_parallel || getpid() != pid_ || !caller.try_lock()) {
            PartScope scope;
            for (int part = 0; part < parts; ++part) fn(part);
            return;
        }
        {
            std::lock_guard<std::mutex> lock{mutex_};
            fn_ = &fn;
            parts_ = parts;
            pending_ = parts - 1;
            ++generation_;
        }
        work_.notify_all();
        RunPart(0);
        {
            std::unique_lock<std::mutex> lock{mutex_};
            done_.wait(lock, [this] { return pending_ == 0; });
            fn_ = nullptr;
        }
        for (std::exception_ptr& error : errors_) {
            if (error != nullptr) std::rethrow_exception(std::exchange(error, nullptr));
        }
    }

private:
    void RunPart(int part) {
        PartScope scope;
        try {
            (*fn_)(part);
        } catch (...) {
            errors_[part] = std::current_exception();
        }
    }

    [[noreturn]] void Work(int index) {
        uint64_t seen = 0;
        while (true) {
            {
                std::unique_lock<std::mutex> lock{mutex_};
                work_.wait(lock, [&] { return generation_ != seen; });
                seen = generation_;
                if (index >= parts_) continue;
            }
            RunPart(index);
            std::lock_guard<std::mutex> lock{mutex_};
            if (--pending_ == 0) done_.notify_one();
        }
    }

    const int size_;
    const pid_t pid_;
    std::vector<std::thread> workers_;
    std::mutex caller_mutex_;  // one parallel call at a time
    std::mutex mutex_;
    std::condition_variable work_;
    std::condition_variable done_;
    const std::function<void(int)>* fn_{nullptr};
    int parts_{0};
    int pending_{0};
    uint64_t generation_{0};
    std::vector<std::exception_ptr> errors_;
};

ThreadPool& Pool() {
    // Never destroyed: the workers block forever, and joining them at exit would hang.
    static ThreadPool* pool = [] {
        int size = ConfiguredThreads();
#if CHAINERX_HAVE_OPENBLAS
        if (size > 1) scipy_openblas_set_num_threads(1);
#endif
        return new ThreadPool{size};
    }();
    return *pool;
}

}  // namespace

int NumThreads() { return Pool().size(); }

int AvailableThreads() { return in_parallel ? 1 : NumThreads(); }

void RunParts(int parts, const std::function<void(int)>& fn) { Pool().Run(parts, fn); }

}  // namespace native
}  // namespace chainerx
