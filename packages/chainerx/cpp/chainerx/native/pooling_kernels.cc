#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "chainerx/kernels/pooling.h"
#include "chainerx/native/math_util.h"
#include "chainerx/native/native_backend.h"
#include "chainerx/native/thread_pool.h"
#include "chainerx/routines/creation.h"

namespace chainerx {
namespace native {
namespace {

// The spatial extents of an array of shape (batch, channel, spatial...).
Shape SpatialShape(const Shape& shape) { return Shape(shape.begin() + 2, shape.end()); }

// Calls f(o, i) for every position of a spatial volume: o its multi-index, i its C-order index.
template <typename F>
void ForEachPosition(const Shape& extent, F&& f) {
    int64_t o[kMaxNdim] = {};
    int64_t n = extent.GetTotalSize();
    for (int64_t i = 0; i < n; ++i) {
        f(static_cast<const int64_t*>(o), i);
        for (int d = extent.ndim() - 1; d >= 0; --d) {
            if (++o[d] < extent[d]) break;
            o[d] = 0;
        }
    }
}

// An array of shape (batch, channel, spatial...) in any layout, seen as planes of a spatial volume.
class PlaneView {
public:
    explicit PlaneView(const Array& a)
        : data_{static_cast<char*>(a.raw_data())},
          channels_{a.shape()[1]},
          planes_{a.shape()[0] * a.shape()[1]},
          extent_{SpatialShape(a.shape())},
          strides_{a.strides()} {}

    int64_t planes() const { return planes_; }
    const Shape& extent() const { return extent_; }
    int64_t volume() const { return extent_.GetTotalSize(); }
    char* plane(int64_t p) const { return data_ + (p / channels_) * strides_[0] + (p % channels_) * strides_[1]; }
    const int64_t* spatial_strides() const { return strides_.data() + 2; }
    // The byte offset of spatial multi-index o within a plane.
    int64_t Offset(const int64_t* o) const {
        int64_t offset = 0;
        for (int d = 0; d < extent_.ndim(); ++d) offset += o[d] * strides_[d + 2];
        return offset;
    }

private:
    char* data_;
    int64_t channels_;
    int64_t planes_;
    Shape extent_;
    Strides strides_;
};

// The windows of one pooling: for every spatial axis and output position, the window's input
// range [lo, hi) clipped to the input.
class PoolWindows {
public:
    PoolWindows(const Shape& in_extent, const Shape& out_extent, const Dims& ksize, const Dims& stride, const Dims& pad)
        : in_{in_extent}, lo_(in_extent.ndim()), hi_(in_extent.ndim()) {
        for (int d = 0; d < in_.ndim(); ++d) {
            full_window_ *= ksize[d];
            for (int64_t o = 0; o < out_extent[d]; ++o) {
                int64_t start = o * stride[d] - pad[d];
                lo_[d].push_back(std::clamp<int64_t>(start, 0, in_[d]));
                hi_[d].push_back(std::clamp<int64_t>(start + ksize[d], 0, in_[d]));
            }
        }
    }

    // Calls f(flat, offset) for every input position in the window of output position o: flat is its
    // C-order index in the spatial volume, offset its byte offset in a plane of the given spatial
    // byte strides. The last axis is the inner loop.
    template <typename F>
    void ForEachInWindow(const int64_t* o, const int64_t* strides, F&& f) const {
        if (in_.ndim() == 2) {  // the common case, without the general walk's bookkeeping
            const int64_t width = in_[1];
            const int64_t x_lo = lo_[1][o[1]];
            const int64_t x_hi = hi_[1][o[1]];
            for (int64_t y = lo_[0][o[0]]; y < hi_[0][o[0]]; ++y) {
                for (int64_t x = x_lo; x < x_hi; ++x) f(y * width + x, y * strides[0] + x * strides[1]);
            }
            return;
        }
        int last = in_.ndim() - 1;
        int64_t lo[kMaxNdim];
        int64_t hi[kMaxNdim];
        int64_t at[kMaxNdim];
        for (int d = 0; d <= last; ++d) {
            lo[d] = lo_[d][o[d]];
            hi[d] = hi_[d][o[d]];
            if (lo[d] >= hi[d]) return;
            at[d] = lo[d];
        }
        while (true) {
            int64_t flat = 0;
            int64_t offset = 0;
            for (int d = 0; d < last; ++d) {
                flat = flat * in_[d] + at[d];
                offset += at[d] * strides[d];
            }
            flat *= in_[last];
            for (int64_t j = lo[last]; j < hi[last]; ++j) f(flat + j, offset + j * strides[last]);
            int d = last - 1;
            for (; d >= 0; --d) {
                if (++at[d] < hi[d]) break;
                at[d] = lo[d];
            }
            if (d < 0) return;
        }
    }

