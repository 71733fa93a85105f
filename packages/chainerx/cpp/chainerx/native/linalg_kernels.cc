#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "chainerx/kernels/creation.h"
#include "chainerx/kernels/linalg.h"
#include "chainerx/native/native_backend.h"
#include "chainerx/native/thread_pool.h"
#include "chainerx/routines/creation.h"
#include "chainerx/routines/linalg.h"

#if CHAINERX_HAVE_OPENBLAS
#include <cblas.h>
#include <lapacke.h>
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
        // OpenBLAS runs single-threaded (thread_pool.h): the threads take slabs of out's rows, or
        // of its columns when it is wider than tall.
        constexpr int64_t kMinProductPerPart = int64_t{1} << 18;
        auto ta = oa.transposed ? CblasTrans : CblasNoTrans;
        auto tb = ob.transposed ? CblasTrans : CblasNoTrans;
        if (m >= n) {
            ParallelRanges(m, kMinProductPerPart / (int64_t{n} * k) + 1, [&](int, int64_t begin, int64_t end) {
                auto rows = static_cast<blasint>(end - begin);
                Blas<T>::gemm(CblasRowMajor, ta, tb, rows, n, k, T{1}, pa + begin * a_col, lda, pb, ldb, T{0},
                              pc + begin * n, n);
            });
        } else {
            ParallelRanges(n, kMinProductPerPart / (int64_t{m} * k) + 1, [&](int, int64_t begin, int64_t end) {
                auto cols = static_cast<blasint>(end - begin);
                Blas<T>::gemm(CblasRowMajor, ta, tb, m, cols, k, T{1}, pa, lda, pb + begin * b_row, ldb, T{0},
                              pc + begin, n);
            });
        }
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

// ---- LAPACK decompositions and solvers ----

#if CHAINERX_HAVE_OPENBLAS

// The float and double entry points of the LAPACK routines used below (all called column-major).
template <typename T>
struct Lapack;
template <>
struct Lapack<float> {
    static constexpr auto potrf = scipy_LAPACKE_spotrf;
    static constexpr auto geqrf = scipy_LAPACKE_sgeqrf;
    static constexpr auto orgqr = scipy_LAPACKE_sorgqr;
    static constexpr auto gesdd = scipy_LAPACKE_sgesdd;
    static constexpr auto syevd = scipy_LAPACKE_ssyevd;
    static constexpr auto getrf = scipy_LAPACKE_sgetrf;
    static constexpr auto getrs = scipy_LAPACKE_sgetrs;
    static constexpr auto getri = scipy_LAPACKE_sgetri;
};
template <>
struct Lapack<double> {
    static constexpr auto potrf = scipy_LAPACKE_dpotrf;
    static constexpr auto geqrf = scipy_LAPACKE_dgeqrf;
    static constexpr auto orgqr = scipy_LAPACKE_dorgqr;
    static constexpr auto gesdd = scipy_LAPACKE_dgesdd;
    static constexpr auto syevd = scipy_LAPACKE_dsyevd;
    static constexpr auto getrf = scipy_LAPACKE_dgetrf;
    static constexpr auto getrs = scipy_LAPACKE_dgetrs;
    static constexpr auto getri = scipy_LAPACKE_dgetri;
};

template <typename F>
decltype(auto) VisitLapackDtype(Dtype dtype, F&& f) {
    if (dtype == Dtype::kFloat32) return f(TypeTag<float>{});
    if (dtype == Dtype::kFloat64) return f(TypeTag<double>{});
    throw DtypeError{"LAPACK kernels take float32 or float64, got ", dtype};
}

lapack_int LapackInt(int64_t n) {
    if (n > std::numeric_limits<lapack_int>::max()) {
        throw DimensionError{"dimension ", n, " exceeds the 32-bit index range of LAPACK"};
    }
    return static_cast<lapack_int>(n);
}

