// Fused softmax cross entropy: one pass over the logits for the loss, one for its gradient.
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "chainerx/error.h"
#include "chainerx/kernels/creation.h"
#include "chainerx/kernels/loss.h"
#include "chainerx/native/native_backend.h"
#include "chainerx/routines/creation.h"

namespace chainerx {
namespace native {
namespace {

// x with contiguous rows, so the loops below run over plain pointers.
Array WithContiguousRows(const Array& x) {
    if (x.IsContiguous()) return x;
    Array copy = Empty(x.shape(), x.dtype(), x.device());
    x.device().backend().CallKernel<CopyKernel>(x, copy);
    return copy;
}

template <typename T>
const T& At1(const Array& a, int64_t i) {
    return *reinterpret_cast<const T*>(static_cast<const char*>(a.raw_data()) + i * a.strides()[0]);
}

// The label of row i, checked against the class count (-1 is the ignore label).
int64_t LabelAt(const Array& t, int64_t i, int64_t n_classes) {
    int64_t label = At1<int64_t>(t, i);
    if (label < -1 || label >= n_classes) {
        throw IndexError{
                "softmax_cross_entropy: label ",       label, " of sample ", i, " is out of range for ", n_classes,
                " classes (use -1 to ignore a sample)"};
    }
    return label;
}

// The maximum of a row in eight independent lanes: one running maximum would be a dependency
// chain as long as the row. A NaN is never picked (the caller's sum propagates it).
template <typename C>
C RowMax(const C* row, int64_t c) {
    constexpr int kLanes = 8;
    C lanes[kLanes];
    for (C& m : lanes) m = -std::numeric_limits<C>::infinity();
    int64_t j = 0;
    for (; j + kLanes <= c; j += kLanes) {
        for (int k = 0; k < kLanes; ++k) lanes[k] = row[j + k] > lanes[k] ? row[j + k] : lanes[k];
    }
    for (; j < c; ++j) lanes[0] = row[j] > lanes[0] ? row[j] : lanes[0];
    C m = lanes[0];
    for (int k = 1; k < kLanes; ++k) m = lanes[k] > m ? lanes[k] : m;
    return m;
}

// log(sum(exp(row))), shifted by the row maximum so exp cannot overflow. The exponentials go to
// scratch (c elements) first: summing them as they come would chain every exp call to the sum.
template <typename T, typename C = ComputeType<T>>
C RowLogSumExp(const T* row, int64_t c, C* scratch) {
    const C* values = scratch;
    if constexpr (std::is_same_v<T, C>) {
        values = row;
    } else {
        for (int64_t j = 0; j < c; ++j) scratch[j] = static_cast<C>(row[j]);
    }
    C m = RowMax(values, c);
    for (int64_t j = 0; j < c; ++j) scratch[j] = std::exp(values[j] - m);
    double sum = 0;
    for (int64_t j = 0; j < c; ++j) sum += scratch[j];
    return m + static_cast<C>(std::log(sum));
}

class NativeSoftmaxCrossEntropyKernel : public SoftmaxCrossEntropyKernel {
public:
    void Call(const Array& x, const Array& t, const Array& loss, const Array& lse) override {
        Array xc = WithContiguousRows(x);
        VisitFloatingDtype(x.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            using C = ComputeType<T>;
            int64_t n = x.shape()[0];
            int64_t c = x.shape()[1];
            const T* xp = static_cast<const T*>(xc.raw_data());
            T* loss_p = static_cast<T*>(loss.raw_data());
            C* lse_p = static_cast<C*>(lse.raw_data());
            std::vector<C> scratch(c);
            for (int64_t i = 0; i < n; ++i) {
                const T* row = xp + i * c;
                int64_t label = LabelAt(t, i, c);
                C row_lse = RowLogSumExp(row, c, scratch.data());
                lse_p[i] = row_lse;
                loss_p[i] = static_cast<T>(label < 0 ? C{0} : row_lse - static_cast<C>(row[label]));
            }
        });
    }
};

class NativeSoftmaxCrossEntropyGradKernel : public SoftmaxCrossEntropyGradKernel {
public:
    void Call(const Array& x, const Array& t, const Array& lse, const Array& gy, const Array& gx) override {
        Array xc = WithContiguousRows(x);
        VisitFloatingDtype(x.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            using C = ComputeType<T>;
            int64_t n = x.shape()[0];
            int64_t c = x.shape()[1];
            const T* xp = static_cast<const T*>(xc.raw_data());
            T* out = static_cast<T*>(gx.raw_data());
            for (int64_t i = 0; i < n; ++i) {
                const T* row = xp + i * c;
                T* out_row = out + i * c;
                int64_t label = LabelAt(t, i, c);
                C g = label < 0 ? C{0} : static_cast<C>(At1<T>(gy, i));
                C row_lse = At1<C>(lse, i);
                auto softmax = [row, row_lse](int64_t j) { return std::exp(static_cast<C>(row[j]) - row_lse); };
                // g * (softmax - onehot): the label's entry is fixed up after the loop.
                for (int64_t j = 0; j < c; ++j) out_row[j] = static_cast<T>(g * softmax(j));
                if (label >= 0) out_row[label] = static_cast<T>(g * (softmax(label) - C{1}));
            }
        });
    }
};

}  // namespace

void RegisterLossKernels(KernelRegistry& registry) {
    registry.Register<SoftmaxCrossEntropyKernel>(std::make_unique<NativeSoftmaxCrossEntropyKernel>());
    registry.Register<SoftmaxCrossEntropyGradKernel>(std::make_unique<NativeSoftmaxCrossEntropyGradKernel>());
}

}  // namespace native
}  // namespace chainerx
