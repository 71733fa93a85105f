#include "chainerx/routines/linalg.h"

#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "chainerx/backend.h"
#include "chainerx/backward_builder.h"
#include "chainerx/error.h"
#include "chainerx/kernels/linalg.h"
#include "chainerx/routines/creation.h"
#include "chainerx/routines/indexing.h"
#include "chainerx/routines/logic.h"
#include "chainerx/routines/manipulation.h"
#include "chainerx/routines/math.h"
#include "chainerx/routines/reduction.h"
#include "chainerx/routines/util.h"

namespace chainerx {
namespace {

// (m, k) x (k, n) of one dtype.
Array Dot2D(const Array& a, const Array& b) {
    if (a.dtype() == Dtype::kFloat16)
        return AsType(Dot2D(AsType(a, Dtype::kFloat32), AsType(b, Dtype::kFloat32)), Dtype::kFloat16);
    if (a.dtype() == Dtype::kBool) {
        return NotEqual(Dot2D(AsType(a, Dtype::kInt64), AsType(b, Dtype::kInt64)), Scalar{0});
    }
    Array out = Empty(Shape{a.shape()[0], b.shape()[1]}, a.dtype(), a.device());
    a.device().backend().CallKernel<DotKernel>(a, b, out);
    BackwardBuilder bb{"dot", {a, b}, {out}};
    if (bb) {
        bb.Define([a, b](BackwardContext& ctx) {
            const Array& gy = ctx.output_grad();
            if (ctx.is_input_grad_required(0)) ctx.input_grad(0) = Dot2D(gy, Transpose(b));
            if (ctx.is_input_grad_required(1)) ctx.input_grad(1) = Dot2D(Transpose(a), gy);
        });
    }
    return out;
}

void CheckAligned(const Array& a, const Array& b, int a_axis, int b_axis) {
    if (a.shape()[a_axis] != b.shape()[b_axis]) {
        throw DimensionError{"shapes ",         a.shape(), " and ", b.shape(), " not aligned: ",
                             a.shape()[a_axis], " (dim ",  a_axis,  ") != ",   b.shape()[b_axis],
                             " (dim ",          b_axis,    ")"};
    }
}

}  // namespace

Array Dot(const Array& a_in, const Array& b_in) {
    CheckEqualDevices(a_in.device(), b_in.device());
    Dtype dtype = PromoteTypes(a_in.dtype(), b_in.dtype());
    Array a = internal::CastIfNeeded(a_in, dtype);
    Array b = internal::CastIfNeeded(b_in, dtype);
    if (a.ndim() == 0 || b.ndim() == 0) return Multiply(a, b);
    int b_axis = b.ndim() == 1 ? 0 : b.ndim() - 2;
    CheckAligned(a, b, a.ndim() - 1, b_axis);
    int64_t k = a.shape()[a.ndim() - 1];
    Shape out_shape;
    for (int d = 0; d < a.ndim() - 1; ++d) out_shape.push_back(a.shape()[d]);
    for (int d = 0; d < b.ndim(); ++d) {
        if (d != b_axis) out_shape.push_back(b.shape()[d]);
    }
    // Contracting over an empty axis gives zeros.
    if (k == 0) return Zeros(out_shape, dtype, a.device());
    // Matrices need none of the reshapes below (each would be one more graph node).
    if (a.ndim() == 2 && b.ndim() == 2) return Dot2D(a, b);
    Array a2 = Reshape(a, Shape{-1, k});
    Array b2 = b.ndim() == 1 ? Reshape(b, Shape{k, 1}) : Reshape(Moveaxis(b, {b_axis}, {0}), Shape{k, -1});
    return Reshape(Dot2D(a2, b2), out_shape);
}

Array Matmul(const Array& a, const Array& b) {
    if (a.ndim() == 0 || b.ndim() == 0) throw DimensionError{"matmul: input operands must not be 0-dimensional"};
    if (a.ndim() <= 2 && b.ndim() <= 2) return Dot(a, b);
    // Promote 1-D operands to matrices, broadcast the batch axes, then multiply batch by batch.
    Array a3 = a.ndim() == 1 ? ExpandDims(a, 0) : a;
    Array b3 = b.ndim() == 1 ? ExpandDims(b, 1) : b;
    CheckAligned(a3, b3, a3.ndim() - 1, b3.ndim() - 2);
    Shape a_batch(a3.shape().begin(), a3.shape().end() - 2);
    Shape b_batch(b3.shape().begin(), b3.shape().end() - 2);
    Shape batch = BroadcastShapes(a_batch, b_batch);
    int64_t m = a3.shape()[a3.ndim() - 2];
    int64_t k = a3.shape()[a3.ndim() - 1];
    int64_t n = b3.shape()[b3.ndim() - 1];
    Shape a_full = batch;
    a_full.push_back(m);
    a_full.push_back(k);
    Shape b_full = batch;
    b_full.push_back(k);
    b_full.push_back(n);
    int64_t count = batch.GetTotalSize();
    Array af = Reshape(BroadcastTo(a3, a_full), Shape{count, m, k});
    Array bf = Reshape(BroadcastTo(b3, b_full), Shape{count, k, n});
    std::vector<Array> products;
    for (int64_t i = 0; i < count; ++i) products.push_back(Dot(At(af, {i}), At(bf, {i})));
    Shape out_shape = batch;
    if (a.ndim() > 1) out_shape.push_back(m);
    if (b.ndim() > 1) out_shape.push_back(n);
    if (count == 0) return Zeros(out_shape, PromoteTypes(a.dtype(), b.dtype()), a.device());
    return Reshape(Stack(products, 0), out_shape);
}

namespace {

void CheckLapackDtype(const Array& a, const char* routine) {
    if (a.dtype() != Dtype::kFloat32 && a.dtype() != Dtype::kFloat64) {
        throw DtypeError{routine, ": float32 or float64 is required, but got ", a.dtype()};
    }
}

// Throws unless a is a 2-D (and, when asked, square) float32/float64 matrix.
void CheckMatrix(const Array& a, const char* routine, bool square) {
    if (a.ndim() != 2) throw DimensionError{routine, ": a 2-D array is required, but got shape ", a.shape()};
    if (square && a.shape()[0] != a.shape()[1]) {
        throw DimensionError{routine, ": a square matrix is required, but got shape ", a.shape()};
    }
    CheckLapackDtype(a, routine);
}

void CheckUplo(char uplo) {
    if (uplo != 'L' && uplo != 'U') throw std::invalid_argument{"UPLO argument must be 'L' or 'U'"};
}

// Whether a routine called with a records a graph (asked of a builder that is never defined).
bool RecordsGraph(const Array& a) { return static_cast<bool>(BackwardBuilder{"", {a}, {}}); }

// For outputs whose gradient is not implemented: the call is recorded, and backward through it
// raises NotImplementedError with message.
void DefineNotDifferentiable(BackwardBuilder& bb, std::string message) {
    bb.Define([message = std::move(message)](BackwardContext&) { throw NotImplementedError{message}; });
}

// x m^-1.
Array SolveRight(const Array& x, const Array& m) { return Transpose(Solve(Transpose(m), Transpose(x))); }

// f[i, j] = 1 / (d[j] - d[i]) off the diagonal, 0 on it. The diagonal gaps are shifted to 1
// before dividing, so no infinity enters the result or its gradient.
Array ReciprocalGaps(const Array& d) {
    int64_t n = d.shape()[0];
    Array eye = Identity(n, d.dtype(), d.device());
    return (1 - eye) / (Reshape(d, Shape{1, n}) - Reshape(d, Shape{n, 1}) + eye);
}

// Routines that read only one triangle of a compute a function of the symmetric matrix s built
// from it. Given g, the gradient with respect to s, each entry of the triangle gets the sum over
// the entries of s it sets.
Array FoldOntoTriangle(const Array& g, bool lower) {
    Array both = g + Transpose(g);
    return (lower ? Tril(both) : Triu(both)) - Diagflat(Diag(g));
}

// The gradient of the reduced a = q r for m >= n, where r is square (and invertible for a of
// full rank): (gq + q copyltu(M)) r^-T with M = r gr^T - gq^T q and copyltu(M) the symmetric
// matrix of M's lower triangle.
Array QrGradTall(const Array& q, const Array& r, const Array& gq, const Array& gr) {
    Array m = Dot(r, Transpose(gr)) - Dot(Transpose(gq), q);
    return SolveRight(gq + Dot(q, Tril(m) + Transpose(Tril(m, -1))), Transpose(r));
}

// For m < n, a = [x | y] with a square x: q r_x = x is a tall factorization and r_y = q^T y.
Array QrGrad(const Array& a, const Array& q, const Array& r, const Array& gq, const Array& gr) {
    int64_t m = a.shape()[0];
    int64_t n = a.shape()[1];
    if (m >= n) return QrGradTall(q, r, gq, gr);
    Array y = internal::AxisSlice(a, 1, m, n);
    Array gr_y = internal::AxisSlice(gr, 1, m, n);
    Array gx = QrGradTall(q, internal::AxisSlice(r, 1, 0, m), gq + Dot(y, Transpose(gr_y)),
                          internal::AxisSlice(gr, 1, 0, m));
    return Concatenate({gx, Dot(q, gr_y)}, 1);
}

// The gradient of the reduced a = u diag(s) vh (k = min(m, n) distinct non-zero singular values),
// with f = ReciprocalGaps(s^2):
//   u [(f o (u^T gu - gu^T u)) diag(s) + diag(gs) + diag(s) (f o (v^T gv - gv^T v))] v^T
//   + (1 - u u^T) gu diag(s)^-1 v^T + u diag(s)^-1 gv^T (1 - v v^T).
Array SvdGrad(const Array& u, const Array& s, const Array& vh, const Array& gu, const Array& gs, const Array& gvh) {
    int64_t m = u.shape()[0];
    int64_t n = vh.shape()[1];
    int64_t k = s.shape()[0];
    Array gv = Transpose(gvh);
    Array f = ReciprocalGaps(Square(s));
    Array ut_gu = Dot(Transpose(u), gu);
    Array vt_gv = Dot(vh, gv);
    Array core = Multiply(f * (ut_gu - Transpose(ut_gu)), s) + Diagflat(gs) +
                 Reshape(s, Shape{k, 1}) * (f * (vt_gv - Transpose(vt_gv)));
    Array ga = Dot(Dot(u, core), vh);
    // The parts of gu and gv outside the spans of u and v; absent when u or v is square.
    if (m > k) ga = ga + Dot((gu - Dot(u, ut_gu)) / s, vh);
    if (n > k) ga = ga + Dot(u / s, Transpose(gv - Dot(Transpose(vh), vt_gv)));
    return ga;
}

}  // namespace

Array Cholesky(const Array& a) {
    CheckMatrix(a, "cholesky", true);
    Array l = a.device().backend().CallKernel<CholeskyKernel>(a);
    BackwardBuilder bb{"cholesky", {a}, {l}};
    if (bb) {
        bb.RetainOutput(0);
        bb.Define([](BackwardContext& ctx) {
            // s = L L^T gives dL = L phi(L^-1 ds L^-T) with phi(x) = tril(x) - diag(x) / 2; the adjoint
            // takes the gradient gl of L to L^-T phi(L^T gl) L^-1.
            Array l = ctx.GetRetainedOutput(0);
            Array p = Dot(Transpose(l), ctx.output_grad());
            Array phi = Tril(p) - Diagflat(Diag(p)) * 0.5;
            ctx.input_grad() = FoldOntoTriangle(SolveRight(Solve(Transpose(l), phi), l), true);
        });
    }
    return l;
}

std::vector<Array> Qr(const Array& a, QrMode mode) {
    CheckMatrix(a, "qr", false);
    // r alone is differentiated through reduced mode: the same r, and the q its gradient needs.
    if (mode == QrMode::kR && RecordsGraph(a)) return {Qr(a, QrMode::kReduced)[1]};
    std::vector<Array> out = a.device().backend().CallKernel<QrKernel>(a, mode);
    if (mode == QrMode::kR) return out;
    BackwardBuilder bb{"qr", std::vector<Array>{a}, out};
    if (!bb) return out;
    if (mode == QrMode::kRaw) {
        DefineNotDifferentiable(bb, "qr: the gradient of mode='raw' is not implemented");
    } else if (mode == QrMode::kComplete && a.shape()[0] > a.shape()[1]) {
        DefineNotDifferentiable(bb,
                                "qr: the gradient of mode='complete' is not implemented for m > n (the last m - n "
                                "columns of q are not unique); use mode='reduced'");
    } else {
        bb.RetainOutput(0);
        bb.RetainOutput(1);
        bb.Define([a](BackwardContext& ctx) {
            ctx.input_grad() = QrGrad(a, ctx.GetRetainedOutput(0), ctx.GetRetainedOutput(1), ctx.output_grad(0),
                                      ctx.output_grad(1));
        });
    }
    return out;
}

std::vector<Array> Svd(const Array& a, bool full_matrices, bool compute_uv) {
    CheckMatrix(a, "svd", false);
    // s alone is differentiated through the reduced decomposition, for the u and vh its gradient needs.
    if (!compute_uv && RecordsGraph(a)) return {Svd(a, false, true)[1]};
    std::vector<Array> out = a.device().backend().CallKernel<SvdKernel>(a, full_matrices, compute_uv);
    if (!compute_uv) return out;
    BackwardBuilder bb{"svd", std::vector<Array>{a}, out};
    if (!bb) return out;
    if (full_matrices && a.shape()[0] != a.shape()[1]) {
        DefineNotDifferentiable(bb,
                                "svd: the gradient of full_matrices=True is not implemented for non-square matrices "
                                "(the extra singular vectors are not unique); use full_matrices=False");
    } else {
        for (size_t i = 0; i < 3; ++i) bb.RetainOutput(i);
        bb.Define([](BackwardContext& ctx) {
            ctx.input_grad() = SvdGrad(ctx.GetRetainedOutput(0), ctx.GetRetainedOutput(1), ctx.GetRetainedOutput(2),
                                       ctx.output_grad(0), ctx.output_grad(1), ctx.output_grad(2));
        });
    }
    return out;
}

std::tuple<Array, Array> Eigh(const Array& a, char uplo) {
    CheckMatrix(a, "eigh", true);
    CheckUplo(uplo);
    std::vector<Array> wv = a.device().backend().CallKernel<EighKernel>(a, uplo, true);
    BackwardBuilder bb{"eigh", std::vector<Array>{a}, wv};
    if (bb) {
        bb.RetainOutput(0);
        bb.RetainOutput(1);
        bb.Define([uplo](BackwardContext& ctx) {
            // dw = diag(v^T ds v) and dv = v (f o (v^T ds v)) with f = ReciprocalGaps(w).
            Array v = ctx.GetRetainedOutput(1);
            Array inner = Diagflat(ctx.output_grad(0)) +
                          ReciprocalGaps(ctx.GetRetainedOutput(0)) * Dot(Transpose(v), ctx.output_grad(1));
            ctx.input_grad() = FoldOntoTriangle(Dot(Dot(v, inner), Transpose(v)), uplo == 'L');
        });
    }
    return {wv[0], wv[1]};
}

Array Eigvalsh(const Array& a, char uplo) {
    CheckMatrix(a, "eigvalsh", true);
    CheckUplo(uplo);
    // Differentiated through Eigh, for the eigenvectors the gradient needs.
    if (RecordsGraph(a)) return std::get<0>(Eigh(a, uplo));
    return a.device().backend().CallKernel<EighKernel>(a, uplo, false)[0];
}

Array Solve(const Array& a_in, const Array& b_in) {
    CheckMatrix(a_in, "solve", true);
    CheckLapackDtype(b_in, "solve");
    CheckEqualDevices(a_in.device(), b_in.device());
    int64_t n = a_in.shape()[0];
    if ((b_in.ndim() != 1 && b_in.ndim() != 2) || b_in.shape()[0] != n) {
        throw DimensionError{
                "solve: b must have shape (", n,           ",) or (", n, ", k) for a of shape ", a_in.shape(),
                ", but got shape ",           b_in.shape()};
    }
    Dtype dtype = PromoteTypes(a_in.dtype(), b_in.dtype());
    Array a = internal::CastIfNeeded(a_in, dtype);
    Array b = internal::CastIfNeeded(b_in, dtype);
    // The kernel takes b as a matrix of k columns.
    int64_t k = b.ndim() == 1 ? 1 : b.shape()[1];
    Array b_matrix = Reshape(b.AsGradStopped(), Shape{n, k});
    Array x = Reshape(a.device().backend().CallKernel<SolveKernel>(a, b_matrix), b.shape());
    BackwardBuilder bb{"solve", {a, b}, {x}};
    if (bb) {
        bb.RetainOutput(0);
        bb.Define([a, n, k](BackwardContext& ctx) {
            // x = a^-1 b: gb = a^-T gx and ga = -gb x^T.
            Array gb = Solve(Transpose(a), ctx.output_grad());
            if (ctx.is_input_grad_required(0)) {
                Array x = ctx.GetRetainedOutput(0);
                ctx.input_grad(0) = -Dot(Reshape(gb, Shape{n, k}), Transpose(Reshape(x, Shape{n, k})));
            }
            if (ctx.is_input_grad_required(1)) ctx.input_grad(1) = gb;
        });
    }
    return x;
}

Array Inv(const Array& a) {
    CheckMatrix(a, "inv", true);
    Array y = a.device().backend().CallKernel<InvKernel>(a);
    BackwardBuilder bb{"inv", {a}, {y}};
    if (bb) {
        bb.RetainOutput(0);
        bb.Define([](BackwardContext& ctx) {
            Array yt = Transpose(ctx.GetRetainedOutput(0));
            ctx.input_grad() = -Dot(Dot(yt, ctx.output_grad()), yt);
        });
    }
    return y;
}

Array Pinv(const Array& a, double rcond) {
    CheckMatrix(a, "pinv", false);
    Array p;
    if (a.GetTotalSize() == 0) {
        p = Zeros(Shape{a.shape()[1], a.shape()[0]}, a.dtype(), a.device());
    } else {
        std::vector<Array> usv = a.device().backend().CallKernel<SvdKernel>(a, false, true);
        const Array& s = usv[1];
        Array s_inv = Where(Greater(s, AMax(s) * rcond), Reciprocal(s), Scalar{0});
        p = Dot(Transpose(usv[2]) * s_inv, Transpose(usv[0]));
    }
    BackwardBuilder bb{"pinv", {a}, {p}};
    if (bb) {
        bb.RetainOutput(0);
        bb.Define([a](BackwardContext& ctx) {
            // At constant rank, d(a+) = -a+ da a+ + a+ a+^T da^T (1 - a a+) + (1 - a+ a) da^T a+^T a+, so
            // ga = -a+^T g a+^T + (1 - a a+) g^T a+ a+^T + a+^T a+ g^T (1 - a+ a).
            Array p = ctx.GetRetainedOutput(0);
            const Array& g = ctx.output_grad();
            Array pt = Transpose(p);
            Array left = Dot(Transpose(g), Dot(p, pt));
            Array right = Dot(Dot(pt, p), Transpose(g));
            ctx.input_grad() = -Dot(Dot(pt, g), pt) + (left - Dot(a, Dot(p, left))) + (right - Dot(Dot(right, p), a));
        });
    }
    return p;
}

}  // namespace chainerx
