#include "chainerx/routines/math.h"

#include <cmath>
#include <memory>

#include "chainerx/backend.h"
#include "chainerx/backward_builder.h"
#include "chainerx/error.h"
#include "chainerx/kernels/math.h"
#include "chainerx/routines/creation.h"
#include "chainerx/routines/indexing.h"
#include "chainerx/routines/logic.h"
#include "chainerx/routines/manipulation.h"
#include "chainerx/routines/reduction.h"
#include "chainerx/routines/util.h"

namespace chainerx {
namespace {

// How a binary routine's gradient is computed, given a, b (promoted, not broadcast) and the
// output gradient; each returns the gradient already summed back to its input's shape.
enum class BinaryGrad { kNone, kAdd, kSubtract, kMultiply, kDivide, kPower, kMaximum, kMinimum, kArctan2, kRemainder };

void DefineBinaryBackward(BinaryGrad kind, const Array& a, const Array& b, const Array& out) {
    if (kind == BinaryGrad::kNone || !IsFloating(out.dtype())) return;
    BackwardBuilder bb{"binary", {a, b}, {out}};
    if (!bb) return;
    Array mask;
    if (kind == BinaryGrad::kMaximum || kind == BinaryGrad::kMinimum) {
        // Ties send the gradient to a, as NumPy-based Chainer does.
        mask = kind == BinaryGrad::kMaximum ? GreaterEqual(a.AsGradStopped(), b.AsGradStopped())
                                            : LessEqual(a.AsGradStopped(), b.AsGradStopped());
    }
    bb.Define([kind, a, b, mask](BackwardContext& ctx) {
        const Array& gy = ctx.output_grad();
        Array ga;
        Array gb;
        bool need_a = ctx.is_input_grad_required(0);
        bool need_b = ctx.is_input_grad_required(1);
        switch (kind) {
            case BinaryGrad::kAdd:
                ga = gy;
                gb = gy;
                break;
            case BinaryGrad::kSubtract:
                ga = gy;
                if (need_b) gb = Negative(gy);
                break;
            case BinaryGrad::kMultiply:
                if (need_a) ga = Multiply(gy, b);
                if (need_b) gb = Multiply(gy, a);
                break;
            case BinaryGrad::kDivide:
                if (need_a) ga = Divide(gy, b);
                if (need_b) gb = Negative(Divide(Multiply(gy, a), Square(b)));
                break;
            case BinaryGrad::kPower:
                if (need_a) ga = Multiply(Multiply(gy, b), Power(a, Subtract(b, Scalar{1})));
                if (need_b) gb = Multiply(Multiply(gy, Log(a)), Power(a, b));
                break;
            case BinaryGrad::kMaximum:
            case BinaryGrad::kMinimum:
                if (need_a) ga = Where(mask, gy, Scalar{0});
                if (need_b) gb = Where(mask, Scalar{0}, gy);
                break;
            case BinaryGrad::kArctan2: {
                Array denom = Add(Square(a), Square(b));
                if (need_a) ga = Divide(Multiply(gy, b), denom);
                if (need_b) gb = Negative(Divide(Multiply(gy, a), denom));
                break;
            }
            case BinaryGrad::kRemainder:
                ga = gy;
                if (need_b) gb = Negative(Multiply(gy, FloorDivide(a.AsGradStopped(), b.AsGradStopped())));
                break;
            case BinaryGrad::kNone:
                break;
        }
        if (need_a && !ga.is_null()) ctx.input_grad(0) = internal::SumTo(ga, a.shape());
        if (need_b && !gb.is_null()) ctx.input_grad(1) = internal::SumTo(gb, b.shape());
    });
}

// The shared body of every binary routine: promote, broadcast, run the kernel, record backward.
Array BinaryRoutine(BinaryOp op, BinaryGrad grad, const Array& a_in, const Array& b_in, bool true_division = false) {
    CheckEqualDevices(a_in.device(), b_in.device());
    Dtype dtype = PromoteTypes(a_in.dtype(), b_in.dtype());
    if (true_division && !IsFloating(dtype)) dtype = Dtype::kFloat64;
    if (op == BinaryOp::kSubtract && dtype == Dtype::kBool) {
        throw DtypeError{"subtract: bool arrays cannot be subtracted; use logical_xor or bitwise_xor instead"};
    }
    if (op == BinaryOp::kArctan2 && !IsFloating(dtype)) {
        // NumPy picks the first float loop both inputs cast to safely (int8, uint8 -> float16).
        dtype = PromoteTypes(PromoteTypes(a_in.dtype(), Dtype::kFloat16), PromoteTypes(b_in.dtype(), Dtype::kFloat16));
    }
    Array a = internal::CastIfNeeded(a_in, dtype);
    Array b = internal::CastIfNeeded(b_in, dtype);
    Shape shape = BroadcastShapes(a.shape(), b.shape());
    Array out = Empty(shape, dtype, a.device());
    a.device().backend().CallKernel<BinaryKernel>(op, internal::BroadcastView(a, shape),
                                                  internal::BroadcastView(b, shape), out);
    DefineBinaryBackward(grad, a, b, out);
    return out;
}

Array ScalarLike(const Array& a, Scalar s) {
    return internal::ScalarArray(s, ResultTypeWithScalar(a.dtype(), s), a.device());
}

}  // namespace

#define CHAINERX_DEFINE_BINARY(Name, op, grad, true_division)                                                    \
    Array Name(const Array& a, const Array& b) { return BinaryRoutine(op, grad, a, b, true_division); }          \
    Array Name(const Array& a, Scalar b) { return BinaryRoutine(op, grad, a, ScalarLike(a, b), true_division); } \
    Array Name(Scalar a, const Array& b) { return BinaryRoutine(op, grad, ScalarLike(b, a), b, true_division); }
CHAINERX_DEFINE_BINARY(Add, BinaryOp::kAdd, BinaryGrad::kAdd, false)
CHAINERX_DEFINE_BINARY(Subtract, BinaryOp::kSubtract, BinaryGrad::kSubtract, false)
CHAINERX_DEFINE_BINARY(Multiply, BinaryOp::kMultiply, BinaryGrad::kMultiply, false)
CHAINERX_DEFINE_BINARY(Divide, BinaryOp::kDivide, BinaryGrad::kDivide, true)
CHAINERX_DEFINE_BINARY(FloorDivide, BinaryOp::kFloorDivide, BinaryGrad::kNone, false)
CHAINERX_DEFINE_BINARY(Remainder, BinaryOp::kRemainder, BinaryGrad::kRemainder, false)
CHAINERX_DEFINE_BINARY(Power, BinaryOp::kPower, BinaryGrad::kPower, false)
CHAINERX_DEFINE_BINARY(Maximum, BinaryOp::kMaximum, BinaryGrad::kMaximum, false)
CHAINERX_DEFINE_BINARY(Minimum, BinaryOp::kMinimum, BinaryGrad::kMinimum, false)
CHAINERX_DEFINE_BINARY(Arctan2, BinaryOp::kArctan2, BinaryGrad::kArctan2, false)
CHAINERX_DEFINE_BINARY(BitwiseAnd, BinaryOp::kBitwiseAnd, BinaryGrad::kNone, false)
CHAINERX_DEFINE_BINARY(BitwiseOr, BinaryOp::kBitwiseOr, BinaryGrad::kNone, false)
CHAINERX_DEFINE_BINARY(BitwiseXor, BinaryOp::kBitwiseXor, BinaryGrad::kNone, false)
CHAINERX_DEFINE_BINARY(LeftShift, BinaryOp::kLeftShift, BinaryGrad::kNone, false)
CHAINERX_DEFINE_BINARY(RightShift, BinaryOp::kRightShift, BinaryGrad::kNone, false)
#undef CHAINERX_DEFINE_BINARY

namespace {

// Runs a unary kernel; float_only ops first turn integral input into a float (NumPy's rule).
Array UnaryRoutine(UnaryOp op, const Array& x_in, bool float_only) {
    Array x =
            float_only && !IsFloating(x_in.dtype()) ? AsType(x_in, PromoteTypes(x_in.dtype(), Dtype::kFloat16)) : x_in;
    Array out = EmptyLike(x);
    x.device().backend().CallKernel<UnaryKernel>(op, x, out);
    return out;
}

// Records gradient = gy * f(x, y) where f is written with differentiable routines.
template <typename F>
void DefineUnaryBackward(const char* name, const Array& x, const Array& out, bool needs_output, F grad) {
    if (!IsFloating(out.dtype())) return;
    BackwardBuilder bb{name, {x}, {out}};
    if (!bb) return;
    if (needs_output) bb.RetainOutput(0);
    bb.Define([x, needs_output, grad](BackwardContext& ctx) {
        Array y = needs_output ? ctx.GetRetainedOutput(0) : Array{};
        ctx.input_grad() = grad(ctx.output_grad(), x, y);
    });
}

Array FloatInput(const Array& x) {
    return IsFloating(x.dtype()) ? x : AsType(x, PromoteTypes(x.dtype(), Dtype::kFloat16));
}

}  // namespace

#define CHAINERX_DEFINE_UNARY(Name, op, float_only, needs_output, grad_expr)               \
    Array Name(const Array& x_in) {                                                        \
        Array x = (float_only) ? FloatInput(x_in) : x_in;                                  \
        Array out = UnaryRoutine(op, x, false);                                            \
        DefineUnaryBackward(#Name, x, out, needs_output,                                   \
                            [](const Array& gy, const Array& x, const Array& y) -> Array { \
                                (void)x;                                                   \
                                (void)y;                                                   \
                                return grad_expr;                                          \
                            });                                                            \
        return out;                                                                        \
    }

CHAINERX_DEFINE_UNARY(Negative, UnaryOp::kNegative, false, false, Negative(gy))
CHAINERX_DEFINE_UNARY(Absolute, UnaryOp::kAbsolute, false, false, Multiply(gy, Sign(x.AsGradStopped())))
CHAINERX_DEFINE_UNARY(Square, UnaryOp::kSquare, false, false, Multiply(gy, Multiply(x, Scalar{2})))
CHAINERX_DEFINE_UNARY(Reciprocal, UnaryOp::kReciprocal, false, true, Negative(Multiply(gy, Square(y))))
CHAINERX_DEFINE_UNARY(Exp, UnaryOp::kExp, true, true, Multiply(gy, y))
CHAINERX_DEFINE_UNARY(Expm1, UnaryOp::kExpm1, true, true, Multiply(gy, Add(y, Scalar{1})))
CHAINERX_DEFINE_UNARY(Exp2, UnaryOp::kExp2, true, true, Multiply(gy, Multiply(y, Scalar{std::log(2.0)})))
CHAINERX_DEFINE_UNARY(Erf, UnaryOp::kErf, true, false,
                      Multiply(gy, Multiply(Exp(Negative(Square(x))), Scalar{2.0 / std::sqrt(3.14159265358979323846)})))
CHAINERX_DEFINE_UNARY(Log, UnaryOp::kLog, true, false, Divide(gy, x))
CHAINERX_DEFINE_UNARY(Log10, UnaryOp::kLog10, true, false, Divide(gy, Multiply(x, Scalar{std::log(10.0)})))
CHAINERX_DEFINE_UNARY(Log2, UnaryOp::kLog2, true, false, Divide(gy, Multiply(x, Scalar{std::log(2.0)})))
CHAINERX_DEFINE_UNARY(Log1p, UnaryOp::kLog1p, true, false, Divide(gy, Add(x, Scalar{1})))
CHAINERX_DEFINE_UNARY(Sqrt, UnaryOp::kSqrt, true, true, Divide(gy, Multiply(y, Scalar{2})))
CHAINERX_DEFINE_UNARY(Sin, UnaryOp::kSin, true, false, Multiply(gy, Cos(x)))
CHAINERX_DEFINE_UNARY(Cos, UnaryOp::kCos, true, false, Negative(Multiply(gy, Sin(x))))
CHAINERX_DEFINE_UNARY(Tan, UnaryOp::kTan, true, true, Multiply(gy, Add(Square(y), Scalar{1})))
CHAINERX_DEFINE_UNARY(Arcsin, UnaryOp::kArcsin, true, false, Divide(gy, Sqrt(Subtract(Scalar{1}, Square(x)))))
CHAINERX_DEFINE_UNARY(Arccos, UnaryOp::kArccos, true, false, Negative(Divide(gy, Sqrt(Subtract(Scalar{1}, Square(x))))))
CHAINERX_DEFINE_UNARY(Arctan, UnaryOp::kArctan, true, false, Divide(gy, Add(Square(x), Scalar{1})))
CHAINERX_DEFINE_UNARY(Sinh, UnaryOp::kSinh, true, false, Multiply(gy, Cosh(x)))
CHAINERX_DEFINE_UNARY(Cosh, UnaryOp::kCosh, true, false, Multiply(gy, Sinh(x)))
CHAINERX_DEFINE_UNARY(Tanh, UnaryOp::kTanh, true, true, Multiply(gy, Subtract(Scalar{1}, Square(y))))
CHAINERX_DEFINE_UNARY(Arcsinh, UnaryOp::kArcsinh, true, false, Divide(gy, Sqrt(Add(Square(x), Scalar{1}))))
CHAINERX_DEFINE_UNARY(Arccosh, UnaryOp::kArccosh, true, false, Divide(gy, Sqrt(Subtract(Square(x), Scalar{1}))))
CHAINERX_DEFINE_UNARY(Arctanh, UnaryOp::kArctanh, true, false, Divide(gy, Subtract(Scalar{1}, Square(x))))
CHAINERX_DEFINE_UNARY(Sigmoid, UnaryOp::kSigmoid, true, true, Multiply(gy, Multiply(y, Subtract(Scalar{1}, y))))
#undef CHAINERX_DEFINE_UNARY

// Piecewise-constant functions: no gradient flows through them.
Array Sign(const Array& x) { return UnaryRoutine(UnaryOp::kSign, x, false); }
Array Invert(const Array& x) { return UnaryRoutine(UnaryOp::kInvert, x, false); }
Array Ceil(const Array& x) { return IsFloating(x.dtype()) ? UnaryRoutine(UnaryOp::kCeil, x, false) : Copy(x); }
Array Floor(const Array& x) { return IsFloating(x.dtype()) ? UnaryRoutine(UnaryOp::kFloor, x, false) : Copy(x); }

Array Relu(const Array& x) {
    Array zero = internal::ScalarArray(0, x.dtype(), x.device());
    Array out = EmptyLike(x);
    x.device().backend().CallKernel<BinaryKernel>(BinaryOp::kMaximum, x, internal::BroadcastView(zero, x.shape()), out);
    if (IsFloating(x.dtype())) {
        BackwardBuilder bb{"relu", {x}, {out}};
        if (bb) {
            Array mask = Greater(out, Scalar{0});
            bb.Define([mask](BackwardContext& ctx) { ctx.input_grad() = Where(mask, ctx.output_grad(), Scalar{0}); });
        }
    }
    return out;
}

namespace {

void BinaryInplace(BinaryOp op, const char* name, const Array& a, const Array& b, bool true_division = false) {
    internal::CheckNoGraphForInplace(a, name);
    CheckEqualDevices(a.device(), b.device());
    Dtype result = PromoteTypes(a.dtype(), b.dtype());
    if (true_division && !IsFloating(result)) result = Dtype::kFloat64;
    if (IsFloating(result) && !IsFloating(a.dtype())) {
        throw DtypeError{"in-place ", name, ": cannot store a ", result, " result into a ", a.dtype(), " array"};
    }
    if (BroadcastShapes(a.shape(), b.shape()) != a.shape()) {
        throw DimensionError{
                "in-place ", name, ": operand of shape ", b.shape(), " cannot be broadcast into an array of shape ",
                a.shape()};
    }
    // The kernel only reads b: a graph-free b needs no grad-stopped view.
    Array b_data = b.body()->graphs.empty() ? b : b.AsGradStopped();
    Array rhs = internal::BroadcastView(internal::CastIfNeeded(b_data, a.dtype()), a.shape());
    a.device().backend().CallKernel<BinaryKernel>(op, a, rhs, a);
}

}  // namespace

namespace internal {
void AddInplace(const Array& a, const Array& b) { BinaryInplace(BinaryOp::kAdd, "+=", a, b); }
void SubtractInplace(const Array& a, const Array& b) { BinaryInplace(BinaryOp::kSubtract, "-=", a, b); }
void MultiplyInplace(const Array& a, const Array& b) { BinaryInplace(BinaryOp::kMultiply, "*=", a, b); }
void DivideInplace(const Array& a, const Array& b) { BinaryInplace(BinaryOp::kDivide, "/=", a, b, true); }
void FloorDivideInplace(const Array& a, const Array& b) { BinaryInplace(BinaryOp::kFloorDivide, "//=", a, b); }
void RemainderInplace(const Array& a, const Array& b) { BinaryInplace(BinaryOp::kRemainder, "%=", a, b); }
void BitwiseAndInplace(const Array& a, const Array& b) { BinaryInplace(BinaryOp::kBitwiseAnd, "&=", a, b); }
void BitwiseOrInplace(const Array& a, const Array& b) { BinaryInplace(BinaryOp::kBitwiseOr, "|=", a, b); }
void BitwiseXorInplace(const Array& a, const Array& b) { BinaryInplace(BinaryOp::kBitwiseXor, "^=", a, b); }
void LeftShiftInplace(const Array& a, const Array& b) { BinaryInplace(BinaryOp::kLeftShift, "<<=", a, b); }
void RightShiftInplace(const Array& a, const Array& b) { BinaryInplace(BinaryOp::kRightShift, ">>=", a, b); }
}  // namespace internal

Array Clip(const Array& a, const std::optional<Scalar>& a_min, const std::optional<Scalar>& a_max) {
    if (!a_min.has_value() && !a_max.has_value())
        throw ChainerxError{"clip: at least one of a_min and a_max must be given"};
    Array out = a;
    if (a_min.has_value()) out = Maximum(out, *a_min);
    if (a_max.has_value()) out = Minimum(out, *a_max);
    return out;
}

}  // namespace chainerx
