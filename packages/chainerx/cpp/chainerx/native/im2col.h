#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "chainerx/shape.h"

namespace chainerx {
namespace native {

// The sizes of one unfolding between an image (channels, image...) and its column matrix
// (channels * prod(kernel), prod(cols)): column o of row (c, k) holds image[c, o * stride - pad + k].
// cols are the output positions of the convolution the matrix stands for.
struct UnfoldGeometry {
    int64_t channels;
    Dims image;
    Dims kernel;
    Dims cols;
    Dims stride;
    Dims pad;

    int64_t ImageSize() const { return Product(image); }
    int64_t KernelSize() const { return Product(kernel); }
    int64_t ColSize() const { return Product(cols); }
    // Elements of one sample's column matrix.
    int64_t ColElements() const { return channels * KernelSize() * ColSize(); }

private:
    static int64_t Product(const Dims& dims) {
        int64_t n = 1;
        for (int64_t d : dims) n *= d;
        return n;
    }
};

namespace unfold_detail {

// ceil(a / b) for b > 0 and a of any sign.
inline int64_t CeilDiv(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

// Advances the multi-index over the first `count` axes of sizes (the last of them fastest).
inline void Increment(Dims& index, const Dims& sizes, int count) {
    for (int d = count - 1; d >= 0; --d) {
        if (++index[d] < sizes[d]) return;
        index[d] = 0;
    }
}

// dst[0, n) = src[0, n). Runs are often a handful of elements: fixed-size blocks compile to
// vector moves where a memmove call per run would cost more than the copy.
template <typename T>
void CopyRun(const T* src, int64_t n, T* dst) {
    constexpr int64_t kBlock = 32 / sizeof(T);
    int64_t j = 0;
    for (; j + kBlock <= n; j += kBlock) std::memcpy(dst + j, src + j, kBlock * sizeof(T));
    for (; j < n; ++j) dst[j] = src[j];
}

// dst[0, n) += src[0, n), in the same fixed-size blocks.
template <typename T>
void AddRun(const T* src, int64_t n, T* dst) {
    constexpr int64_t kBlock = 32 / sizeof(T);
    int64_t j = 0;
    for (; j + kBlock <= n; j += kBlock) {
        T block[kBlock];
        std::memcpy(block, src + j, sizeof(block));
        for (int64_t i = 0; i < kBlock; ++i) dst[j + i] += block[i];
    }
    for (; j < n; ++j) dst[j] += src[j];
}

}  // namespace unfold_detail

// kToCol (im2col): col[(c, k), o] = image[c, o * stride - pad + k], zero outside the image.
// Otherwise (col2im): image[c, o * stride - pad + k] += col[(c, k), o], dropping positions outside.
// image is one contiguous sample; col points at the sample's first column, rows ld elements apart.
// The walk goes along the last spatial axis, whose in-image range per kernel offset is computed
// once, so the inner loops are plain copies (or adds); the kernel offsets along the last axis are
// innermost, so they share one image row.
template <bool kToCol, typename T>
void Unfold(const UnfoldGeometry& g, std::conditional_t<kToCol, const T*, T*> image,
            std::conditional_t<kToCol, T*, const T*> col, int64_t ld) {
    using unfold_detail::CeilDiv;
    using unfold_detail::Increment;
    const int last = g.image.size() - 1;
    const int64_t in_last = g.image[last];
    const int64_t out_last = g.cols[last];
    const int64_t k_last = g.kernel[last];
    const int64_t s = g.stride[last];
    const int64_t p = g.pad[last];
    // Output positions [lo, hi) along the last axis read inside the image, per kernel offset.
    std::vector<int64_t> lo(k_last);
    std::vector<int64_t> hi(k_last);
    for (int64_t kl = 0; kl < k_last; ++kl) {
        lo[kl] = std::clamp<int64_t>(CeilDiv(p - kl, s), 0, out_last);
        hi[kl] = std::clamp<int64_t>(CeilDiv(in_last + p - kl, s), lo[kl], out_last);
    }
    // With stride 1 and every offset reading whole rows (so no padding), rows are plain copies.
    bool whole_rows = s == 1;
    for (int64_t kl = 0; kl < k_last; ++kl) whole_rows = whole_rows && lo[kl] == 0 && hi[kl] == out_last;
    const int64_t segments = g.ColSize() / std::max<int64_t>(out_last, 1);
    const int64_t outer_kernel = g.KernelSize() / k_last;
    Dims k(last, 0);
    for (int64_t c = 0; c < g.channels; ++c) {
        auto plane = image + c * g.ImageSize();
        for (int64_t ko = 0; ko < outer_kernel; ++ko, Increment(k, g.kernel, last)) {
            auto rows = col + (c * outer_kernel + ko) * k_last * ld;
            Dims o(last, 0);
            for (int64_t seg = 0; seg < segments; ++seg, Increment(o, g.cols, last)) {
                auto col_seg = rows + seg * out_last;
                int64_t offset = 0;
                bool inside = true;
                for (int d = 0; d < last && inside; ++d) {
                    int64_t i = o[d] * g.stride[d] - g.pad[d] + k[d];
                    inside = i >= 0 && i < g.image[d];
                    offset = offset * g.image[d] + i;
                }
                if (!inside) {
                    if constexpr (kToCol) {
                        for (int64_t kl = 0; kl < k_last; ++kl) std::fill_n(col_seg + kl * ld, out_last, T{0});
                    }
                    continue;
                }
                if (whole_rows) {
                    auto image_row = plane + offset * in_last;
                    for (int64_t kl = 0; kl < k_last; ++kl) {
                        if constexpr (kToCol) {
                            unfold_detail::CopyRun(image_row + kl, out_last, col_seg + kl * ld);
                        } else {
                            unfold_detail::AddRun(col_seg + kl * ld, out_last, image_row + kl);
                        }
                    }
                    continue;
                }
                for (int64_t kl = 0; kl < k_last; ++kl) {
                    auto col_row = col_seg + kl * ld;
                    const int64_t a = lo[kl];
                    const int64_t b = hi[kl];
                    if (a == b) {
                        if constexpr (kToCol) std::fill_n(col_row, out_last, T{0});
                        continue;
                    }
                    auto first = plane + (offset * in_last + a * s - p + kl);
                    if constexpr (kToCol) {
                        std::fill(col_row, col_row + a, T{0});
                        if (s == 1) {
                            unfold_detail::CopyRun(first, b - a, col_row + a);
                        } else if (s == 2) {  // common enough to deserve a loop the compiler vectorizes
                            for (int64_t j = 0; j < b - a; ++j) col_row[a + j] = first[2 * j];
                        } else {
                            for (int64_t j = a; j < b; ++j) col_row[j] = first[(j - a) * s];
                        }
                        std::fill(col_row + b, col_row + out_last, T{0});
                    } else if (s == 1) {
                        unfold_detail::AddRun(col_row + a, b - a, first);
                    } else {
                        for (int64_t j = a; j < b; ++j) first[(j - a) * s] += col_row[j];
                    }
                }
            }
        }
    }
}

}  // namespace native
}  // namespace chainerx
