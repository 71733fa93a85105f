#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "chainerx/kernels/creation.h"
#include "chainerx/kernels/reduction.h"
#include "chainerx/native/convert.h"
#include "chainerx/native/native_backend.h"
#include "chainerx/routines/creation.h"

namespace chainerx {
namespace native {
namespace {

template <typename C>
bool IsNanValue(C v) {
    if constexpr (std::is_floating_point_v<C>) {
        return std::isnan(v);
    } else {
        return false;
    }
}

// Sums in a wider type: double for floats, int64 for integers.
template <typename T>
using SumType = std::conditional_t<std::is_integral_v<T>, int64_t, double>;

template <typename T, typename Out>
void ReduceBlocks(ReduceOp op, const T* in, int64_t n_out, int64_t r, Out* out) {
    using C = ComputeType<T>;
    for (int64_t o = 0; o < n_out; ++o) {
        const T* block = in + o * r;
        switch (op) {
            case ReduceOp::kSum: {
                SumType<T> acc{0};
                for (int64_t i = 0; i < r; ++i) acc += static_cast<C>(block[i]);
                out[o] = ConvertValue<Out>(acc);
                break;
            }
            case ReduceOp::kMax:
            case ReduceOp::kMin: {
                bool is_max = op == ReduceOp::kMax;
                C best = static_cast<C>(block[0]);
                for (int64_t i = 1; i < r && !IsNanValue(best); ++i) {
                    C v = static_cast<C>(block[i]);
                    if (IsNanValue(v) || (is_max ? best < v : v < best)) best = v;
                }
                out[o] = ConvertValue<Out>(best);
                break;
            }
            case ReduceOp::kArgMax:
            case ReduceOp::kArgMin: {
                bool is_max = op == ReduceOp::kArgMax;
                int64_t best_index = 0;
                C best = static_cast<C>(block[0]);
                for (int64_t i = 1; i < r && !IsNanValue(best); ++i) {
                    C v = static_cast<C>(block[i]);
                    if (IsNanValue(v) || (is_max ? best < v : v < best)) {
                        best = v;
                        best_index = i;
                    }
                }
                out[o] = static_cast<Out>(best_index);
                break;
            }
            case ReduceOp::kAll:
            case ReduceOp::kAny: {
                bool is_all = op == ReduceOp::kAll;
                bool acc = is_all;
                for (int64_t i = 0; i < r && acc == is_all; ++i) acc = static_cast<C>(block[i]) != C{0};
                out[o] = static_cast<Out>(acc);
                break;
            }
        }
    }
}

// Sums over leading axes of a contiguous array row by row, so the inner loop runs along
// contiguous memory (the bias-gradient case: sum over the batch axis).
template <typename T>
void SumLeadingAxes(const T* in, int64_t rows, int64_t n_out, T* out) {
    using C = ComputeType<T>;
    std::vector<SumType<T>> acc(n_out, SumType<T>{0});
    for (int64_t i = 0; i < rows; ++i) {
        const T* row = in + i * n_out;
        for (int64_t j = 0; j < n_out; ++j) acc[j] += static_cast<C>(row[j]);
    }
    for (int64_t j = 0; j < n_out; ++j) out[j] = ConvertValue<T>(acc[j]);
}

bool IsLeadingAxes(const Axes& axes) {
    for (int i = 0; i < axes.ndim(); ++i) {
        if (axes[i] != i) return false;
    }
    return true;
}

class NativeReduceKernel : public ReduceKernel {
public:
    // Moves the reduced axes last and makes them contiguous, so every output element is the
    // reduction of one contiguous block.
    void Call(ReduceOp op, const Array& x, const Axes& axes, const Array& out) override {
        if (op == ReduceOp::kSum && IsLeadingAxes(axes) && x.IsContiguous() && out.IsContiguous() &&
            axes.ndim() < x.ndim() && out.GetTotalSize() > 0) {
            int64_t n_out = out.GetTotalSize();
            VisitNumericDtype(x.dtype(), [&](auto tag) {
                using T = typename decltype(tag)::type;
                SumLeadingAxes<T>(static_cast<const T*>(x.raw_data()), x.GetTotalSize() / n_out, n_out,
                                  static_cast<T*>(out.raw_data()));
            });
            return;
        }
        Shape shape;
        Strides strides;
        int64_t block = 1;
        for (int d = 0; d < x.ndim(); ++d) {
            if (std::find(axes.begin(), axes.end(), d) == axes.end()) {
                shape.push_back(x.shape()[d]);
                strides.push_back(x.strides()[d]);
            }
        }
        for (int8_t d : axes) {
            shape.push_back(x.shape()[d]);
            strides.push_back(x.strides()[d]);
            block *= x.shape()[d];
        }
        Array in = internal::MakeViewOf(x, shape, strides, x.offset());
        if (!in.IsContiguous()) {
            Array copy = Empty(shape, x.dtype(), x.device());
            x.device().backend().CallKernel<CopyKernel>(in, copy);
            in = copy;
        }
        Array dst = out.IsContiguous() ? out : Empty(out.shape(), out.dtype(), out.device());
        int64_t n_out = dst.GetTotalSize();
        if (n_out > 0) {
            VisitDtype(x.dtype(), [&](auto tag) {
                using T = typename decltype(tag)::type;
                const T* src = static_cast<const T*>(in.raw_data());
                // The output dtype is x's (sum, max, min), int64 (arg*) or bool (all, any).
                void* dst_data = dst.raw_data();
                if (dst.dtype() == x.dtype()) {
                    ReduceBlocks<T, T>(op, src, n_out, block, static_cast<T*>(dst_data));
                } else if (dst.dtype() == Dtype::kInt64) {
                    ReduceBlocks<T, int64_t>(op, src, n_out, block, static_cast<int64_t*>(dst_data));
                } else {
                    ReduceBlocks<T, bool>(op, src, n_out, block, static_cast<bool*>(dst_data));
                }
            });
        }
        if (dst.body() != out.body()) out.device().backend().CallKernel<CopyKernel>(dst, out);
    }
};

}  // namespace

void RegisterReductionKernels(KernelRegistry& registry) {
    registry.Register<ReduceKernel>(std::make_unique<NativeReduceKernel>());
}

}  // namespace native
}  // namespace chainerx
