// Module-level element-wise math and logic routines.
#include <nanobind/stl/optional.h>

#include "chainerx/routines/logic.h"
#include "chainerx/routines/math.h"
#include "common.h"

namespace chainerx {
namespace python {
namespace {

using ArrayArrayFn = Array (*)(const Array&, const Array&);
using ArrayScalarFn = Array (*)(const Array&, Scalar);
using ScalarArrayFn = Array (*)(Scalar, const Array&);
using UnaryFn = Array (*)(const Array&);

// f(x1, x2) for arrays, array-likes and numbers; a number keeps NumPy's weak-scalar typing.
Array CallBinary(ArrayArrayFn aa, ArrayScalarFn as, ScalarArrayFn sa, nb::handle x1, nb::handle x2) {
    bool s1 = IsScalar(x1);
    bool s2 = IsScalar(x2);
    if (s2 && !s1) return as(ArrayArg(x1), ScalarArg(x2));
    if (s1 && !s2) {
        Array b = ArrayArg(x2);
        return sa == nullptr ? aa(ArrayArg(x1, &b.device()), b) : sa(ScalarArg(x1), b);
    }
    Array a = ArrayArg(x1);
    return aa(a, ArrayArg(x2, &a.device()));
}

template <ArrayArrayFn AA, ArrayScalarFn AS, ScalarArrayFn SA>
void DefBinary(nb::module_& m, const char* name, const char* doc) {
    m.def(
            name, [](nb::handle x1, nb::handle x2) { return CallBinary(AA, AS, SA, x1, x2); }, nb::arg("x1"),
            nb::arg("x2"), doc);
}

template <UnaryFn F>
void DefUnary(nb::module_& m, const char* name, const char* doc) {
    m.def(name, [](nb::handle x) { return F(ArrayArg(x)); }, nb::arg("x"), doc);
}

#define CX_BINARY(fn) static_cast<ArrayArrayFn>(fn), static_cast<ArrayScalarFn>(fn), static_cast<ScalarArrayFn>(fn)
#define CX_COMPARE(fn) static_cast<ArrayArrayFn>(fn), static_cast<ArrayScalarFn>(fn), nullptr

}  // namespace

void InitMathRoutines(nb::module_& m) {
    DefBinary<CX_BINARY(Add)>(m, "add", "Add arguments, element-wise.");
    DefBinary<CX_BINARY(Subtract)>(m, "subtract", "Subtract arguments, element-wise.");
    DefBinary<CX_BINARY(Multiply)>(m, "multiply", "Multiply arguments, element-wise.");
    DefBinary<CX_BINARY(Divide)>(m, "divide", "Divide arguments, element-wise (true division).");
    DefBinary<CX_BINARY(Divide)>(m, "true_divide", "Divide arguments, element-wise (true division).");
    DefBinary<CX_BINARY(FloorDivide)>(m, "floor_divide", "Floor-divide arguments, element-wise.");
    DefBinary<CX_BINARY(Remainder)>(m, "remainder", "Return element-wise remainder of division (sign of the divisor).");
    DefBinary<CX_BINARY(Remainder)>(m, "mod", "Return element-wise remainder of division (sign of the divisor).");
    DefBinary<CX_BINARY(Power)>(m, "power", "First array elements raised to powers from second array, element-wise.");
    DefBinary<CX_BINARY(Maximum)>(m, "maximum", "Maximum arguments, element-wise.");
    DefBinary<CX_BINARY(Minimum)>(m, "minimum", "Minimum arguments, element-wise.");
    DefBinary<CX_BINARY(Arctan2)>(m, "arctan2", "Element-wise arc tangent of x1/x2 choosing the quadrant correctly.");
    DefBinary<CX_BINARY(BitwiseAnd)>(m, "bitwise_and", "Compute the bit-wise AND of two arrays element-wise.");
    DefBinary<CX_BINARY(BitwiseOr)>(m, "bitwise_or", "Compute the bit-wise OR of two arrays element-wise.");
    DefBinary<CX_BINARY(BitwiseXor)>(m, "bitwise_xor", "Compute the bit-wise XOR of two arrays element-wise.");
    DefBinary<CX_BINARY(LeftShift)>(m, "left_shift", "Shift the bits of an integer to the left.");
    DefBinary<CX_BINARY(RightShift)>(m, "right_shift", "Shift the bits of an integer to the right.");
    DefBinary<CX_COMPARE(Equal)>(m, "equal", "Returns an array of (x1 == x2) element-wise.");
    DefBinary<CX_COMPARE(NotEqual)>(m, "not_equal", "Returns an array of (x1 != x2) element-wise.");
    DefBinary<CX_COMPARE(Greater)>(m, "greater", "Returns an array of (x1 > x2) element-wise.");
    DefBinary<CX_COMPARE(GreaterEqual)>(m, "greater_equal", "Returns an array of (x1 >= x2) element-wise.");
    DefBinary<CX_COMPARE(Less)>(m, "less", "Returns an array of (x1 < x2) element-wise.");
    DefBinary<CX_COMPARE(LessEqual)>(m, "less_equal", "Returns an array of (x1 <= x2) element-wise.");
    DefBinary<CX_COMPARE(LogicalAnd)>(m, "logical_and", "Returns an array of x1 AND x2 element-wise.");
    DefBinary<CX_COMPARE(LogicalOr)>(m, "logical_or", "Returns an array of x1 OR x2 element-wise.");
    DefBinary<CX_COMPARE(LogicalXor)>(m, "logical_xor", "Returns an array of x1 XOR x2 element-wise.");

    DefUnary<LogicalNot>(m, "logical_not", "Returns an array of NOT x element-wise.");
    DefUnary<IsNan>(m, "isnan", "Test element-wise for NaN and return result as a boolean array.");
    DefUnary<IsInf>(m, "isinf", "Test element-wise for positive or negative infinity.");
    DefUnary<IsFinite>(m, "isfinite", "Test element-wise for finiteness.");
    DefUnary<Negative>(m, "negative", "Numerical negative, element-wise.");
    DefUnary<Absolute>(m, "absolute", "Compute the absolute values element-wise.");
    DefUnary<Absolute>(m, "abs", "Compute the absolute values element-wise.");
    DefUnary<Absolute>(m, "fabs", "Compute the absolute values element-wise.");
    DefUnary<Sign>(m, "sign", "Returns an element-wise indication of the sign of a number.");
    DefUnary<Square>(m, "square", "Returns the element-wise square of the input.");
    DefUnary<Reciprocal>(m, "reciprocal", "Return the reciprocal of the argument, element-wise.");
    DefUnary<Invert>(m, "invert", "Compute bit-wise inversion, element-wise.");
    DefUnary<Invert>(m, "bitwise_not", "Compute bit-wise inversion, element-wise.");
    DefUnary<Exp>(m, "exp", "Numerical exponential, element-wise.");
    DefUnary<Expm1>(m, "expm1", "exp(x) - 1, element-wise.");
    DefUnary<Exp2>(m, "exp2", "2 ** x, element-wise.");
    DefUnary<Erf>(m, "erf", "The error function, element-wise.");
    DefUnary<Log>(m, "log", "Natural logarithm, element-wise.");
    DefUnary<Log10>(m, "log10", "Base 10 logarithm, element-wise.");
    DefUnary<Log2>(m, "log2", "Base 2 logarithm, element-wise.");
    DefUnary<Log1p>(m, "log1p", "Natural logarithm of one plus the input, element-wise.");
    DefUnary<Sqrt>(m, "sqrt", "Non-negative square-root, element-wise.");
    DefUnary<Sin>(m, "sin", "Sine, element-wise.");
    DefUnary<Cos>(m, "cos", "Cosine, element-wise.");
    DefUnary<Tan>(m, "tan", "Tangent, element-wise.");
    DefUnary<Arcsin>(m, "arcsin", "Inverse sine, element-wise.");
    DefUnary<Arccos>(m, "arccos", "Trigonometric inverse cosine, element-wise.");
    DefUnary<Arctan>(m, "arctan", "Trigonometric inverse tangent, element-wise.");
    DefUnary<Sinh>(m, "sinh", "Hyperbolic Sine, element-wise.");
    DefUnary<Cosh>(m, "cosh", "Hyperbolic Cosine, element-wise.");
    DefUnary<Tanh>(m, "tanh", "Element-wise hyperbolic tangent function.");
    DefUnary<Arcsinh>(m, "arcsinh", "Inverse hyperbolic sine, element-wise.");
    DefUnary<Arccosh>(m, "arccosh", "Inverse hyperbolic cosine, element-wise.");
    DefUnary<Arctanh>(m, "arctanh", "Inverse hyperbolic tangent, element-wise.");
    DefUnary<Ceil>(m, "ceil", "Return the ceiling of the input, element-wise.");
    DefUnary<Floor>(m, "floor", "Return the floor of the input, element-wise.");
    DefUnary<Sigmoid>(m, "sigmoid", "Element-wise sigmoid logistic function.");
    DefUnary<Relu>(m, "relu", "Rectified Linear Unit function.");
    m.def(
            "clip",
            [](nb::handle a, nb::handle a_min, nb::handle a_max) {
                return Clip(ArrayArg(a), a_min.is_none() ? std::nullopt : std::optional<Scalar>{ScalarArg(a_min)},
                            a_max.is_none() ? std::nullopt : std::optional<Scalar>{ScalarArg(a_max)});
            },
            nb::arg("a"), nb::arg("a_min").none(), nb::arg("a_max").none(),
            "Clips the values of an array to a given interval.");
}

}  // namespace python
}  // namespace chainerx
