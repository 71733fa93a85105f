// Element-wise comparisons and selection.
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>

#include "chainerx/kernels/math.h"
#include "chainerx/native/elementwise.h"
#include "chainerx/native/math_util.h"
#include "chainerx/native/native_backend.h"

namespace chainerx {
namespace native {
namespace {

template <typename T>
void CompareImpl(CompareOp op, const Array& a, const Array& b, const Array& out) {
    using C = ComputeType<T>;
    auto loop = [&](auto f) {
        BinaryLoop<bool, T>(a, b, out, [f](T x, T y) { return f(static_cast<C>(x), static_cast<C>(y)); });
    };
    switch (op) {
        case CompareOp::kEqual:
            return loop([](C x, C y) { return x == y; });
        case CompareOp::kNotEqual:
            return loop([](C x, C y) { return x != y; });
        case CompareOp::kGreater:
            return loop([](C x, C y) { return x > y; });
        case CompareOp::kGreaterEqual:
            return loop([](C x, C y) { return x >= y; });
        case CompareOp::kLess:
            return loop([](C x, C y) { return x < y; });
        case CompareOp::kLessEqual:
            return loop([](C x, C y) { return x <= y; });
        case CompareOp::kLogicalAnd:
            return loop([](C x, C y) { return x != C{0} && y != C{0}; });
        case CompareOp::kLogicalOr:
            return loop([](C x, C y) { return x != C{0} || y != C{0}; });
        case CompareOp::kLogicalXor:
            return loop([](C x, C y) { return (x != C{0}) != (y != C{0}); });
    }
}

class NativeCompareKernel : public CompareKernel {
public:
    void Call(CompareOp op, const Array& a, const Array& b, const Array& out) override {
        VisitDtype(a.dtype(), [&](auto tag) { CompareImpl<typename decltype(tag)::type>(op, a, b, out); });
    }
};

template <size_t N>
struct UnsignedOfSize;
template <>
struct UnsignedOfSize<1> {
    using type = uint8_t;
};
template <>
struct UnsignedOfSize<2> {
    using type = uint16_t;
};
template <>
struct UnsignedOfSize<4> {
    using type = uint32_t;
};
template <>
struct UnsignedOfSize<8> {
    using type = uint64_t;
};

// c ? a : b computed on the bits with a mask: compilers vectorize this, while a ternary becomes
// a branch that random masks (relu's) mispredict half of the time.
template <typename T>
inline T Select(bool c, T a, T b) {
    using U = typename UnsignedOfSize<sizeof(T)>::type;
    U ua;
    U ub;
    std::memcpy(&ua, &a, sizeof(T));
    std::memcpy(&ub, &b, sizeof(T));
    U mask = static_cast<U>(-static_cast<U>(c));
    U r = static_cast<U>((ua & mask) | (ub & static_cast<U>(~mask)));
    T out;
    std::memcpy(static_cast<void*>(&out), &r, sizeof(T));  // T is trivially copyable
    return out;
}

class NativeWhereKernel : public WhereKernel {
public:
    void Call(const Array& condition, const Array& x, const Array& y, const Array& out) override {
        VisitDtype(out.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            std::array<const Array*, 4> arrays{&out, &condition, &x, &y};
            ParallelForEachRun<4>(out.shape(), arrays, [](int64_t n, char* const* p, const int64_t* s) {
                constexpr int64_t kT = sizeof(T);
                T* o = reinterpret_cast<T*>(p[0]);
                const bool* c = reinterpret_cast<const bool*>(p[1]);
                const T* a = reinterpret_cast<const T*>(p[2]);
                const T* b = reinterpret_cast<const T*>(p[3]);
                if (s[0] == kT && s[1] == 1 && s[2] == kT && s[3] == 0) {
                    const T bv = *b;  // where(mask, x, scalar): the relu-backward case
                    for (int64_t i = 0; i < n; ++i) o[i] = Select(c[i], a[i], bv);
                } else if (s[0] == kT && s[1] == 1 && s[2] == kT && s[3] == kT) {
                    for (int64_t i = 0; i < n; ++i) o[i] = Select(c[i], a[i], b[i]);
                } else {
                    for (int64_t i = 0; i < n; ++i) {
                        At<T>(p[0], i, s[0]) = At<bool>(p[1], i, s[1]) ? At<T>(p[2], i, s[2]) : At<T>(p[3], i, s[3]);
                    }
                }
            });
        });
    }
};

}  // namespace

void RegisterCompareKernels(KernelRegistry& registry) {
    registry.Register<CompareKernel>(std::make_unique<NativeCompareKernel>());
    registry.Register<WhereKernel>(std::make_unique<NativeWhereKernel>());
}

}  // namespace native
}  // namespace chainerx