    // What the window sum of output position o is divided by.
    int64_t Divisor(AveragePoolPadMode pad_mode, const int64_t* o) const {
        if (pad_mode == AveragePoolPadMode::kZero) return full_window_;
        int64_t count = 1;
        for (int d = 0; d < in_.ndim(); ++d) count *= std::max<int64_t>(hi_[d][o[d]] - lo_[d][o[d]], 0);
        return std::max<int64_t>(count, 1);
    }

private:
    Shape in_;
    int64_t full_window_{1};
    std::vector<std::vector<int64_t>> lo_;
    std::vector<std::vector<int64_t>> hi_;
};

// Calls f(begin, end) for ranges of planes covering [0, planes), split among the threads; a range
// holds enough planes of `volume` elements to outweigh the hand-over.
template <typename F>
void ForPlaneRanges(int64_t planes, int64_t volume, F&& f) {
    constexpr int64_t kMinElementsPerPart = int64_t{1} << 15;
    int64_t min_planes = kMinElementsPerPart / std::max<int64_t>(volume, 1) + 1;
    ParallelRanges(planes, min_planes, [&](int, int64_t begin, int64_t end) { f(begin, end); });
}

// Calls f(p) for every plane p in [0, planes), the planes split among the threads.
template <typename F>
void ForEachPlane(int64_t planes, int64_t volume, F&& f) {
    ForPlaneRanges(planes, volume, [&](int64_t begin, int64_t end) {
        for (int64_t p = begin; p < end; ++p) f(p);
    });
}

template <typename T>
ComputeType<T> Load(const char* p) {
    return static_cast<ComputeType<T>>(*reinterpret_cast<const T*>(p));
}

// Runs scatter(p, acc) into a zeroed accumulator of plane p of the contiguous gx, then stores it:
// overlapping windows add up in ComputeType (float for float16), not in gx's dtype.
template <typename T, typename Scatter>
void ScatterPlanes(const Array& gx, Scatter&& scatter) {
    PlaneView gxv{gx};
    ForPlaneRanges(gxv.planes(), gxv.volume(), [&](int64_t begin, int64_t end) {
        std::vector<ComputeType<T>> acc(gxv.volume());
        for (int64_t p = begin; p < end; ++p) {
            std::fill(acc.begin(), acc.end(), ComputeType<T>{0});
            scatter(p, acc.data());
            T* gxp = reinterpret_cast<T*>(gxv.plane(p));
            for (size_t k = 0; k < acc.size(); ++k) gxp[k] = static_cast<T>(acc[k]);
        }
    });
}

class NativeMaxPoolKernel : public MaxPoolKernel {
public:
    void Call(const Array& x, const Dims& ksize, const Dims& stride, const Dims& pad, const Array& out,
              const Array& indices) override {
        PlaneView xv{x};
        Shape out_extent = SpatialShape(out.shape());
        PoolWindows windows{xv.extent(), out_extent, ksize, stride, pad};
        int64_t out_volume = out_extent.GetTotalSize();
        VisitFloatingDtype(x.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            using C = ComputeType<T>;
            ForEachPlane(xv.planes(), xv.volume(), [&](int64_t p) {
                const char* xp = xv.plane(p);
                T* outp = static_cast<T*>(out.raw_data()) + p * out_volume;
                int64_t* indexp = static_cast<int64_t*>(indices.raw_data()) + p * out_volume;
                ForEachPosition(out_extent, [&](const int64_t* o, int64_t i) {
                    C best = -std::numeric_limits<C>::infinity();
                    int64_t best_flat = -1;
                    bool has_nan = false;
                    // Selects, not branches (the compiler emits max and cmov): on real data
                    // `v > best` is a coin toss, and mispredictions would dominate.
                    windows.ForEachInWindow(o, xv.spatial_strides(), [&](int64_t flat, int64_t offset) {
                        C v = Load<T>(xp + offset);
                        bool greater = v > best;
                        best_flat = greater ? flat : best_flat;
                        best = greater ? v : best;
                        has_nan |= IsNan(v);
                    });
                    if (best_flat < 0 || has_nan) {
                        // Rare windows of -inf only or with NaN: the first NaN wins as in NumPy's
                        // max, else the first element (an empty window keeps -inf and -1).
                        windows.ForEachInWindow(o, xv.spatial_strides(), [&](int64_t flat, int64_t offset) {
                            C v = Load<T>(xp + offset);
                            if (best_flat < 0 || (IsNan(v) && !IsNan(best))) {
                                best = v;
                                best_flat = flat;
                            }
                        });
                    }
                    outp[i] = static_cast<T>(best);
                    indexp[i] = best_flat;
                });
            });
        });
    }
};

class NativeMaxPoolGradKernel : public MaxPoolGradKernel {
public:
    void Call(const Array& gy, const Array& indices, const Array& gx) override {
        PlaneView gyv{gy};
        VisitFloatingDtype(gy.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            ScatterPlanes<T>(gx, [&](int64_t p, ComputeType<T>* acc) {
                const char* gyp = gyv.plane(p);
                const int64_t* indexp = static_cast<const int64_t*>(indices.raw_data()) + p * gyv.volume();
                ForEachPosition(gyv.extent(), [&](const int64_t* o, int64_t i) {
                    if (indexp[i] >= 0) acc[indexp[i]] += Load<T>(gyp + gyv.Offset(o));
                });
            });
        });
    }
};

class NativeMaxPoolGradGradKernel : public MaxPoolGradGradKernel {
public:
    void Call(const Array& ggx, const Array& indices, const Array& ggy) override {
        // Gathering by flat index wants a contiguous source; ggx usually is one already.
        Array source = AsContiguous(ggx.AsGradStopped());
        PlaneView ggxv{source};
        int64_t out_volume = SpatialShape(ggy.shape()).GetTotalSize();
        VisitFloatingDtype(ggx.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            for (int64_t p = 0; p < ggxv.planes(); ++p) {
                const T* src = reinterpret_cast<const T*>(ggxv.plane(p));
                const int64_t* indexp = static_cast<const int64_t*>(indices.raw_data()) + p * out_volume;
                T* dst = static_cast<T*>(ggy.raw_data()) + p * out_volume;
                for (int64_t i = 0; i < out_volume; ++i) dst[i] = indexp[i] >= 0 ? src[indexp[i]] : T{0};
            }
        });
    }
};

