#pragma once

#include <cstdint>
#include <optional>

#include "chainerx/array.h"
#include "chainerx/shape.h"

namespace chainerx {

// N-dimensional convolution of x (n, c, d1, ..., dN) with w (out_c, c, k1, ..., kN) and an
// optional bias b (out_c,), as Chainer's convolution_nd: stride and pad hold one value per
// spatial axis; with cover_all the output grows so every input position is covered. Inputs of
// any dtypes give their common dtype: float16 is computed in float32, integers and bool exactly
// in float64 (integers then wrap as integer arithmetic). Without spatial axes (x of shape
// (n, c)) it is a product over the channels. Differentiable any number of times.
Array Conv(const Array& x, const Array& w, const std::optional<Array>& b, const Dims& stride, const Dims& pad,
           bool cover_all = false);

// The transposed convolution (Chainer's deconvolution_nd) of x (n, c_in, d1, ..., dN) with
// w (c_in, c_out, k1, ..., kN) and an optional bias b (c_out,). The output size along each axis
// is stride * (d - 1) + k - 2 * pad unless outsize gives one that a convolution (with or without
// cover_all) maps back to d. Dtypes and spatial axes as in Conv. Differentiable any number of
// times.
Array ConvTranspose(const Array& x, const Array& w, const std::optional<Array>& b, const Dims& stride, const Dims& pad,
                    const std::optional<Dims>& outsize = std::nullopt);

namespace internal {

// Chainer's get_conv_outsize and get_deconv_outsize (without dilation); the results may be < 1.
int64_t GetConvOutDim(int64_t in_dim, int64_t kernel_size, int64_t stride, int64_t pad, bool cover_all);
int64_t GetConvTransposeOutDim(int64_t in_dim, int64_t kernel_size, int64_t stride, int64_t pad, bool cover_all);

}  // namespace internal
}  // namespace chainerx
