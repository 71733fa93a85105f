#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>

#include "chainerx/error.h"
#include "chainerx/kernels/math.h"
#include "chainerx/native/convert.h"
#include "chainerx/native/elementwise.h"
#include "chainerx/native/native_backend.h"

namespace chainerx {
namespace native {
namespace {

template <typename T>
constexpr bool kIsFloat = std::is_floating_point_v<T> || std::is_same_v<T, Float16>;

template <typename C>
bool IsNan(C v) {
    if constexpr (std::is_floating_point_v<C>) {
        return std::isnan(v);
    } else {
        return false;
    }
}

[[noreturn]] void ThrowUnsupported(const char* what, Dtype dtype) {
    throw DtypeError{what, " is not supported for dtype ", dtype};
}

// Each case runs the loop with its own lambda, so the switch is outside the element loop.
template <typename T>
void UnaryImpl(UnaryOp op, const Array& x, const Array& out) {
    using C = ComputeType<T>;
    auto loop = [&](auto f) { UnaryLoop<T, T>(x, out, [f](T v) { return static_cast<T>(f(static_cast<C>(v))); }); };
    switch (op) {
        case UnaryOp::kNegative: return loop([](C v) { return static_cast<C>(-v); });
        case UnaryOp::kAbsolute: return loop([](C v) { return v < C{0} ? static_cast<C>(-v) : v; });
        case UnaryOp::kSign:
            if constexpr (kIsFloat<T>) {
                return loop([](C v) { return IsNan(v) ? v : static_cast<C>((C{0} < v) - (v < C{0})); });
            } else {
                return loop([](C v) { return static_cast<C>((C{0} < v) - (v < C{0})); });
            }
        case UnaryOp::kSquare: return loop([](C v) { return static_cast<C>(v * v); });
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
        default: break;
    }
    if constexpr (kIsFloat<T>) {
        switch (op) {
            case UnaryOp::kExp: return loop([](C v) { return std::exp(v); });
            case UnaryOp::kExpm1: return loop([](C v) { return std::expm1(v); });
            case UnaryOp::kLog: return loop([](C v) { return std::log(v); });
            case UnaryOp::kLog10: return loop([](C v) { return std::log10(v); });
            case UnaryOp::kLog2: return loop([](C v) { return std::log2(v); });
            case UnaryOp::kLog1p: return loop([](C v) { return std::log1p(v); });
            case UnaryOp::kSqrt: return loop([](C v) { return std::sqrt(v); });
            case UnaryOp::kSin: return loop([](C v) { return std::sin(v); });
            case UnaryOp::kCos: return loop([](C v) { return std::cos(v); });
            case UnaryOp::kTan: return loop([](C v) { return std::tan(v); });
            case UnaryOp::kArcsin: return loop([](C v) { return std::asin(v); });
            case UnaryOp::kArccos: return loop([](C v) { return std::acos(v); });
            case UnaryOp::kArctan: return loop([](C v) { return std::atan(v); });
            case UnaryOp::kSinh: return loop([](C v) { return std::sinh(v); });
            case UnaryOp::kCosh: return loop([](C v) { return std::cosh(v); });
            case UnaryOp::kTanh: return loop([](C v) { return std::tanh(v); });
            case UnaryOp::kArcsinh: return loop([](C v) { return std::asinh(v); });
            case UnaryOp::kArccosh: return loop([](C v) { return std::acosh(v); });
            case UnaryOp::kArctanh: return loop([](C v) { return std::atanh(v); });
            case UnaryOp::kCeil: return loop([](C v) { return std::ceil(v); });
            case UnaryOp::kFloor: return loop([](C v) { return std::floor(v); });
            case UnaryOp::kSigmoid: return loop([](C v) { return C{1} / (C{1} + std::exp(-v)); });
            default: break;
        }
    }
    ThrowUnsupported("this unary function", x.dtype());
}

template <typename C>
C IntPower(C base, C exp) {
    if (exp < C{0}) return base == C{1} ? C{1} : base == static_cast<C>(-1) ? (exp % 2 == 0 ? C{1} : base) : C{0};
    C result{1};
    while (exp != C{0}) {
        if (exp & C{1}) result = static_cast<C>(result * base);
        base = static_cast<C>(base * base);
        exp = static_cast<C>(exp >> 1);
    }
    return result;
}

template <typename T>
void BinaryImpl(BinaryOp op, const Array& a, const Array& b, const Array& out) {
    using C = ComputeType<T>;
    auto loop = [&](auto f) {
        BinaryLoop<T, T>(a, b, out, [f](T x, T y) { return static_cast<T>(f(static_cast<C>(x), static_cast<C>(y))); });
    };
    switch (op) {
        case BinaryOp::kAdd:
            if constexpr (std::is_same_v<T, bool>) return loop([](C x, C y) { return x || y; });
            else return loop([](C x, C y) { return static_cast<C>(x + y); });
        case BinaryOp::kSubtract: return loop([](C x, C y) { return static_cast<C>(x - y); });
        case BinaryOp::kMultiply:
            if constexpr (std::is_same_v<T, bool>) return loop([](C x, C y) { return x && y; });
            else return loop([](C x, C y) { return static_cast<C>(x * y); });
        case BinaryOp::kMaximum:
            return loop([](C x, C y) { return IsNan(x) ? x : IsNan(y) ? y : (x < y ? y : x); });
        case BinaryOp::kMinimum:
            return loop([](C x, C y) { return IsNan(x) ? x : IsNan(y) ? y : (y < x ? y : x); });
        default: break;
    }
    if constexpr (kIsFloat<T>) {
        switch (op) {
            case BinaryOp::kDivide: return loop([](C x, C y) { return x / y; });
            case BinaryOp::kFloorDivide: return loop([](C x, C y) { return std::floor(x / y); });
            case BinaryOp::kRemainder:
                return loop([](C x, C y) {
                    C r = std::fmod(x, y);
                    if (r != C{0} && ((r < C{0}) != (y < C{0}))) r += y;
                    return r;
                });
            case BinaryOp::kPower: return loop([](C x, C y) { return std::pow(x, y); });
            case BinaryOp::kArctan2: return loop([](C x, C y) { return std::atan2(x, y); });
            default: break;
        }
    } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        switch (op) {
            case BinaryOp::kFloorDivide:  // Python semantics: round towards -inf; x // 0 == 0 like NumPy
                return loop([](C x, C y) {
                    if (y == C{0}) return C{0};
                    C q = static_cast<C>(x / y);
                    if ((x % y != 0) && ((x < 0) != (y < 0))) --q;
                    return q;
                });
            case BinaryOp::kRemainder:
                return loop([](C x, C y) {
                    if (y == C{0}) return C{0};
                    C r = static_cast<C>(x % y);
                    if (r != 0 && ((r < 0) != (y < 0))) r = static_cast<C>(r + y);
                    return r;
                });
            case BinaryOp::kPower: return loop([](C x, C y) { return IntPower(x, y); });
            case BinaryOp::kLeftShift: return loop([](C x, C y) { return static_cast<C>(x << y); });
            case BinaryOp::kRightShift: return loop([](C x, C y) { return static_cast<C>(x >> y); });
            default: break;
        }
    }
    if constexpr (std::is_integral_v<T>) {
        switch (op) {
            case BinaryOp::kBitwiseAnd: return loop([](C x, C y) { return static_cast<C>(x & y); });
            case BinaryOp::kBitwiseOr: return loop([](C x, C y) { return static_cast<C>(x | y); });
            case BinaryOp::kBitwiseXor: return loop([](C x, C y) { return static_cast<C>(x ^ y); });
            default: break;
        }
    }
    ThrowUnsupported("this binary function", a.dtype());
}

template <typename T>
void CompareImpl(CompareOp op, const Array& a, const Array& b, const Array& out) {
    using C = ComputeType<T>;
    auto loop = [&](auto f) {
        BinaryLoop<bool, T>(a, b, out, [f](T x, T y) { return f(static_cast<C>(x), static_cast<C>(y)); });
    };
    switch (op) {
        case CompareOp::kEqual: return loop([](C x, C y) { return x == y; });
        case CompareOp::kNotEqual: return loop([](C x, C y) { return x != y; });
        case CompareOp::kGreater: return loop([](C x, C y) { return x > y; });
        case CompareOp::kGreaterEqual: return loop([](C x, C y) { return x >= y; });
        case CompareOp::kLess: return loop([](C x, C y) { return x < y; });
        case CompareOp::kLessEqual: return loop([](C x, C y) { return x <= y; });
        case CompareOp::kLogicalAnd: return loop([](C x, C y) { return x != C{0} && y != C{0}; });
        case CompareOp::kLogicalOr: return loop([](C x, C y) { return x != C{0} || y != C{0}; });
        case CompareOp::kLogicalXor: return loop([](C x, C y) { return (x != C{0}) != (y != C{0}); });
    }
}

class NativeUnaryKernel : public UnaryKernel {
public:
    void Call(UnaryOp op, const Array& x, const Array& out) override {
        VisitDtype(x.dtype(), [&](auto tag) { UnaryImpl<typename decltype(tag)::type>(op, x, out); });
    }
};

class NativeBinaryKernel : public BinaryKernel {
public:
    void Call(BinaryOp op, const Array& a, const Array& b, const Array& out) override {
        VisitDtype(a.dtype(), [&](auto tag) { BinaryImpl<typename decltype(tag)::type>(op, a, b, out); });
    }
};

class NativeCompareKernel : public CompareKernel {
public:
    void Call(CompareOp op, const Array& a, const Array& b, const Array& out) override {
        VisitDtype(a.dtype(), [&](auto tag) { CompareImpl<typename decltype(tag)::type>(op, a, b, out); });
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
                case PredicateOp::kLogicalNot: return loop([](C v) { return v == C{0}; });
                case PredicateOp::kIsNan: return loop([](C v) { return IsNan(v); });
                case PredicateOp::kIsInf:
                    if constexpr (kIsFloat<T>) return loop([](C v) { return std::isinf(v); });
                    else return loop([](C) { return false; });
                case PredicateOp::kIsFinite:
                    if constexpr (kIsFloat<T>) return loop([](C v) { return std::isfinite(v); });
                    else return loop([](C) { return true; });
            }
        });
    }
};

class NativeWhereKernel : public WhereKernel {
public:
    void Call(const Array& condition, const Array& x, const Array& y, const Array& out) override {
        VisitDtype(out.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            ForEachRun<4>(out.shape(), {&out, &condition, &x, &y}, [](int64_t n, char* const* p, const int64_t* s) {
                for (int64_t i = 0; i < n; ++i) {
                    At<T>(p[0], i, s[0]) = At<bool>(p[1], i, s[1]) ? At<T>(p[2], i, s[2]) : At<T>(p[3], i, s[3]);
                }
            });
        });
    }
};

}  // namespace

void RegisterMathKernels(KernelRegistry& registry) {
    registry.Register<UnaryKernel>(std::make_unique<NativeUnaryKernel>());
    registry.Register<BinaryKernel>(std::make_unique<NativeBinaryKernel>());
    registry.Register<CompareKernel>(std::make_unique<NativeCompareKernel>());
    registry.Register<PredicateKernel>(std::make_unique<NativePredicateKernel>());
    registry.Register<WhereKernel>(std::make_unique<NativeWhereKernel>());
}

}  // namespace native
}  // namespace chainerx
