#include "chainerx/routines/logic.h"

#include "chainerx/backend.h"
#include "chainerx/kernels/math.h"
#include "chainerx/routines/creation.h"
#include "chainerx/routines/manipulation.h"
#include "chainerx/routines/util.h"

namespace chainerx {
namespace {

Array CompareRoutine(CompareOp op, const Array& a_in, const Array& b_in) {
    CheckEqualDevices(a_in.device(), b_in.device());
    Dtype dtype = PromoteTypes(a_in.dtype(), b_in.dtype());
    Array a = internal::CastIfNeeded(a_in.AsGradStopped(), dtype);
    Array b = internal::CastIfNeeded(b_in.AsGradStopped(), dtype);
    Shape shape = BroadcastShapes(a.shape(), b.shape());
    Array out = Empty(shape, Dtype::kBool, a.device());
    a.device().backend().CallKernel<CompareKernel>(op, internal::BroadcastView(a, shape),
                                                   internal::BroadcastView(b, shape), out);
    return out;
}

Array PredicateRoutine(PredicateOp op, const Array& x) {
    Array out = Empty(x.shape(), Dtype::kBool, x.device());
    x.device().backend().CallKernel<PredicateKernel>(op, x, out);
    return out;
}

}  // namespace

#define CHAINERX_DEFINE_COMPARE(Name, op)                                                                       \
    Array Name(const Array& a, const Array& b) { return CompareRoutine(op, a, b); }                             \
    Array Name(const Array& a, Scalar b) {                                                                      \
        return CompareRoutine(op, a, internal::ScalarArray(b, ResultTypeWithScalar(a.dtype(), b), a.device())); \
    }
CHAINERX_DEFINE_COMPARE(Equal, CompareOp::kEqual)
CHAINERX_DEFINE_COMPARE(NotEqual, CompareOp::kNotEqual)
CHAINERX_DEFINE_COMPARE(Greater, CompareOp::kGreater)
CHAINERX_DEFINE_COMPARE(GreaterEqual, CompareOp::kGreaterEqual)
CHAINERX_DEFINE_COMPARE(Less, CompareOp::kLess)
CHAINERX_DEFINE_COMPARE(LessEqual, CompareOp::kLessEqual)
CHAINERX_DEFINE_COMPARE(LogicalAnd, CompareOp::kLogicalAnd)
CHAINERX_DEFINE_COMPARE(LogicalOr, CompareOp::kLogicalOr)
CHAINERX_DEFINE_COMPARE(LogicalXor, CompareOp::kLogicalXor)
#undef CHAINERX_DEFINE_COMPARE

Array LogicalNot(const Array& x) { return PredicateRoutine(PredicateOp::kLogicalNot, x); }
Array IsNan(const Array& x) { return PredicateRoutine(PredicateOp::kIsNan, x); }
Array IsInf(const Array& x) { return PredicateRoutine(PredicateOp::kIsInf, x); }
Array IsFinite(const Array& x) { return PredicateRoutine(PredicateOp::kIsFinite, x); }

}  // namespace chainerx
