#pragma once

#include <tuple>
#include <vector>

#include "chainerx/array.h"

namespace chainerx {

// NumPy's dot: products of 0-d operands, inner product of vectors, matrix product, and for N-d
// a sum over the last axis of a and the second-to-last of b. Differentiable.
Array Dot(const Array& a, const Array& b);

// NumPy's matmul: matrix products broadcast over leading (batch) axes. Differentiable.
Array Matmul(const Array& a, const Array& b);

// chainerx.linalg: numpy.linalg's decompositions and solvers for 2-D float32/float64 matrices
// (other dtypes raise DtypeError, other shapes DimensionError), computed with LAPACK; without
// LAPACK (a build without scipy-openblas32) the native backend raises NotImplementedError.
// Gradients are the exact derivatives of what is computed, first and higher order: routines that
// read one triangle of a symmetric matrix get a gradient confined to that triangle.

// What Qr returns, as NumPy's modes: {q, r} with min(m, n) columns of q and rows of r ("reduced")
// or all m ("complete"), {r} alone ("r"), LAPACK's Householder form {h, tau} ("raw").
enum class QrMode { kReduced, kComplete, kR, kRaw };

// The lower-triangular L with a = L L^T for the symmetric positive definite matrix of a's lower
// triangle; ChainerxError when it is not positive definite.
Array Cholesky(const Array& a);

// The QR factorization. Differentiable when the result is the unique reduced one of a matrix of
// full rank min(m, n): modes kReduced and kR, and kComplete when m <= n; the gradient of kRaw and of
// kComplete with m > n raises NotImplementedError.
std::vector<Array> Qr(const Array& a, QrMode mode = QrMode::kReduced);

// The singular value decomposition: {u, s, vh} with a = u diag(s) vh and s descending (u and vh
// square with full_matrices, else with min(m, n) columns/rows), or {s} without compute_uv.
// Differentiable for distinct non-zero singular values unless full_matrices adds singular vectors
// (m != n): that gradient raises NotImplementedError.
std::vector<Array> Svd(const Array& a, bool full_matrices = true, bool compute_uv = true);

// Eigenvalues (ascending) and eigenvectors (columns) of the symmetric matrix of a's lower
// (uplo 'L') or upper ('U') triangle; other uplo raise std::invalid_argument. Differentiable for
// distinct eigenvalues.
std::tuple<Array, Array> Eigh(const Array& a, char uplo = 'L');
// The eigenvalues of Eigh alone.
Array Eigvalsh(const Array& a, char uplo = 'L');

// x with a x = b for square a and b of shape (n,) or (n, k); ChainerxError when a is singular.
Array Solve(const Array& a, const Array& b);

// The inverse of a square matrix; ChainerxError when it is singular.
Array Inv(const Array& a);

// The Moore-Penrose pseudo-inverse from the SVD, singular values at most rcond * max(s) taken as
// zero. Differentiable where the rank is locally constant (e.g. for full-rank a).
Array Pinv(const Array& a, double rcond = 1e-15);

}  // namespace chainerx