// The shapes passed are always valid, so a negative info is LAPACKE's check for NaN in the input.
void CheckLapackInfo(lapack_int info, const char* routine) {
    if (info < 0) throw ChainerxError{routine, ": the input contains NaN"};
}

template <typename T>
T* Data(const Array& a) {
    return static_cast<T*>(a.raw_data());
}

// An uninitialized rows x cols matrix stored column-major, as LAPACK wants it: a transposed view
// of a C-contiguous array. Results are returned in this layout, with no copy back.
Array EmptyColumnMajor(int64_t rows, int64_t cols, Dtype dtype, Device& device) {
    return Empty(Shape{cols, rows}, dtype, device).Transpose();
}

// A column-major copy of a for LAPACK to overwrite, `cols` >= a's columns wide (the columns
// past a's are zeros: LAPACKE's NaN check reads them). Its leading dimension is a's number of rows.
Array ColumnMajorCopy(const Array& a, int64_t cols) {
    Array buffer = EmptyColumnMajor(a.shape()[0], cols, a.dtype(), a.device());
    Array head = internal::MakeViewOf(buffer, a.shape(), buffer.strides(), buffer.offset());
    a.device().backend().CallKernel<CopyKernel>(a, head);
    int64_t filled = a.GetNBytes();
    std::memset(static_cast<char*>(buffer.raw_data()) + filled, 0, buffer.GetNBytes() - filled);
    return buffer;
}

class NativeCholeskyKernel : public CholeskyKernel {
public:
    Array Call(const Array& a) override {
        int64_t n = a.shape()[0];
        Array l = ColumnMajorCopy(a, n);
        if (n == 0) return l;
        VisitLapackDtype(a.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            T* p = Data<T>(l);
            lapack_int info = Lapack<T>::potrf(LAPACK_COL_MAJOR, 'L', LapackInt(n), p, LapackInt(n));
            CheckLapackInfo(info, "cholesky");
            if (info > 0) {
                throw ChainerxError{"cholesky: the matrix is not positive definite (its leading minor of order ", info,
                                    " is not positive)"};
            }
            // potrf leaves the strict upper triangle as it was: clear it, column by column.
            for (int64_t j = 1; j < n; ++j) std::fill(p + j * n, p + j * n + j, T{0});
        });
        return l;
    }
};

// The C-contiguous (rows, n) upper trapezoid of the column-major matrix h with leading dimension ld.
template <typename T>
Array UpperTrapezoid(const Array& h, int64_t ld, int64_t rows, int64_t n) {
    Array r = Empty(Shape{rows, n}, h.dtype(), h.device());
    const T* ph = Data<T>(h);
    T* pr = Data<T>(r);
    for (int64_t i = 0; i < rows; ++i) {
        for (int64_t j = 0; j < n; ++j) pr[i * n + j] = j >= i ? ph[i + j * ld] : T{0};
    }
    return r;
}

class NativeQrKernel : public QrKernel {
public:
    std::vector<Array> Call(const Array& a, QrMode mode) override {
        int64_t m = a.shape()[0];
        int64_t n = a.shape()[1];
        int64_t k = std::min(m, n);
        int64_t q_cols = mode == QrMode::kComplete ? m : k;
        // geqrf leaves the Householder vectors in the first n columns; orgqr then forms q in place
        // over the first q_cols (more than n for a complete q of a tall matrix).
        Array h = ColumnMajorCopy(a, std::max(n, q_cols));
        Array tau = Empty(Shape{k}, a.dtype(), a.device());
        auto columns = [&h, m](int64_t cols) {
            return internal::MakeViewOf(h, Shape{m, cols}, h.strides(), h.offset());
        };
        lapack_int lm = LapackInt(m);
        lapack_int ld = std::max<lapack_int>(lm, 1);
        return VisitLapackDtype(a.dtype(), [&](auto tag) -> std::vector<Array> {
            using T = typename decltype(tag)::type;
            T* ph = Data<T>(h);
            T* ptau = Data<T>(tau);
            if (k > 0) CheckLapackInfo(Lapack<T>::geqrf(LAPACK_COL_MAJOR, lm, LapackInt(n), ph, ld, ptau), "qr");
            if (mode == QrMode::kRaw) return {columns(n).Transpose(), tau};
            Array r = UpperTrapezoid<T>(h, ld, mode == QrMode::kComplete ? m : k, n);
            if (mode == QrMode::kR) return {r};
            if (q_cols > 0) {
                lapack_int info = Lapack<T>::orgqr(LAPACK_COL_MAJOR, lm, LapackInt(q_cols), LapackInt(k), ph, ld, ptau);
                CheckLapackInfo(info, "qr");
            }
            return {columns(q_cols), r};
        });
    }
};

