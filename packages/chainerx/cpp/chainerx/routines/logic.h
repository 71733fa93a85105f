#pragma once

#include "chainerx/array.h"
#include "chainerx/scalar.h"

namespace chainerx {

// Element-wise comparisons and logical functions giving bool arrays (not differentiable).
#define CHAINERX_DECLARE_COMPARE(Name)          \
    Array Name(const Array& a, const Array& b); \
    Array Name(const Array& a, Scalar b);
CHAINERX_DECLARE_COMPARE(Equal)
CHAINERX_DECLARE_COMPARE(NotEqual)
CHAINERX_DECLARE_COMPARE(Greater)
CHAINERX_DECLARE_COMPARE(GreaterEqual)
CHAINERX_DECLARE_COMPARE(Less)
CHAINERX_DECLARE_COMPARE(LessEqual)
CHAINERX_DECLARE_COMPARE(LogicalAnd)
CHAINERX_DECLARE_COMPARE(LogicalOr)
CHAINERX_DECLARE_COMPARE(LogicalXor)
#undef CHAINERX_DECLARE_COMPARE

Array LogicalNot(const Array& x);
Array IsNan(const Array& x);
Array IsInf(const Array& x);
Array IsFinite(const Array& x);

}  // namespace chainerx