class NativeAveragePoolKernel : public AveragePoolKernel {
public:
    void Call(const Array& x, const Dims& ksize, const Dims& stride, const Dims& pad, AveragePoolPadMode pad_mode,
              const Array& out) override {
        PlaneView xv{x};
        Shape out_extent = SpatialShape(out.shape());
        PoolWindows windows{xv.extent(), out_extent, ksize, stride, pad};
        int64_t out_volume = out_extent.GetTotalSize();
        VisitFloatingDtype(x.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            using C = ComputeType<T>;
            ForEachPlane(xv.planes(), xv.volume(), [&](int64_t p) {
                const char* xp = xv.plane(p);
                T* outp = static_cast<T*>(out.raw_data()) + p * out_volume;
                ForEachPosition(out_extent, [&](const int64_t* o, int64_t i) {
                    C sum{0};
                    windows.ForEachInWindow(o, xv.spatial_strides(),
                                            [&](int64_t, int64_t offset) { sum += Load<T>(xp + offset); });
                    outp[i] = static_cast<T>(sum / static_cast<C>(windows.Divisor(pad_mode, o)));
                });
            });
        });
    }
};

class NativeAveragePoolGradKernel : public AveragePoolGradKernel {
public:
    void Call(const Array& gy, const Dims& ksize, const Dims& stride, const Dims& pad, AveragePoolPadMode pad_mode,
              const Array& gx) override {
        PlaneView gyv{gy};
        PoolWindows windows{SpatialShape(gx.shape()), gyv.extent(), ksize, stride, pad};
        // Offsets are not needed: the accumulator is indexed by flat position.
        Strides unused(gx.ndim() - 2, 0);
        VisitFloatingDtype(gy.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            using C = ComputeType<T>;
            ScatterPlanes<T>(gx, [&](int64_t p, C* acc) {
                const char* gyp = gyv.plane(p);
                ForEachPosition(gyv.extent(), [&](const int64_t* o, int64_t) {
                    C g = Load<T>(gyp + gyv.Offset(o)) / static_cast<C>(windows.Divisor(pad_mode, o));
                    windows.ForEachInWindow(o, unused.data(), [&](int64_t flat, int64_t) { acc[flat] += g; });
                });
            });
        });
    }
};

}  // namespace

void RegisterPoolingKernels(KernelRegistry& registry) {
    registry.Register<MaxPoolKernel>(std::make_unique<NativeMaxPoolKernel>());
    registry.Register<MaxPoolGradKernel>(std::make_unique<NativeMaxPoolGradKernel>());
    registry.Register<MaxPoolGradGradKernel>(std::make_unique<NativeMaxPoolGradGradKernel>());
    registry.Register<AveragePoolKernel>(std::make_unique<NativeAveragePoolKernel>());
    registry.Register<AveragePoolGradKernel>(std::make_unique<NativeAveragePoolGradKernel>());
}

}  // namespace native
}  // namespace chainerx
