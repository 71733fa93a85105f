#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>

#include "chainerx/kernels/creation.h"
#include "chainerx/kernels/linalg.h"
#include "chainerx/native/native_backend.h"
#include "chainerx/routines/creation.h"

#if CHAINERX_HAVE_OPENBLAS
#include <cblas.h>
#endif

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

#if CHAINERX_HAVE_OPENBLAS

// A 2-D operand as BLAS sees it: row-major with leading dimension ld, possibly transposed.
// Transposed views (as backward makes them) need no copy.
struct BlasOperand {
    Array array;
    bool transposed;
    int64_t ld;
};

BlasOperand ToBlasOperand(const Array& a) {
    int64_t item = a.GetItemSize();
    int64_t rows = a.shape()[0];
    int64_t cols = a.shape()[1];
    int64_t s0 = a.strides()[0];
    int64_t s1 = a.strides()[1];
    if ((cols == 1 || s1 == item) && s0 % item == 0 && s0 / item >= std::max<int64_t>(cols, 1)) {
        return {a, false, s0 / item};
    }
    if ((rows == 1 || s0 == item) && s1 % item == 0 && s1 / item >= std::max<int64_t>(rows, 1)) {
        return {a, true, s1 / item};
    }
    return {ContiguousNoGraph(a), false, std::max<int64_t>(cols, 1)};
}

// c (m x n, contiguous) = the outer product of a and b (with element strides). One pass over c:
// BLAS ger would need c zeroed first, a second pass over the largest array.
template <typename T>
void Outer(int64_t m, int64_t n, const T* a, int64_t a_stride, const T* b, int64_t b_stride, T* c) {
    const T* row = b;
    std::unique_ptr<T[]> packed;
    if (b_stride != 1) {
        packed.reset(new T[n]);
        for (int64_t j = 0; j < n; ++j) packed[j] = b[j * b_stride];
        row = packed.get();
    }
    for (int64_t i = 0; i < m; ++i) {
        T ai = a[i * a_stride];
        T* ci = c + i * n;
        for (int64_t j = 0; j < n; ++j) ci[j] = ai * row[j];
    }
}

// The float and double entry points of the BLAS routines used below.
template <typename T>
struct Blas;
template <>
struct Blas<float> {
    static constexpr auto gemm = scipy_cblas_sgemm;
    static constexpr auto gemv = scipy_cblas_sgemv;
};
template <>
struct Blas<double> {
    static constexpr auto gemm = scipy_cblas_dgemm;
    static constexpr auto gemv = scipy_cblas_dgemv;
};

// out = a @ b. Vector shapes go to gemv or Outer: GEMM would pack a whole operand for one row,
// which dominates small-batch steps.
template <typename T>
void BlasGemm(const Array& a, const Array& b, const Array& out) {
    BlasOperand oa = ToBlasOperand(a);
    BlasOperand ob = ToBlasOperand(b);
    auto m = static_cast<blasint>(a.shape()[0]);
    auto k = static_cast<blasint>(a.shape()[1]);
    auto n = static_cast<blasint>(b.shape()[1]);
    auto lda = static_cast<blasint>(oa.ld);
    auto ldb = static_cast<blasint>(ob.ld);
    const T* pa = static_cast<const T*>(oa.array.raw_data());
    const T* pb = static_cast<const T*>(ob.array.raw_data());
    T* pc = static_cast<T*>(out.raw_data());
    // Element strides of a's row 0, b's column 0, a's column 0 and b's row 0.
    blasint a_row = oa.transposed ? lda : 1;
    blasint b_col = ob.transposed ? 1 : ldb;
    blasint a_col = oa.transposed ? 1 : lda;
    blasint b_row = ob.transposed ? ldb : 1;
    if (m == 1) {  // out row = a row @ b
        if (ob.transposed) {
            Blas<T>::gemv(CblasRowMajor, CblasNoTrans, n, k, T{1}, pb, ldb, pa, a_row, T{0}, pc, 1);
        } else {
            Blas<T>::gemv(CblasRowMajor, CblasTrans, k, n, T{1}, pb, ldb, pa, a_row, T{0}, pc, 1);
        }
    } else if (n == 1) {  // out column = a @ b column
        if (oa.transposed) {
            Blas<T>::gemv(CblasRowMajor, CblasTrans, k, m, T{1}, pa, lda, pb, b_col, T{0}, pc, 1);
        } else {
            Blas<T>::gemv(CblasRowMajor, CblasNoTrans, m, k, T{1}, pa, lda, pb, b_col, T{0}, pc, 1);
        }
    } else if (k == 1) {  // outer product of a column and b row
        Outer(m, n, pa, a_col, pb, b_row, pc);
    } else {
        Blas<T>::gemm(CblasRowMajor, oa.transposed ? CblasTrans : CblasNoTrans, ob.transposed ? CblasTrans : CblasNoTrans,
                      m, n, k, T{1}, pa, lda, pb, ldb, T{0}, pc, n);
    }
}

#endif  // CHAINERX_HAVE_OPENBLAS

class NativeDotKernel : public DotKernel {
public:
    void Call(const Array& a, const Array& b, const Array& out) override {
        int64_t m = a.shape()[0];
        int64_t k = a.shape()[1];
        int64_t n = b.shape()[1];
#if CHAINERX_HAVE_OPENBLAS
        constexpr int64_t kBlasMax = std::numeric_limits<blasint>::max();
        if (m > 0 && n > 0 && k > 0 && m < kBlasMax && n < kBlasMax && k < kBlasMax) {
            if (out.dtype() == Dtype::kFloat32) return BlasGemm<float>(a, b, out);
            if (out.dtype() == Dtype::kFloat64) return BlasGemm<double>(a, b, out);
        }
#endif
        Array ac = ContiguousNoGraph(a);
        Array bc = ContiguousNoGraph(b);
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
