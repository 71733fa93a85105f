#pragma once

#include <optional>

#include "chainerx/array.h"
#include "chainerx/scalar.h"

namespace chainerx {

// Element-wise arithmetic with NumPy broadcasting and dtype promotion. Differentiable in
// floating inputs; a Scalar operand follows NumPy 2's weak-scalar rule.
#define CHAINERX_DECLARE_BINARY(Name)           \
    Array Name(const Array& a, const Array& b); \
    Array Name(const Array& a, Scalar b);       \
    Array Name(Scalar a, const Array& b);
CHAINERX_DECLARE_BINARY(Add)
CHAINERX_DECLARE_BINARY(Subtract)
CHAINERX_DECLARE_BINARY(Multiply)
// True division: integer inputs give float64.
CHAINERX_DECLARE_BINARY(Divide)
CHAINERX_DECLARE_BINARY(FloorDivide)
CHAINERX_DECLARE_BINARY(Remainder)
CHAINERX_DECLARE_BINARY(Power)
CHAINERX_DECLARE_BINARY(Maximum)
CHAINERX_DECLARE_BINARY(Minimum)
CHAINERX_DECLARE_BINARY(Arctan2)
// Integral and bool dtypes only.
CHAINERX_DECLARE_BINARY(BitwiseAnd)
CHAINERX_DECLARE_BINARY(BitwiseOr)
CHAINERX_DECLARE_BINARY(BitwiseXor)
CHAINERX_DECLARE_BINARY(LeftShift)
CHAINERX_DECLARE_BINARY(RightShift)
#undef CHAINERX_DECLARE_BINARY

// Element-wise functions of one array. The transcendental ones turn integral input into the
// smallest float that holds it (NumPy's rule: int8 -> float16, int32 -> float64).
Array Negative(const Array& x);
Array Absolute(const Array& x);
Array Sign(const Array& x);
Array Square(const Array& x);
Array Reciprocal(const Array& x);
Array Invert(const Array& x);
Array Exp(const Array& x);
Array Expm1(const Array& x);
Array Exp2(const Array& x);
Array Erf(const Array& x);
Array Log(const Array& x);
Array Log10(const Array& x);
Array Log2(const Array& x);
Array Log1p(const Array& x);
Array Sqrt(const Array& x);
Array Sin(const Array& x);
Array Cos(const Array& x);
Array Tan(const Array& x);
Array Arcsin(const Array& x);
Array Arccos(const Array& x);
Array Arctan(const Array& x);
Array Sinh(const Array& x);
Array Cosh(const Array& x);
Array Tanh(const Array& x);
Array Arcsinh(const Array& x);
Array Arccosh(const Array& x);
Array Arctanh(const Array& x);
Array Ceil(const Array& x);
Array Floor(const Array& x);
Array Sigmoid(const Array& x);
Array Relu(const Array& x);
// min and max may be absent (but not both).
Array Clip(const Array& a, const std::optional<Scalar>& a_min, const std::optional<Scalar>& a_max);

namespace internal {
// a op= b computed directly in a's memory, as NumPy's in-place operators do: b broadcasts to a's
// shape and the result must fit a's dtype. Refused (ChainerxError) when a is in a graph.
void AddInplace(const Array& a, const Array& b);
void SubtractInplace(const Array& a, const Array& b);
void MultiplyInplace(const Array& a, const Array& b);
void DivideInplace(const Array& a, const Array& b);
void FloorDivideInplace(const Array& a, const Array& b);
void RemainderInplace(const Array& a, const Array& b);
void BitwiseAndInplace(const Array& a, const Array& b);
void BitwiseOrInplace(const Array& a, const Array& b);
void BitwiseXorInplace(const Array& a, const Array& b);
void LeftShiftInplace(const Array& a, const Array& b);
void RightShiftInplace(const Array& a, const Array& b);
}  // namespace internal

}  // namespace chainerx
