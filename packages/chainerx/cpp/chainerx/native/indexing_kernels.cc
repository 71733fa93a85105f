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

// Byte offsets, in C order, of the elements of a layout restricted to axes [begin, end).
std::vector<int64_t> ElementOffsets(const Shape& shape, const Strides& strides, int begin, int end) {
    int64_t total = 1;
    for (int d = begin; d < end; ++d) total *= shape[d];
    std::vector<int64_t> offsets;
    offsets.reserve(total);
    int64_t counter[kMaxNdim] = {};
    int64_t offset = 0;
    for (int64_t i = 0; i < total; ++i) {
        offsets.push_back(offset);
        for (int d = end - 1; d >= begin; --d) {
            offset += strides[d];
            if (++counter[d] < shape[d]) break;
            offset -= strides[d] * shape[d];
            counter[d] = 0;
        }
    }
    return offsets;
}

// Where the elements that Take reads from (and Scatter writes into) a lie. For a gather along axes
// [axis, axis + k), Take's dense result of shape pre + indices.shape + post is a sequence of runs
// of `run` elements; the (p, i, q)-th run starts pre[p] + gathered[i] + post[q] bytes after a's
// first element. When the post axes are contiguous in a, a run is a whole post block.
struct GatherLayout {
    std::vector<int64_t> pre;
    std::vector<int64_t> gathered;
    std::vector<int64_t> post;
    int64_t run{1};

    GatherLayout(const Array& a, const std::vector<Array>& indices, int8_t axis) {
        int post_begin = axis + static_cast<int>(indices.size());
        pre = ElementOffsets(a.shape(), a.strides(), 0, axis);
        post = ElementOffsets(a.shape(), a.strides(), post_begin, a.ndim());
        Shape post_shape(a.shape().begin() + post_begin, a.shape().end());
        Strides post_strides(a.strides().begin() + post_begin, a.strides().end());
        if (!post.empty() && IsContiguous(post_shape, post_strides, a.GetItemSize())) {
            run = static_cast<int64_t>(post.size());
            post = {0};
        }
        const Shape& index_shape = indices.front().shape();
        gathered.assign(index_shape.GetTotalSize(), 0);
        for (size_t j = 0; j < indices.size(); ++j) {
            const Array& idx = indices[j];
            int64_t dim = a.shape()[axis + j];
            int64_t stride = a.strides()[axis + j];
            const char* base = static_cast<const char*>(idx.raw_data());
            std::vector<int64_t> positions = ElementOffsets(idx.shape(), idx.strides(), 0, idx.ndim());
            for (size_t i = 0; i < positions.size(); ++i) {
                int64_t v = *reinterpret_cast<const int64_t*>(base + positions[i]);
                gathered[i] += (v < 0 ? v + dim : v) * stride;
            }
        }
    }

    // Calls f(byte offset in a, element index in the dense array) for each run, in C order.
    template <typename F>
    void ForEachRun(F&& f) const {
        int64_t dense = 0;
        for (int64_t p : pre) {
            for (int64_t g : gathered) {
                for (int64_t q : post) {
                    f(p + g + q, dense);
                    dense += run;
                }
            }
        }
    }
};

class NativeTakeKernel : public TakeKernel {
public:
    void Call(const Array& a, const std::vector<Array>& indices, int8_t axis, const Array& out) override {
        GatherLayout layout{a, indices, axis};
        int64_t item = a.GetItemSize();
        const char* src = static_cast<const char*>(a.raw_data());
        char* dst = static_cast<char*>(out.raw_data());
        layout.ForEachRun([&](int64_t offset, int64_t dense) {
            std::memcpy(dst + dense * item, src + offset, layout.run * item);
        });
    }
};

class NativeScatterKernel : public ScatterKernel {
public:
    void Call(const Array& a, const std::vector<Array>& indices, int8_t axis, const Array& values,
              bool accumulate) override {
        GatherLayout layout{a, indices, axis};
        Array src = ContiguousNoGraph(values);
        char* dst = static_cast<char*>(a.raw_data());
        if (!accumulate) {
            int64_t item = a.GetItemSize();
            const char* vp = static_cast<const char*>(src.raw_data());
            layout.ForEachRun([&](int64_t offset, int64_t dense) {
                std::memcpy(dst + offset, vp + dense * item, layout.run * item);
            });
            return;
        }
        VisitNumericDtype(a.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            using C = ComputeType<T>;
            const T* vp = static_cast<const T*>(src.raw_data());
            layout.ForEachRun([&](int64_t offset, int64_t dense) {
                T* o = reinterpret_cast<T*>(dst + offset);
                for (int64_t r = 0; r < layout.run; ++r) {
                    o[r] = static_cast<T>(static_cast<C>(o[r]) + static_cast<C>(vp[dense + r]));
                }
            });
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
    registry.Register<ScatterKernel>(std::make_unique<NativeScatterKernel>());
    registry.Register<NonzeroKernel>(std::make_unique<NativeNonzeroKernel>());
}

}  // namespace native
}  // namespace chainerx