class NativeSvdKernel : public SvdKernel {
public:
    std::vector<Array> Call(const Array& a, bool full_matrices, bool compute_uv) override {
        int64_t m = a.shape()[0];
        int64_t n = a.shape()[1];
        int64_t k = std::min(m, n);
        int64_t u_cols = full_matrices ? m : k;
        int64_t vh_rows = full_matrices ? n : k;
        Dtype dtype = a.dtype();
        Device& device = a.device();
        Array s = Empty(Shape{k}, dtype, device);
        if (k == 0) {
            // LAPACK returns at once; NumPy gives identities for the square factors.
            if (!compute_uv) return {s};
            return {Eye(m, u_cols, 0, dtype, device), s, Eye(vh_rows, n, 0, dtype, device)};
        }
        Array work = ColumnMajorCopy(a, n);
        Array u = compute_uv ? EmptyColumnMajor(m, u_cols, dtype, device) : Array{};
        Array vh = compute_uv ? EmptyColumnMajor(vh_rows, n, dtype, device) : Array{};
        char jobz = !compute_uv ? 'N' : full_matrices ? 'A' : 'S';
        lapack_int lm = LapackInt(m);
        VisitLapackDtype(dtype, [&](auto tag) {
            using T = typename decltype(tag)::type;
            T* pu = compute_uv ? Data<T>(u) : nullptr;
            T* pvh = compute_uv ? Data<T>(vh) : nullptr;
            lapack_int info = Lapack<T>::gesdd(LAPACK_COL_MAJOR, jobz, lm, LapackInt(n), Data<T>(work), lm, Data<T>(s),
                                               pu, lm, pvh, LapackInt(vh_rows));
            CheckLapackInfo(info, "svd");
            if (info > 0) throw ChainerxError{"svd: the singular value decomposition did not converge"};
        });
        if (!compute_uv) return {s};
        return {u, s, vh};
    }
};

class NativeEighKernel : public EighKernel {
public:
    std::vector<Array> Call(const Array& a, char uplo, bool compute_v) override {
        int64_t n = a.shape()[0];
        Array v = ColumnMajorCopy(a, n);
        Array w = Empty(Shape{n}, a.dtype(), a.device());
        if (n > 0) {
            lapack_int ln = LapackInt(n);
            VisitLapackDtype(a.dtype(), [&](auto tag) {
                using T = typename decltype(tag)::type;
                lapack_int info =
                        Lapack<T>::syevd(LAPACK_COL_MAJOR, compute_v ? 'V' : 'N', uplo, ln, Data<T>(v), ln, Data<T>(w));
                CheckLapackInfo(info, "eigh");
                if (info > 0) throw ChainerxError{"eigh: the eigenvalue decomposition did not converge"};
            });
        }
        if (!compute_v) return {w};
        return {w, v};
    }
};

// LU-factorizes the column-major n x n matrix at p in place (for routine, named in errors).
template <typename T>
std::vector<lapack_int> LuFactor(T* p, int64_t n, const char* routine) {
    std::vector<lapack_int> pivots(n);
    lapack_int info = Lapack<T>::getrf(LAPACK_COL_MAJOR, LapackInt(n), LapackInt(n), p, LapackInt(n), pivots.data());
    CheckLapackInfo(info, routine);
    if (info > 0) {
        throw ChainerxError{routine,  ": the matrix is singular (U[",      info - 1, ", ",
                            info - 1, "] of its LU factorization is zero)"};
    }
    return pivots;
}

