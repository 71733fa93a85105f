// Element-wise functions of one array (math and predicates).
#include <cmath>
#include <cstdint>
#include <memory>
#include <type_traits>

#include "chainerx/kernels/math.h"
#include "chainerx/native/elementwise.h"
#include "chainerx/native/math_util.h"
#include "chainerx/native/native_backend.h"

namespace chainerx {
namespace native {
namespace {

// Each case runs the loop with its own lambda, so the switch is outside the element loop.
template <typename T>
void UnaryImpl(UnaryOp op, const Array& x, const Array& out) {
    using C = ComputeType<T>;
    auto loop = [&](auto f) { UnaryLoop<T, T>(x, out, [f](T v) { return static_cast<T>(f(static_cast<C>(v))); }); };
    switch (op) {
        case UnaryOp::kNegative:
            return loop([](C v) { return static_cast<C>(-v); });
        case UnaryOp::kAbsolute:
            return loop([](C v) { return v < C{0} ? static_cast<C>(-v) : v; });
        case UnaryOp::kSign:
            if constexpr (kIsFloat<T>) {
                return loop([](C v) { return IsNan(v) ? v : static_cast<C>((C{0} < v) - (v < C{0})); });
            } else {
                return loop([](C v) { return static_cast<C>((C{0} < v) - (v < C{0})); });
            }
        case UnaryOp::kSquare:
            return loop([](C v) { return static_cast<C>(v * v); });
        case UnaryOp::kReciprocal:
            if constexpr (kIsFloat<T>) {
                return loop([](C v) { return C{1} / v; });
            } else {  // NumPy's integer reciprocal: 1/x truncated, and 0 for division by zero
                return loop([](C v) { return v == C{0} ? C{0} : static_cast<C>(C{1} / v); });
            }
        case UnaryOp::kInvert:
            if constexpr (std::is_same_v<T, bool>) {
                return loop([](C v) { return !v; });
            } else if constexpr (std::is_integral_v<T>) {
                return loop([](C v) { return static_cast<C>(~v); });
            } else {
                ThrowUnsupported("invert", x.dtype());
            }
        default:
            break;
    }
    if constexpr (kIsFloat<T>) {
        switch (op) {
            case UnaryOp::kExp:
                return loop([](C v) { return std::exp(v); });
            case UnaryOp::kExpm1:
                return loop([](C v) { return std::expm1(v); });
            case UnaryOp::kExp2:
                return loop([](C v) { return std::exp2(v); });
            case UnaryOp::kErf:
                return loop([](C v) { return std::erf(v); });
            case UnaryOp::kLog:
                return loop([](C v) { return std::log(v); });
            case UnaryOp::kLog10:
                return loop([](C v) { return std::log10(v); });
            case UnaryOp::kLog2:
                return loop([](C v) { return std::log2(v); });
            case UnaryOp::kLog1p:
                return loop([](C v) { return std::log1p(v); });
            case UnaryOp::kSqrt:
                return loop([](C v) { return std::sqrt(v); });
            case UnaryOp::kSin:
                return loop([](C v) { return std::sin(v); });
            case UnaryOp::kCos:
                return loop([](C v) { return std::cos(v); });
            case UnaryOp::kTan:
                return loop([](C v) { return std::tan(v); });
            case UnaryOp::kArcsin:
                return loop([](C v) { return std::asin(v); });
            case UnaryOp::kArccos:
                return loop([](C v) { return std::acos(v); });
            case UnaryOp::kArctan:
                return loop([](C v) { return std::atan(v); });
            case UnaryOp::kSinh:
                return loop([](C v) { return std::sinh(v); });
            case UnaryOp::kCosh:
                return loop([](C v) { return std::cosh(v); });
            case UnaryOp::kTanh:
                return loop([](C v) { return std::tanh(v); });
            case UnaryOp::kArcsinh:
                return loop([](C v) { return std::asinh(v); });
            case UnaryOp::kArccosh:
                return loop([](C v) { return std::acosh(v); });
            case UnaryOp::kArctanh:
                return loop([](C v) { return std::atanh(v); });
            case UnaryOp::kCeil:
                return loop([](C v) { return std::ceil(v); });
            case UnaryOp::kFloor:
                return loop([](C v) { return std::floor(v); });
            case UnaryOp::kSigmoid:
                return loop([](C v) { return C{1} / (C{1} + std::exp(-v)); });
            default:
                break;
        }
    }
    ThrowUnsupported("this unary function", x.dtype());
}

class NativeUnaryKernel : public UnaryKernel {
public:
    void Call(UnaryOp op, const Array& x, const Array& out) override {
        VisitDtype(x.dtype(), [&](auto tag) { UnaryImpl<typename decltype(tag)::type>(op, x, out); });
    }
};

class NativePredicateKernel : public PredicateKernel {
public:
    void Call(PredicateOp op, const Array& x, const Array& out) override {
        VisitDtype(x.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            using C = ComputeType<T>;
            auto loop = [&](auto f) { UnaryLoop<bool, T>(x, out, [f](T v) { return f(static_cast<C>(v)); }); };
            switch (op) {
                case PredicateOp::kLogicalNot:
                    return loop([](C v) { return v == C{0}; });
                case PredicateOp::kIsNan:
                    return loop([](C v) { return IsNan(v); });
                case PredicateOp::kIsInf:
                    if constexpr (kIsFloat<T>)
                        return loop([](C v) { return std::isinf(v); });
                    else
                        return loop([](C) { return false; });
                case PredicateOp::kIsFinite:
                    if constexpr (kIsFloat<T>)
                        return loop([](C v) { return std::isfinite(v); });
                    else
                        return loop([](C) { return true; });
            }
        });
    }
};

}  // namespace

void RegisterUnaryKernels(KernelRegistry& registry) {
    registry.Register<UnaryKernel>(std::make_unique<NativeUnaryKernel>());
    registry.Register<PredicateKernel>(std::make_unique<NativePredicateKernel>());
}

}  // namespace native
}  // namespace chainerx
