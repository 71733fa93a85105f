#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>

#include "chainerx/kernels/creation.h"
#include "chainerx/kernels/linalg.h"
#include "chainerx/native/native_backend.h"
#include "chainerx/routines/creation.h"

namespace chainerx {
namespace native {
namespace {

// C (m x n) = A (m x k) * B (k x n), all row-major contiguous. Blocks of B stay in cache while
// four rows of A stream past them; the innermost loop runs along rows of B and C so it
// vectorizes.
template <typename T>
void Gemm(int64_t m, int64_t n, int64_t k, const T* a, const T* b, T* c) {
    constexpr int64_t kBlockN = 512;
    constexpr int64_t kBlockK = 128;
    std::fill(c, c + m * n, T{0});
    for (int64_t j0 = 0; j0 < n; j0 += kBlockN) {
        int64_t nb = std::min(kBlockN, n - j0);
        for (int64_t p0 = 0; p0 < k; p0 += kBlockK) {
            int64_t pe = std::min(k, p0 + kBlockK);
            int64_t i = 0;
            for (; i + 4 <= m; i += 4) {
                T* c0 = c + i * n + j0;
                T* c1 = c0 + n;
                T* c2 = c1 + n;
                T* c3 = c2 + n;
                for (int64_t p = p0; p < pe; ++p) {
                    const T* bp = b + p * n + j0;
                    T a0 = a[i * k + p];
                    T a1 = a[(i + 1) * k + p];
                    T a2 = a[(i + 2) * k + p];
                    T a3 = a[(i + 3) * k + p];
                    for (int64_t j = 0; j < nb; ++j) {
                        T bv = bp[j];
                        c0[j] += a0 * bv;
                        c1[j] += a1 * bv;
                        c2[j] += a2 * bv;
                        c3[j] += a3 * bv;
                    }
                }
            }
            for (; i < m; ++i) {
                T* ci = c + i * n + j0;
                for (int64_t p = p0; p < pe; ++p) {
                    const T* bp = b + p * n + j0;
                    T av = a[i * k + p];
                    for (int64_t j = 0; j < nb; ++j) ci[j] += av * bp[j];
                }
            }
        }
    }
}

Array ContiguousNoGraph(const Array& a) {
    if (a.IsContiguous()) return a;
    Array copy = Empty(a.shape(), a.dtype(), a.device());
    a.device().backend().CallKernel<CopyKernel>(a, copy);
    return copy;
}

class NativeDotKernel : public DotKernel {
public:
    void Call(const Array& a, const Array& b, const Array& out) override {
        Array ac = ContiguousNoGraph(a);
        Array bc = ContiguousNoGraph(b);
        int64_t m = a.shape()[0];
        int64_t k = a.shape()[1];
        int64_t n = b.shape()[1];
        VisitNumericDtype(out.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            if constexpr (std::is_same_v<T, Float16>) {
                throw DtypeError{"the native Dot kernel takes float16 as float32 (the routine converts)"};
            } else {
                Gemm<T>(m, n, k, static_cast<const T*>(ac.raw_data()), static_cast<const T*>(bc.raw_data()),
                        static_cast<T*>(out.raw_data()));
            }
        });
    }
};

}  // namespace

void RegisterLinalgKernels(KernelRegistry& registry) {
    registry.Register<DotKernel>(std::make_unique<NativeDotKernel>());
}

}  // namespace native
}  // namespace chainerx
