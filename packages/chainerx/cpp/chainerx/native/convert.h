#pragma once

#include <type_traits>

#include "chainerx/dtype.h"

namespace chainerx {
namespace native {

// Converts one element between storage types the way NumPy's astype does (bool is != 0).
template <typename To, typename From>
inline To ConvertValue(From v) {
    if constexpr (std::is_same_v<To, From>) {
        return v;
    } else if constexpr (std::is_same_v<To, bool>) {
        return static_cast<ComputeType<From>>(v) != 0;
    } else if constexpr (std::is_same_v<To, Float16>) {
        return Float16{static_cast<float>(static_cast<ComputeType<From>>(v))};
    } else {
        return static_cast<To>(static_cast<ComputeType<From>>(v));
    }
}

}  // namespace native
}  // namespace chainerx
