#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>

#include "chainerx/error.h"
#include "chainerx/float16.h"

namespace chainerx {

enum class Dtype : int8_t {
    kBool = 0,
    kInt8,
    kInt16,
    kInt32,
    kInt64,
    kUInt8,
    kFloat16,
    kFloat32,
    kFloat64,
};

constexpr int kDtypeCount = 9;

enum class DtypeKind : int8_t { kBool = 0, kInt, kUInt, kFloat };

int64_t GetItemSize(Dtype dtype);
DtypeKind GetKind(Dtype dtype);
const char* GetDtypeName(Dtype dtype);
// Parses a NumPy-style name ("float32", "f4", "int", "bool", ...); throws DtypeError if unknown.
Dtype GetDtype(std::string_view name);
// NumPy's promotion of two array dtypes (e.g. uint8 + int8 -> int16, int32 + float32 -> float64).
Dtype PromoteTypes(Dtype a, Dtype b);

inline bool IsFloating(Dtype dtype) { return GetKind(dtype) == DtypeKind::kFloat; }
inline bool IsIntegral(Dtype dtype) {
    DtypeKind k = GetKind(dtype);
    return k == DtypeKind::kInt || k == DtypeKind::kUInt;
}

std::ostream& operator<<(std::ostream& os, Dtype dtype);

template <typename T>
struct TypeToDtype;
#define CHAINERX_TYPE_TO_DTYPE(T, D)      \
    template <>                           \
    struct TypeToDtype<T> {               \
        static constexpr Dtype value = D; \
    };
CHAINERX_TYPE_TO_DTYPE(bool, Dtype::kBool)
CHAINERX_TYPE_TO_DTYPE(int8_t, Dtype::kInt8)
CHAINERX_TYPE_TO_DTYPE(int16_t, Dtype::kInt16)
CHAINERX_TYPE_TO_DTYPE(int32_t, Dtype::kInt32)
CHAINERX_TYPE_TO_DTYPE(int64_t, Dtype::kInt64)
CHAINERX_TYPE_TO_DTYPE(uint8_t, Dtype::kUInt8)
CHAINERX_TYPE_TO_DTYPE(Float16, Dtype::kFloat16)
CHAINERX_TYPE_TO_DTYPE(float, Dtype::kFloat32)
CHAINERX_TYPE_TO_DTYPE(double, Dtype::kFloat64)
#undef CHAINERX_TYPE_TO_DTYPE

// The type arithmetic is done in: float for float16, the type itself otherwise.
template <typename T>
using ComputeType = std::conditional_t<std::is_same_v<T, Float16>, float, T>;

template <typename T>
struct TypeTag {
    using type = T;
};

// Calls f(TypeTag<T>{}) with the C++ type of dtype: one switch, one instantiation per type.
template <typename F>
decltype(auto) VisitDtype(Dtype dtype, F&& f) {
    switch (dtype) {
        case Dtype::kBool:
            return f(TypeTag<bool>{});
        case Dtype::kInt8:
            return f(TypeTag<int8_t>{});
        case Dtype::kInt16:
            return f(TypeTag<int16_t>{});
        case Dtype::kInt32:
            return f(TypeTag<int32_t>{});
        case Dtype::kInt64:
            return f(TypeTag<int64_t>{});
        case Dtype::kUInt8:
            return f(TypeTag<uint8_t>{});
        case Dtype::kFloat16:
            return f(TypeTag<Float16>{});
        case Dtype::kFloat32:
            return f(TypeTag<float>{});
        case Dtype::kFloat64:
            return f(TypeTag<double>{});
    }
    throw DtypeError{"invalid dtype code ", static_cast<int>(dtype)};
}

// Like VisitDtype but only for the numeric (non-bool) dtypes.
template <typename F>
decltype(auto) VisitNumericDtype(Dtype dtype, F&& f) {
    switch (dtype) {
        case Dtype::kInt8:
            return f(TypeTag<int8_t>{});
        case Dtype::kInt16:
            return f(TypeTag<int16_t>{});
        case Dtype::kInt32:
            return f(TypeTag<int32_t>{});
        case Dtype::kInt64:
            return f(TypeTag<int64_t>{});
        case Dtype::kUInt8:
            return f(TypeTag<uint8_t>{});
        case Dtype::kFloat16:
            return f(TypeTag<Float16>{});
        case Dtype::kFloat32:
            return f(TypeTag<float>{});
        case Dtype::kFloat64:
            return f(TypeTag<double>{});
        default:
            break;
    }
    throw DtypeError{"dtype ", GetDtypeName(dtype), " is not supported: expected a numeric dtype"};
}

template <typename F>
decltype(auto) VisitFloatingDtype(Dtype dtype, F&& f) {
    switch (dtype) {
        case Dtype::kFloat16:
            return f(TypeTag<Float16>{});
        case Dtype::kFloat32:
            return f(TypeTag<float>{});
        case Dtype::kFloat64:
            return f(TypeTag<double>{});
        default:
            break;
    }
    throw DtypeError{"dtype ", GetDtypeName(dtype), " is not supported: expected a floating dtype"};
}

template <typename F>
decltype(auto) VisitIntegralDtype(Dtype dtype, F&& f) {
    switch (dtype) {
        case Dtype::kBool:
            return f(TypeTag<bool>{});
        case Dtype::kInt8:
            return f(TypeTag<int8_t>{});
        case Dtype::kInt16:
            return f(TypeTag<int16_t>{});
        case Dtype::kInt32:
            return f(TypeTag<int32_t>{});
        case Dtype::kInt64:
            return f(TypeTag<int64_t>{});
        case Dtype::kUInt8:
            return f(TypeTag<uint8_t>{});
        default:
            break;
    }
    throw DtypeError{"dtype ", GetDtypeName(dtype), " is not supported: expected an integral or bool dtype"};
}

}  // namespace chainerx
