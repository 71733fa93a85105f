#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "chainerx/chainerx.h"

namespace chainerx {
namespace testing {

// A new array of the given shape holding values (converted to dtype).
template <typename T>
Array MakeArray(const Shape& shape, const std::vector<T>& values, Dtype dtype = TypeToDtype<T>::value) {
    // std::vector<bool> has no data(): stage the values in a plain buffer.
    std::unique_ptr<T[]> buffer{new T[values.size()]};
    std::copy(values.begin(), values.end(), buffer.get());
    Array a = FromContiguousHostData(shape, TypeToDtype<T>::value, buffer.get());
    return a.dtype() == dtype ? a : AsType(a, dtype);
}

// The elements of a (any layout, any device) in C order, converted to T.
template <typename T>
std::vector<T> ToVector(const Array& a) {
    Array c = AsContiguous(AsType(a.AsGradStopped(), TypeToDtype<T>::value, false));
    const T* p = static_cast<const T*>(c.raw_data());
    return std::vector<T>(p, p + c.GetTotalSize());
}

inline void ExpectAllClose(const Array& actual, const std::vector<double>& expected, double tol = 1e-6) {
    std::vector<double> got = ToVector<double>(actual);
    ASSERT_EQ(got.size(), expected.size());
    for (size_t i = 0; i < got.size(); ++i) {
        EXPECT_NEAR(got[i], expected[i], tol * (1 + std::abs(expected[i]))) << "at flat index " << i;
    }
}

// Central differences of sum(f(x) * gy) with respect to x (float64), compared with backward.
inline void CheckGradient(const std::function<Array(const Array&)>& f, const Array& x, double eps = 1e-6,
                          double tol = 1e-5) {
    Array xg = Copy(x).RequireGrad();
    Array y = f(xg);
    Array gy = RandomUniform(0.5, 1.5, y.shape(), y.dtype());
    Backward({Sum(Multiply(y, gy))});
    std::vector<double> analytic = ToVector<double>(*xg.GetGrad());
    std::vector<double> base = ToVector<double>(x);
    for (size_t i = 0; i < base.size(); ++i) {
        auto eval = [&](double delta) {
            std::vector<double> v = base;
            v[i] += delta;
            Array xp = FromContiguousHostData(x.shape(), Dtype::kFloat64, v.data());
            return ToVector<double>(Sum(Multiply(f(xp), gy)))[0];
        };
        double numeric = (eval(eps) - eval(-eps)) / (2 * eps);
        EXPECT_NEAR(analytic[i], numeric, tol * (1 + std::abs(numeric))) << "gradient at flat index " << i;
    }
}

// x -> d sum(f(x) * w) / dx computed with double backprop, so that CheckGradient on it checks the
// second derivatives of f.
inline std::function<Array(const Array&)> GradientOf(std::function<Array(const Array&)> f, Array w) {
    return [f = std::move(f), w = std::move(w)](const Array& x) {
        // Numerical passes give arrays outside any graph; they need one to take gradients in.
        Array leaf = x.IsGradRequired() ? x : Copy(x).RequireGrad();
        return *Grad({Sum(Multiply(f(leaf), w))}, {leaf}, std::nullopt, DoubleBackpropOption::kEnable)[0];
    };
}

// CheckGradient of GradientOf(f) with random weights: checks f's second derivatives, and that the
// backward of every routine f uses is itself differentiable.
inline void CheckDoubleGradient(const std::function<Array(const Array&)>& f, const Array& x, double eps = 1e-6,
                                double tol = 1e-5) {
    CheckGradient(GradientOf(f, RandomUniform(0.5, 1.5, f(x).shape(), x.dtype())), x, eps, tol);
}

// Expects f to throw E with a message containing fragment (messages are part of the interface).
template <typename E, typename F>
void ExpectThrowWith(F&& f, const std::string& fragment) {
    try {
        f();
        ADD_FAILURE() << "no exception, expected one containing: " << fragment;
    } catch (const E& e) {
        EXPECT_NE(std::string{e.what()}.find(fragment), std::string::npos) << e.what();
    }
}

}  // namespace testing
}  // namespace chainerx
