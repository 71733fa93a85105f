#pragma once

#include <cmath>
#include <type_traits>

#include "chainerx/dtype.h"
#include "chainerx/error.h"

namespace chainerx {
namespace native {

template <typename T>
constexpr bool kIsFloat = std::is_floating_point_v<T> || std::is_same_v<T, Float16>;

template <typename C>
inline bool IsNan(C v) {
    if constexpr (std::is_floating_point_v<C>) {
        return std::isnan(v);
    } else {
        return false;
    }
}

[[noreturn]] inline void ThrowUnsupported(const char* what, Dtype dtype) {
    throw DtypeError{what, " is not supported for dtype ", dtype};
}

}  // namespace native
}  // namespace chainerx
