#pragma once

#include <vector>

#include "chainerx/array.h"
#include "chainerx/kernel_registry.h"
#include "chainerx/routines/linalg.h"

namespace chainerx {

// out = a @ b for 2-D a (m, k), b (k, n) and a contiguous out (m, n), all of one numeric dtype.
class DotKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kDot;
    static constexpr const char* kName = "Dot";
    virtual void Call(const Array& a, const Array& b, const Array& out) = 0;
};

// The decompositions below take 2-D float32 or float64 matrices of any layout (the routines check
// shapes and dtypes) and return new arrays in whatever layout suits the backend; they leave a
// unchanged and record no graph.

// The lower-triangular L with a = L L^T, reading only a's lower triangle; ChainerxError when that
// matrix is not positive definite.
class CholeskyKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kCholesky;
    static constexpr const char* kName = "Cholesky";
    virtual Array Call(const Array& a) = 0;
};

// NumPy's qr: {q, r} for kReduced and kComplete, {r} for kR, {h, tau} for kRaw (h as NumPy gives
// it, the (n, m) transpose of LAPACK's column-major result).
class QrKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kQr;
    static constexpr const char* kName = "Qr";
    virtual std::vector<Array> Call(const Array& a, QrMode mode) = 0;
};

// NumPy's svd: {u, s, vh} with a = u diag(s) vh and s descending, or {s} without compute_uv.
class SvdKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kSvd;
    static constexpr const char* kName = "Svd";
    virtual std::vector<Array> Call(const Array& a, bool full_matrices, bool compute_uv) = 0;
};

// Eigenvalues (ascending) and, with compute_v, eigenvectors (columns) of the symmetric matrix
// given by a's lower (uplo 'L') or upper ('U') triangle: {w, v} or {w}.
class EighKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kEigh;
    static constexpr const char* kName = "Eigh";
    virtual std::vector<Array> Call(const Array& a, char uplo, bool compute_v) = 0;
};

// x with a x = b for a square a (n, n) and b (n, k) of a's dtype; ChainerxError when a is singular.
class SolveKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kSolve;
    static constexpr const char* kName = "Solve";
    virtual Array Call(const Array& a, const Array& b) = 0;
};

// The inverse of a square a; ChainerxError when a is singular.
class InvKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kInv;
    static constexpr const char* kName = "Inv";
    virtual Array Call(const Array& a) = 0;
};

}  // namespace chainerx