class NativeSolveKernel : public SolveKernel {
public:
    Array Call(const Array& a, const Array& b) override {
        int64_t n = a.shape()[0];
        int64_t k = b.shape()[1];
        Array lu = ColumnMajorCopy(a, n);
        Array x = ColumnMajorCopy(b, k);
        if (n == 0) return x;
        VisitLapackDtype(a.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            std::vector<lapack_int> pivots = LuFactor(Data<T>(lu), n, "solve");
            if (k == 0) return;
            lapack_int ln = LapackInt(n);
            lapack_int info = Lapack<T>::getrs(LAPACK_COL_MAJOR, 'N', ln, LapackInt(k), Data<T>(lu), ln, pivots.data(),
                                               Data<T>(x), ln);
            CheckLapackInfo(info, "solve");
        });
        return x;
    }
};

class NativeInvKernel : public InvKernel {
public:
    Array Call(const Array& a) override {
        int64_t n = a.shape()[0];
        Array inv = ColumnMajorCopy(a, n);
        if (n == 0) return inv;
        VisitLapackDtype(a.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            std::vector<lapack_int> pivots = LuFactor(Data<T>(inv), n, "inv");
            lapack_int ln = LapackInt(n);
            CheckLapackInfo(Lapack<T>::getri(LAPACK_COL_MAJOR, ln, Data<T>(inv), ln, pivots.data()), "inv");
        });
        return inv;
    }
};

#else  // CHAINERX_HAVE_OPENBLAS

// Without LAPACK the decomposition kernels exist only to say what they need.
template <typename K>
[[noreturn]] void ThrowNoLapack() {
    throw NotImplementedError{"chainerx.linalg needs LAPACK, which this build of ChainerX lacks (the ", K::kName,
                              " kernel): install scipy-openblas32 and rebuild"};
}

class NativeCholeskyKernel : public CholeskyKernel {
public:
    Array Call(const Array&) override { ThrowNoLapack<CholeskyKernel>(); }
};

class NativeQrKernel : public QrKernel {
public:
    std::vector<Array> Call(const Array&, QrMode) override { ThrowNoLapack<QrKernel>(); }
};

class NativeSvdKernel : public SvdKernel {
public:
    std::vector<Array> Call(const Array&, bool, bool) override { ThrowNoLapack<SvdKernel>(); }
};

class NativeEighKernel : public EighKernel {
public:
    std::vector<Array> Call(const Array&, char, bool) override { ThrowNoLapack<EighKernel>(); }
};

class NativeSolveKernel : public SolveKernel {
public:
    Array Call(const Array&, const Array&) override { ThrowNoLapack<SolveKernel>(); }
};

class NativeInvKernel : public InvKernel {
public:
    Array Call(const Array&) override { ThrowNoLapack<InvKernel>(); }
};

#endif  // CHAINERX_HAVE_OPENBLAS

}  // namespace

void RegisterLinalgKernels(KernelRegistry& registry) {
    registry.Register<DotKernel>(std::make_unique<NativeDotKernel>());
    registry.Register<CholeskyKernel>(std::make_unique<NativeCholeskyKernel>());
    registry.Register<QrKernel>(std::make_unique<NativeQrKernel>());
    registry.Register<SvdKernel>(std::make_unique<NativeSvdKernel>());
    registry.Register<EighKernel>(std::make_unique<NativeEighKernel>());
    registry.Register<SolveKernel>(std::make_unique<NativeSolveKernel>());
    registry.Register<InvKernel>(std::make_unique<NativeInvKernel>());
}

}  // namespace native
}  // namespace chainerx
