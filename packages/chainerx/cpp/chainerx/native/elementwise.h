#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "chainerx/array.h"
#include "chainerx/native/thread_pool.h"
#include "chainerx/shape.h"

namespace chainerx {
namespace native {

// N arrays of one shape walked as runs along the innermost axis: size-1 axes are dropped and
// axes that are contiguous in every array merged, so contiguous arrays are one run.
template <int N>
struct RunLayout {
    RunLayout(const Shape& shape, const std::array<const Array*, N>& arrays) : total{shape.GetTotalSize()} {
        for (int d = 0; d < shape.ndim(); ++d) {
            if (shape[d] == 1) continue;
            bool mergeable = ndim > 0;
            for (int k = 0; k < N && mergeable; ++k) {
                mergeable = strides[k][ndim - 1] == arrays[k]->strides()[d] * shape[d];
            }
            if (mergeable) {
                dims[ndim - 1] *= shape[d];
                for (int k = 0; k < N; ++k) strides[k][ndim - 1] = arrays[k]->strides()[d];
            } else {
                dims[ndim] = shape[d];
                for (int k = 0; k < N; ++k) strides[k][ndim] = arrays[k]->strides()[d];
                ++ndim;
            }
        }
        for (int k = 0; k < N; ++k) {
            base[k] = static_cast<char*>(arrays[k]->raw_data());
            inner_strides[k] = ndim == 0 ? 0 : strides[k][ndim - 1];
        }
    }

    // Calls run(n, ptrs, strides) for the runs covering elements [first, last) in C order, the
    // first and last runs possibly partial.
    template <typename Run>
    void ForEachRunIn(int64_t first, int64_t last, Run&& run) const {
        const int64_t n = ndim == 0 ? 1 : dims[ndim - 1];
        int64_t counter[kMaxNdim] = {};
        char* ptrs[N];
        std::copy_n(base, N, ptrs);
        int64_t outer = first / n;
        for (int d = ndim - 2; d >= 0; --d) {
            counter[d] = outer % dims[d];
            outer /= dims[d];
            for (int k = 0; k < N; ++k) ptrs[k] += counter[d] * strides[k][d];
        }
        for (int64_t i = first % n; first < last; i = 0) {
            int64_t length = std::min(n - i, last - first);
            char* run_ptrs[N];
            for (int k = 0; k < N; ++k) run_ptrs[k] = ptrs[k] + i * inner_strides[k];
            run(length, static_cast<char* const*>(run_ptrs), static_cast<const int64_t*>(inner_strides));
            first += length;
            for (int d = ndim - 2; d >= 0; --d) {
                for (int k = 0; k < N; ++k) ptrs[k] += strides[k][d];
                if (++counter[d] < dims[d]) break;
                for (int k = 0; k < N; ++k) ptrs[k] -= strides[k][d] * dims[d];
                counter[d] = 0;
            }
        }
    }

    int64_t total;
    int ndim{0};
    int64_t dims[kMaxNdim];
    int64_t strides[N][kMaxNdim];
    char* base[N];
    int64_t inner_strides[N];
};

// Calls run(n, ptrs, strides) for each run of n elements along the innermost axis of N arrays of
// one shape; ptrs[k] is the first byte of array k in the run and strides[k] its byte stride.
template <int N, typename Run>
void ForEachRun(const Shape& shape, const std::array<const Array*, N>& arrays, Run&& run) {
    RunLayout<N> layout{shape, arrays};
    layout.ForEachRunIn(0, layout.total, run);
}

// As ForEachRun, for a `run` without state (it may run concurrently on disjoint elements): large
// loops are split among the native threads, possibly in the middle of a run.
template <int N, typename Run>
void ParallelForEachRun(const Shape& shape, const std::array<const Array*, N>& arrays, Run&& run) {
    constexpr int64_t kMinElementsPerPart = int64_t{1} << 16;
    RunLayout<N> layout{shape, arrays};
    ParallelRanges(layout.total, kMinElementsPerPart,
                   [&](int, int64_t first, int64_t last) { layout.ForEachRunIn(first, last, run); });
}

template <typename T>
inline T& At(char* base, int64_t i, int64_t stride) {
    return *reinterpret_cast<T*>(base + i * stride);
}

// out = f(x) element-wise; f may run on several threads at once.
template <typename Out, typename In, typename F>
void UnaryLoop(const Array& x, const Array& out, F f) {
    ParallelForEachRun<2>(out.shape(), {&out, &x}, [&f](int64_t n, char* const* p, const int64_t* s) {
        if (s[0] == sizeof(Out) && s[1] == sizeof(In)) {
            Out* o = reinterpret_cast<Out*>(p[0]);
            const In* a = reinterpret_cast<const In*>(p[1]);
            for (int64_t i = 0; i < n; ++i) o[i] = f(a[i]);
        } else {
            for (int64_t i = 0; i < n; ++i) At<Out>(p[0], i, s[0]) = f(At<In>(p[1], i, s[1]));
        }
    });
}

// out = f(a, b) element-wise; a, b and out have one shape (broadcast views allowed); f may run on
// several threads at once.
template <typename Out, typename In, typename F>
void BinaryLoop(const Array& a, const Array& b, const Array& out, F f) {
    ParallelForEachRun<3>(out.shape(), {&out, &a, &b}, [&f](int64_t n, char* const* p, const int64_t* s) {
        Out* o = reinterpret_cast<Out*>(p[0]);
        const In* x = reinterpret_cast<const In*>(p[1]);
        const In* y = reinterpret_cast<const In*>(p[2]);
        if (s[0] == sizeof(Out) && s[1] == sizeof(In) && s[2] == sizeof(In)) {
            for (int64_t i = 0; i < n; ++i) o[i] = f(x[i], y[i]);
        } else if (s[0] == sizeof(Out) && s[1] == sizeof(In) && s[2] == 0) {
            const In yv = *y;  // a broadcast scalar: the common `array op number` case
            for (int64_t i = 0; i < n; ++i) o[i] = f(x[i], yv);
        } else if (s[0] == sizeof(Out) && s[1] == 0 && s[2] == sizeof(In)) {
            const In xv = *x;  // `number op array`
            for (int64_t i = 0; i < n; ++i) o[i] = f(xv, y[i]);
        } else {
            for (int64_t i = 0; i < n; ++i) At<Out>(p[0], i, s[0]) = f(At<In>(p[1], i, s[1]), At<In>(p[2], i, s[2]));
        }
    });
}

}  // namespace native
}  // namespace chainerx
