// Element-wise arithmetic of two arrays.
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

// Python's and NumPy's float floor division: the quotient that goes with the remainder of
// x % y (fmod corrected to y's sign), so that x // y * y + x % y reproduces x as closely as
// floats allow, rather than floor(x / y) with the rounding of x / y (100.8 // 1.2 is 83, not 84).
template <typename C>
C FloorDivideFloat(C x, C y) {
    if (y == C{0}) return x / y;  // +-inf or NaN, as IEEE division
    C mod = std::fmod(x, y);
    C div = (x - mod) / y;
    if (mod != C{0} && ((y < C{0}) != (mod < C{0}))) div -= C{1};
    if (div == C{0}) return std::copysign(C{0}, x / y);
    C floor_div = std::floor(div);
    return div - floor_div > C{0.5} ? floor_div + C{1} : floor_div;
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
            if constexpr (std::is_same_v<T, bool>)
                return loop([](C x, C y) { return x || y; });
            else
                return loop([](C x, C y) { return static_cast<C>(x + y); });
        case BinaryOp::kSubtract:
            return loop([](C x, C y) { return static_cast<C>(x - y); });
        case BinaryOp::kMultiply:
            if constexpr (std::is_same_v<T, bool>)
                return loop([](C x, C y) { return x && y; });
            else
                return loop([](C x, C y) { return static_cast<C>(x * y); });
        case BinaryOp::kMaximum:
            return loop([](C x, C y) { return IsNan(x) ? x : IsNan(y) ? y : (x < y ? y : x); });
        case BinaryOp::kMinimum:
            return loop([](C x, C y) { return IsNan(x) ? x : IsNan(y) ? y : (y < x ? y : x); });
        default:
            break;
    }
    if constexpr (kIsFloat<T>) {
        switch (op) {
            case BinaryOp::kDivide:
                return loop([](C x, C y) { return x / y; });
            case BinaryOp::kFloorDivide:
                return loop([](C x, C y) { return FloorDivideFloat(x, y); });
            case BinaryOp::kRemainder:
                return loop([](C x, C y) {
                    C r = std::fmod(x, y);
                    if (r != C{0} && ((r < C{0}) != (y < C{0}))) r += y;
                    return r;
                });
            case BinaryOp::kPower:
                return loop([](C x, C y) { return std::pow(x, y); });
            case BinaryOp::kArctan2:
                return loop([](C x, C y) { return std::atan2(x, y); });
            default:
                break;
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
            case BinaryOp::kPower:
                return loop([](C x, C y) { return IntPower(x, y); });
            case BinaryOp::kLeftShift:
                return loop([](C x, C y) { return static_cast<C>(x << y); });
            case BinaryOp::kRightShift:
                return loop([](C x, C y) { return static_cast<C>(x >> y); });
            default:
                break;
        }
    }
    if constexpr (std::is_integral_v<T>) {
        switch (op) {
            case BinaryOp::kBitwiseAnd:
                return loop([](C x, C y) { return static_cast<C>(x & y); });
            case BinaryOp::kBitwiseOr:
                return loop([](C x, C y) { return static_cast<C>(x | y); });
            case BinaryOp::kBitwiseXor:
                return loop([](C x, C y) { return static_cast<C>(x ^ y); });
            default:
                break;
        }
    }
    ThrowUnsupported("this binary function", a.dtype());
}

class NativeBinaryKernel : public BinaryKernel {
public:
    void Call(BinaryOp op, const Array& a, const Array& b, const Array& out) override {
        VisitDtype(a.dtype(), [&](auto tag) { BinaryImpl<typename decltype(tag)::type>(op, a, b, out); });
    }
};

}  // namespace

void RegisterBinaryKernels(KernelRegistry& registry) {
    registry.Register<BinaryKernel>(std::make_unique<NativeBinaryKernel>());
}

}  // namespace native
}  // namespace chainerx
