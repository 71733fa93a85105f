#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <type_traits>

#include "chainerx/dtype.h"

namespace chainerx {

// A Python-like number (bool, int or float) that is cast to an array's dtype when used.
class Scalar {
public:
    enum class Kind : int8_t { kBool, kInt, kFloat };

    Scalar() : Scalar{int64_t{0}} {}
    Scalar(bool v) : kind_{Kind::kBool}, int_{v ? 1 : 0} {}  // NOLINT: numbers convert implicitly
    template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
    Scalar(T v) : kind_{Kind::kInt}, int_{static_cast<int64_t>(v)} {}          // NOLINT
    Scalar(float v) : kind_{Kind::kFloat}, float_{v} {}                        // NOLINT
    Scalar(double v) : kind_{Kind::kFloat}, float_{v} {}                       // NOLINT
    Scalar(Float16 v) : kind_{Kind::kFloat}, float_{static_cast<float>(v)} {}  // NOLINT

    Kind kind() const { return kind_; }

    template <typename T>
    T As() const {
        if constexpr (std::is_same_v<T, bool>) {
            return kind_ == Kind::kFloat ? float_ != 0.0 : int_ != 0;
        } else if constexpr (std::is_same_v<T, Float16>) {
            return Float16{static_cast<float>(As<double>())};
        } else {
            return kind_ == Kind::kFloat ? static_cast<T>(float_) : static_cast<T>(int_);
        }
    }

    // The dtype NumPy gives this number on its own (bool, int64 or float64).
    Dtype GetDefaultDtype() const;

    std::string ToString() const;

    Scalar operator-() const;

private:
    Kind kind_;
    union {
        int64_t int_;
        double float_;
    };
};

std::ostream& operator<<(std::ostream& os, const Scalar& s);

// The dtype of `array_dtype op scalar` under NumPy 2's rules: a Python scalar only changes the
// result when its kind is higher (an int array with a float scalar gives float64).
Dtype ResultTypeWithScalar(Dtype array_dtype, const Scalar& scalar);

}  // namespace chainerx
