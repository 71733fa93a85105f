// Convolutions as GEMMs over column matrices (im2col / col2im). The batch is folded into the
// column matrix, so one GEMM covers many samples; large batches go in chunks that bound its size.
// The batch is split among the native thread pool's threads (thread_pool.h), each unfolding its
// samples and running single-threaded GEMMs on them: the unfolding is as parallel as the GEMMs.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "chainerx/backend.h"
#include "chainerx/kernels/connection.h"
#include "chainerx/kernels/linalg.h"
#include "chainerx/native/im2col.h"
#include "chainerx/native/native_backend.h"
#include "chainerx/native/thread_pool.h"
#include "chainerx/routines/creation.h"
#include "chainerx/routines/manipulation.h"

namespace chainerx {
namespace native {
namespace {

// Samples per column matrix: as many as keep it near a core's L2 cache (so the GEMM reads what
// im2col has just written from cache, and large batches need no huge buffer), at least one.
int64_t SamplesPerChunk(int64_t batch, int64_t col_elements_per_sample) {
    constexpr int64_t kBudget = int64_t{1} << 18;
    return std::clamp<int64_t>(kBudget / std::max<int64_t>(col_elements_per_sample, 1), 1, std::max<int64_t>(batch, 1));
}

// Calls f(part, first, count) for chunks of at most `chunk` samples covering [0, batch): the batch
// is split among the threads (part numbers the share), each going through its share's chunks.
// A share holds enough samples of col_elements_per_sample to outweigh the hand-over.
template <typename F>
void ForEachChunk(int64_t batch, int64_t chunk, int64_t col_elements_per_sample, F&& f) {
    constexpr int64_t kMinElementsPerPart = int64_t{1} << 16;
    int64_t min_samples = kMinElementsPerPart / std::max<int64_t>(col_elements_per_sample, 1) + 1;
    ParallelRanges(batch, min_samples, [&](int part, int64_t begin, int64_t end) {
        for (int64_t first = begin; first < end; first += chunk) f(part, first, std::min(chunk, end - first));
    });
}

Dims SpatialDims(const Array& a) { return Dims(a.shape().begin() + 2, a.shape().end()); }

// A graph-free contiguous version of a, without a copy when it already is one.
Array ContiguousData(const Array& a) { return AsContiguous(a.AsGradStopped()); }

// out = a @ b for 2-D arrays, through the backend's GEMM.
void Gemm(const Array& a, const Array& b, const Array& out) { a.device().backend().CallKernel<DotKernel>(a, b, out); }

template <typename T>
const T* Data(const Array& a) {
    return static_cast<const T*>(a.raw_data());
}
template <typename T>
T* MutableData(const Array& a) {
    return static_cast<T*>(a.raw_data());
}

// The column matrix (channels * prod(kernel), count * prod(cols)) of samples [first, first + count)
// of a contiguous image batch.
template <typename T>
Array Im2Col(const UnfoldGeometry& g, const Array& images, int64_t first, int64_t count) {
    int64_t cols = count * g.ColSize();
    Array col = Empty(Shape{g.channels * g.KernelSize(), cols}, images.dtype(), images.device());
    const T* src = Data<T>(images) + first * g.channels * g.ImageSize();
    T* dst = MutableData<T>(col);
    for (int64_t i = 0; i < count; ++i) {
        Unfold<true, T>(g, src + i * g.channels * g.ImageSize(), dst + i * g.ColSize(), cols);
    }
    return col;
}

// Samples [first, first + count) of a contiguous (n, channels, size) array as a (channels,
// count * size) matrix: the layout that lets one GEMM cover the batch.
template <typename T>
Array ToChannelMajor(const Array& a, int64_t first, int64_t count) {
    int64_t channels = a.shape()[1];
    int64_t size = Shape(a.shape().begin() + 2, a.shape().end()).GetTotalSize();
    Array out = Empty(Shape{channels, count * size}, a.dtype(), a.device());
    const T* src = Data<T>(a) + first * channels * size;
    T* dst = MutableData<T>(out);
    for (int64_t i = 0; i < count; ++i) {
        for (int64_t c = 0; c < channels; ++c) {
            std::copy_n(src + (i * channels + c) * size, size, dst + (c * count + i) * size);
        }
    }
    return out;
}

// The contiguous data of an optional bias; a null array when there is none.
Array BiasData(const std::optional<Array>& b) { return b.has_value() ? ContiguousData(*b) : Array{}; }

// bias[c] added to every element of channel c of `count` contiguous samples; a null bias adds nothing.
template <typename T>
void AddBias(const Array& bias, T* samples, int64_t count, int64_t channels, int64_t size) {
    if (bias.is_null()) return;
    const T* b = Data<T>(bias);
    for (int64_t i = 0; i < count; ++i) {
        for (int64_t c = 0; c < channels; ++c) {
            T* plane = samples + (i * channels + c) * size;
            std::for_each(plane, plane + size, [v = b[c]](T& e) { e += v; });
        }
    }
}

// acc += add, for contiguous arrays of one size.
template <typename T>
void AddTo(const Array& add, const Array& acc) {
    T* a = MutableData<T>(acc);
    const T* b = Data<T>(add);
    for (int64_t i = 0; i < acc.GetTotalSize(); ++i) a[i] += b[i];
}

template <typename T>
void Conv(const Array& x, const Array& w, const std::optional<Array>& b, const Dims& stride, const Dims& pad,
          const Array& out) {
    Array xc = ContiguousData(x);
    Array bc = BiasData(b);
    int64_t batch = x.shape()[0];
    int64_t out_channels = w.shape()[0];
    UnfoldGeometry g{x.shape()[1], SpatialDims(x), SpatialDims(w), SpatialDims(out), stride, pad};
    int64_t size = g.ColSize();
    Array w2 = Reshape(ContiguousData(w), Shape{out_channels, g.channels * g.KernelSize()});
    int64_t chunk = SamplesPerChunk(batch, g.ColElements());
    ForEachChunk(batch, chunk, g.ColElements(), [&](int, int64_t first, int64_t count) {
        Array y = Empty(Shape{out_channels, count * size}, out.dtype(), out.device());
        Gemm(w2, Im2Col<T>(g, xc, first, count), y);
        // (out_channels, count, size) -> (count, out_channels, size), then the bias.
        const T* src = Data<T>(y);
        T* dst = MutableData<T>(out) + first * out_channels * size;
        for (int64_t i = 0; i < count; ++i) {
            for (int64_t c = 0; c < out_channels; ++c) {
                std::copy_n(src + (c * count + i) * size, size, dst + (i * out_channels + c) * size);
            }
        }
        AddBias<T>(bc, dst, count, out_channels, size);
    });
}

template <typename T>
void ConvTranspose(const Array& x, const Array& w, const std::optional<Array>& b, const Dims& stride, const Dims& pad,
                   const Array& out) {
    Array xc = ContiguousData(x);
    Array bc = BiasData(b);
    int64_t batch = x.shape()[0];
    int64_t in_channels = x.shape()[1];
    // out is the image, x the columns: this is the adjoint of Conv.
    UnfoldGeometry g{out.shape()[1], SpatialDims(out), SpatialDims(w), SpatialDims(x), stride, pad};
    int64_t image_elements = g.channels * g.ImageSize();
    Array w2t = Transpose(Reshape(ContiguousData(w), Shape{in_channels, g.channels * g.KernelSize()}));
    int64_t chunk = SamplesPerChunk(batch, g.ColElements());
    ForEachChunk(batch, chunk, g.ColElements(), [&](int, int64_t first, int64_t count) {
        Array col = Empty(Shape{g.channels * g.KernelSize(), count * g.ColSize()}, out.dtype(), out.device());
        Gemm(w2t, ToChannelMajor<T>(xc, first, count), col);
        const T* src = Data<T>(col);
        T* dst = MutableData<T>(out) + first * image_elements;
        std::fill(dst, dst + count * image_elements, T{0});
        for (int64_t i = 0; i < count; ++i) {
            Unfold<false, T>(g, dst + i * image_elements, src + i * g.ColSize(), count * g.ColSize());
        }
        AddBias<T>(bc, dst, count, g.channels, g.ImageSize());
    });
}

template <typename T>
void ConvWeightGrad(const Array& x, const Array& gy, const Dims& stride, const Dims& pad, const Array& gw) {
    Array xc = ContiguousData(x);
    Array gyc = ContiguousData(gy);
    int64_t batch = x.shape()[0];
    int64_t out_channels = gw.shape()[0];
    UnfoldGeometry g{x.shape()[1], SpatialDims(x), SpatialDims(gw), SpatialDims(gy), stride, pad};
    Array gw2 = Reshape(gw, Shape{out_channels, g.channels * g.KernelSize()});
    int64_t chunk = SamplesPerChunk(batch, g.ColElements());
    if (batch == 0) std::fill_n(MutableData<T>(gw), gw.GetTotalSize(), T{0});
    // Each thread's share of the batch sums into its own matrix (the first thread's is gw2); the
    // others are added to gw2 in order afterwards.
    std::vector<Array> sums(NumThreads());
    ForEachChunk(batch, chunk, g.ColElements(), [&](int part, int64_t first, int64_t count) {
        // sum = gy (out_channels, count * size) @ col^T; later chunks add to it.
        bool fresh = sums[part].is_null();
        if (fresh) sums[part] = part == 0 ? gw2 : EmptyLike(gw2);
        Array product = fresh ? sums[part] : EmptyLike(gw2);
        Gemm(ToChannelMajor<T>(gyc, first, count), Transpose(Im2Col<T>(g, xc, first, count)), product);
        if (!fresh) AddTo<T>(product, sums[part]);
    });
    for (size_t part = 1; part < sums.size(); ++part) {
        if (!sums[part].is_null()) AddTo<T>(sums[part], gw2);
    }
}

// Dispatches a float32 / float64 call; the routines convert float16 and reject other dtypes.
template <typename F>
void VisitConvDtype(Dtype dtype, const char* kernel, F&& f) {
    if (dtype == Dtype::kFloat32) return f(float{});
    if (dtype == Dtype::kFloat64) return f(double{});
    throw DtypeError{"the native ", kernel, " kernel takes float32 or float64, got ", dtype};
}

class NativeConvKernel : public ConvKernel {
public:
    void Call(const Array& x, const Array& w, const std::optional<Array>& b, const Dims& stride, const Dims& pad,
              const Array& out) override {
        VisitConvDtype(out.dtype(), kName, [&](auto tag) { Conv<decltype(tag)>(x, w, b, stride, pad, out); });
    }
};

class NativeConvTransposeKernel : public ConvTransposeKernel {
public:
    void Call(const Array& x, const Array& w, const std::optional<Array>& b, const Dims& stride, const Dims& pad,
              const Array& out) override {
        VisitConvDtype(out.dtype(), kName, [&](auto tag) { ConvTranspose<decltype(tag)>(x, w, b, stride, pad, out); });
    }
};

class NativeConvWeightGradKernel : public ConvWeightGradKernel {
public:
    void Call(const Array& x, const Array& gy, const Dims& stride, const Dims& pad, const Array& gw) override {
        VisitConvDtype(gw.dtype(), kName, [&](auto tag) { ConvWeightGrad<decltype(tag)>(x, gy, stride, pad, gw); });
    }
};

}  // namespace

void RegisterConnectionKernels(KernelRegistry& registry) {
    registry.Register<ConvKernel>(std::make_unique<NativeConvKernel>());
    registry.Register<ConvTransposeKernel>(std::make_unique<NativeConvTransposeKernel>());
    registry.Register<ConvWeightGradKernel>(std::make_unique<NativeConvWeightGradKernel>());
}

}  // namespace native
}  // namespace chainerx
