#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "chainerx/kernels/creation.h"
#include "chainerx/kernels/indexing.h"
#include "chainerx/native/convert.h"
#include "chainerx/native/native_backend.h"
#include "chainerx/routines/creation.h"

namespace chainerx {
namespace native {
namespace {

Array ContiguousNoGraph(const Array& a) {
    if (a.IsContiguous()) return a;
    Array copy = Empty(a.shape(), a.dtype(), a.device());
    a.device().backend().CallKernel<CopyKernel>(a, copy);
    return copy;
}

// a viewed as (outer, dim, inner) around `axis`.
struct AxisSplit {
    int64_t outer{1};
    int64_t dim;
    int64_t inner{1};
};

AxisSplit SplitAt(const Shape& shape, int8_t axis) {
    AxisSplit s{1, shape[axis], 1};
    for (int d = 0; d < axis; ++d) s.outer *= shape[d];
    for (int d = axis + 1; d < shape.ndim(); ++d) s.inner *= shape[d];
    return s;
}

class NativeTakeKernel : public TakeKernel {
public:
    void Call(const Array& a, const Array& indices, int8_t axis, const Array& out) override {
        Array src = ContiguousNoGraph(a);
        Array idx = ContiguousNoGraph(indices);
        AxisSplit s = SplitAt(a.shape(), axis);
        int64_t n_idx = idx.GetTotalSize();
        int64_t row_bytes = s.inner * a.GetItemSize();
        const int64_t* ip = static_cast<const int64_t*>(idx.raw_data());
        const char* sp = static_cast<const char*>(src.raw_data());
        char* dp = static_cast<char*>(out.raw_data());
        for (int64_t o = 0; o < s.outer; ++o) {
            for (int64_t j = 0; j < n_idx; ++j) {
                std::memcpy(dp + (o * n_idx + j) * row_bytes, sp + (o * s.dim + ip[j]) * row_bytes, row_bytes);
            }
        }
    }
};

class NativeAddAtKernel : public AddAtKernel {
public:
    void Call(const Array& a, const Array& indices, int8_t axis, const Array& b, const Array& out) override {
        a.device().backend().CallKernel<CopyKernel>(a, out);
        Array idx = ContiguousNoGraph(indices);
        Array src = ContiguousNoGraph(b);
        AxisSplit s = SplitAt(a.shape(), axis);
        int64_t n_idx = idx.GetTotalSize();
        const int64_t* ip = static_cast<const int64_t*>(idx.raw_data());
        VisitNumericDtype(out.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            using C = ComputeType<T>;
            const T* bp = static_cast<const T*>(src.raw_data());
            T* op = static_cast<T*>(out.raw_data());
            for (int64_t o = 0; o < s.outer; ++o) {
                for (int64_t j = 0; j < n_idx; ++j) {
                    T* dst = op + (o * s.dim + ip[j]) * s.inner;
                    const T* from = bp + (o * n_idx + j) * s.inner;
                    for (int64_t i = 0; i < s.inner; ++i) {
                        dst[i] = static_cast<T>(static_cast<C>(dst[i]) + static_cast<C>(from[i]));
                    }
                }
            }
        });
    }
};

class NativeNonzeroKernel : public NonzeroKernel {
public:
    std::vector<Array> Call(const Array& a) override {
        Array src = ContiguousNoGraph(a);
        int64_t total = src.GetTotalSize();
        std::vector<int64_t> flat;
        VisitDtype(a.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            const T* p = static_cast<const T*>(src.raw_data());
            for (int64_t i = 0; i < total; ++i) {
                if (ConvertValue<bool>(p[i])) flat.push_back(i);
            }
        });
        int ndim = a.ndim();
        std::vector<Array> result;
        int64_t count = static_cast<int64_t>(flat.size());
        for (int d = 0; d < std::max(ndim, 1); ++d) result.push_back(Empty(Shape{count}, Dtype::kInt64, a.device()));
        for (int64_t k = 0; k < count; ++k) {
            int64_t rest = flat[k];
            for (int d = ndim - 1; d >= 0; --d) {
                static_cast<int64_t*>(result[d].raw_data())[k] = rest % a.shape()[d];
                rest /= a.shape()[d];
            }
            if (ndim == 0) static_cast<int64_t*>(result[0].raw_data())[k] = 0;
        }
        return result;
    }
};

}  // namespace

void RegisterIndexingKernels(KernelRegistry& registry) {
    registry.Register<TakeKernel>(std::make_unique<NativeTakeKernel>());
    registry.Register<AddAtKernel>(std::make_unique<NativeAddAtKernel>());
    registry.Register<NonzeroKernel>(std::make_unique<NativeNonzeroKernel>());
}

}  // namespace native
}  // namespace chainerx
