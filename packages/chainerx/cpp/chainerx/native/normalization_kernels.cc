#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "chainerx/kernels/creation.h"
#include "chainerx/kernels/normalization.h"
#include "chainerx/native/elementwise.h"
#include "chainerx/native/native_backend.h"
#include "chainerx/routines/creation.h"
#include "chainerx/routines/manipulation.h"

// Each kernel sweeps x in memory order, whatever the reduced axes and the layout: the statistics
// in one sweep, the output in a second. The variance comes from the same sweep as the mean by
// summing (x - k) and (x - k)^2 in double, with k the first element seen of the channel: the shift
// keeps E[(x - k)^2] - E[x - k]^2 free of cancellation (k lies within the channel's spread), so
// this is as exact as the two-pass formula at one read of x less, and unlike Welford's update it
// needs no division per element and its partial sums run in parallel.

namespace chainerx {
namespace native {
namespace {

// The channels of one call: `count` channels of `size` elements each, and an int64 view of x's shape
// holding each element's channel (an arange over the kept axes, stride 0 along the reduced ones).
// Sweeping that view together with x tells every run of elements its channel.
class Channels {
public:
    Channels(const Array& x, const Axes& axes) {
        Shape kept_as_one;
        for (int d = 0; d < x.ndim(); ++d) {
            bool reduced = std::find(axes.begin(), axes.end(), d) != axes.end();
            kept_as_one.push_back(reduced ? 1 : x.shape()[d]);
        }
        count_ = kept_as_one.GetTotalSize();
        size_ = count_ == 0 ? 0 : x.GetTotalSize() / count_;
        Array ids = Empty(Shape{count_}, Dtype::kInt64, x.device());
        x.device().backend().CallKernel<ArangeKernel>(Scalar{0}, Scalar{1}, ids);
        index_ = internal::BroadcastView(Reshape(ids, kept_as_one), x.shape());
    }

    int64_t count() const { return count_; }
    int64_t size() const { return size_; }

    // Calls f(c, n, ptrs, strides) for runs of n elements of channel c in the arrays (of x's shape).
    template <int N, typename F>
    void ForEachChannelRun(const std::array<const Array*, N>& arrays, F&& f) const {
        std::array<const Array*, N + 1> all{&index_};
        std::copy(arrays.begin(), arrays.end(), all.begin() + 1);
        ForEachRun<N + 1>(index_.shape(), all, [&f](int64_t n, char* const* p, const int64_t* s) {
            if (s[0] == 0) {
                f(*reinterpret_cast<const int64_t*>(p[0]), n, p + 1, s + 1);
                return;
            }
            // The channel changes along the run (a kept axis is innermost, as for axis 0 of (N, C)).
            for (int64_t i = 0; i < n; ++i) {
                char* q[N];
                for (int k = 0; k < N; ++k) q[k] = p[k + 1] + i * s[k + 1];
                f(At<int64_t>(p[0], i, s[0]), 1, q, s + 1);
            }
        });
    }

private:
    int64_t count_;
    int64_t size_;
    Array index_;
};

// A per-channel array (any dtype and layout) as float64 values in C order, and back.
std::vector<double> ChannelValues(const Array& a) {
    Array values = Empty(a.shape(), Dtype::kFloat64, a.device());
    a.device().backend().CallKernel<CopyKernel>(a, values);
    const double* p = static_cast<const double*>(values.raw_data());
    return std::vector<double>(p, p + values.GetTotalSize());
}

void StoreChannelValues(const std::vector<double>& values, const Array& a) {
    Array source = FromContiguousHostData(a.shape(), Dtype::kFloat64, values.data(), a.device());
    a.device().backend().CallKernel<CopyKernel>(source, a);
}

template <typename T>
ComputeType<T> LoadAt(const char* p, int64_t i, int64_t stride) {
    return static_cast<ComputeType<T>>(*reinterpret_cast<const T*>(p + i * stride));
}

template <typename T>
void StoreAt(char* p, int64_t i, int64_t stride, ComputeType<T> v) {
    *reinterpret_cast<T*>(p + i * stride) = static_cast<T>(v);
}

// Calls loop(strides...) with the constant sizeof(T) for every stride when the run is contiguous in
// every array, so the compiler vectorizes that instance; with the actual strides otherwise.
template <typename T, size_t... K, typename Loop>
void WithStrides(const int64_t* s, std::index_sequence<K...>, Loop&& loop) {
    constexpr int64_t kItem = sizeof(T);
    if (((s[K] == kItem) && ...)) {
        loop((static_cast<void>(K), kItem)...);
    } else {
        loop(s[K]...);
    }
}

// The sums over i < n of the K terms that terms(i) returns, in double with four independent partial
// sums each: one chain of dependent additions would leave the loop waiting on the adder's latency.
template <size_t K, typename Terms>
std::array<double, K> SumRun(int64_t n, Terms&& terms) {
    std::array<std::array<double, K>, 4> partial{};
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        for (int j = 0; j < 4; ++j) {
            std::array<double, K> t = terms(i + j);
            for (size_t k = 0; k < K; ++k) partial[j][k] += t[k];
        }
    }
    for (; i < n; ++i) {
        std::array<double, K> t = terms(i);
        for (size_t k = 0; k < K; ++k) partial[0][k] += t[k];
    }
    std::array<double, K> total{};
    for (const std::array<double, K>& p : partial) {
        for (size_t k = 0; k < K; ++k) total[k] += p[k];
    }
    return total;
}

// out = x * scale[c] + offset[c] for the channel c of every element (out contiguous).
template <typename T>
void ApplyChannelAffine(const Channels& channels, const Array& x, const std::vector<double>& scale,
                        const std::vector<double>& offset, const Array& out) {
    using C = ComputeType<T>;
    channels.ForEachChannelRun<2>({&x, &out}, [&](int64_t c, int64_t n, char* const* p, const int64_t* s) {
        C a = static_cast<C>(scale[c]);
        C b = static_cast<C>(offset[c]);
        WithStrides<T>(s, std::make_index_sequence<2>{}, [&](int64_t sx, int64_t sy) {
            for (int64_t i = 0; i < n; ++i) StoreAt<T>(p[1], i, sy, LoadAt<T>(p[0], i, sx) * a + b);
        });
    });
}

class NativeBatchNormKernel : public BatchNormKernel {
public:
    void Call(const Array& x, const Array& gamma, const Array& beta, const Array& running_mean,
              const Array& running_var, double eps, double decay, const Axes& axes, const Array& out,
              const Array& batch_mean, const Array& batch_inv_std) override {
        Channels channels{x, axes};
        int64_t count = channels.count();
        std::vector<double> shift(count);
        std::vector<bool> seen(count, false);
        std::vector<double> sum(count);
        std::vector<double> sum_sq(count);
        VisitFloatingDtype(x.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            channels.ForEachChannelRun<1>({&x}, [&](int64_t c, int64_t n, char* const* p, const int64_t* s) {
                if (!seen[c]) {
                    shift[c] = LoadAt<T>(p[0], 0, s[0]);
                    seen[c] = true;
                }
                double k = shift[c];
                WithStrides<T>(s, std::make_index_sequence<1>{}, [&](int64_t sx) {
                    std::array<double, 2> sums = SumRun<2>(n, [&](int64_t i) {
                        double d = LoadAt<T>(p[0], i, sx) - k;
                        return std::array<double, 2>{d, d * d};
                    });
                    sum[c] += sums[0];
                    sum_sq[c] += sums[1];
                });
            });
        });

        double m = static_cast<double>(channels.size());
        double unbias = m / std::max(m - 1, 1.0);
        std::vector<double> gamma_v = ChannelValues(gamma);
        std::vector<double> beta_v = ChannelValues(beta);
        std::vector<double> running_mean_v = ChannelValues(running_mean);
        std::vector<double> running_var_v = ChannelValues(running_var);
        std::vector<double> mean(count);
        std::vector<double> inv_std(count);
        std::vector<double> scale(count);
        std::vector<double> offset(count);
        for (int64_t c = 0; c < count; ++c) {
            double centered_mean = sum[c] / m;
            double var = std::max(sum_sq[c] / m - centered_mean * centered_mean, 0.0);
            mean[c] = shift[c] + centered_mean;
            inv_std[c] = 1 / std::sqrt(var + eps);
            scale[c] = gamma_v[c] * inv_std[c];
            offset[c] = beta_v[c] - mean[c] * scale[c];
            running_mean_v[c] = decay * running_mean_v[c] + (1 - decay) * mean[c];
            running_var_v[c] = decay * running_var_v[c] + (1 - decay) * var * unbias;
        }
        StoreChannelValues(mean, batch_mean);
        StoreChannelValues(inv_std, batch_inv_std);
        StoreChannelValues(running_mean_v, running_mean);
        StoreChannelValues(running_var_v, running_var);
        VisitFloatingDtype(x.dtype(), [&](auto tag) {
            ApplyChannelAffine<typename decltype(tag)::type>(channels, x, scale, offset, out);
        });
    }
};

class NativeBatchNormGradKernel : public BatchNormGradKernel {
public:
    void Call(const Array& x, const Array& gamma, const Array& gy, const Array& batch_mean, const Array& batch_inv_std,
              const Axes& axes, const Array& gx, const Array& ggamma, const Array& gbeta) override {
        Channels channels{x, axes};
        int64_t count = channels.count();
        std::vector<double> mean = ChannelValues(batch_mean);
        std::vector<double> inv_std = ChannelValues(batch_inv_std);
        std::vector<double> gamma_v = ChannelValues(gamma);
        // Sums of gy and of gy * (x - mean) per channel.
        std::vector<double> sum_gy(count);
        std::vector<double> sum_gy_xc(count);
        VisitFloatingDtype(x.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            channels.ForEachChannelRun<2>({&x, &gy}, [&](int64_t c, int64_t n, char* const* p, const int64_t* s) {
                double mu = mean[c];
                WithStrides<T>(s, std::make_index_sequence<2>{}, [&](int64_t sx, int64_t sg) {
                    std::array<double, 2> sums = SumRun<2>(n, [&](int64_t i) {
                        double g = LoadAt<T>(p[1], i, sg);
                        return std::array<double, 2>{g, g * (LoadAt<T>(p[0], i, sx) - mu)};
                    });
                    sum_gy[c] += sums[0];
                    sum_gy_xc[c] += sums[1];
                });
            });
        });

        // gx = gamma * inv_std * (gy - mean(gy) - xhat * mean(gy * xhat)), with xhat = (x - mean) * inv_std,
        // is gy * a + x * b + c per channel.
        double m = static_cast<double>(channels.size());
        std::vector<double> ggamma_v(count);
        std::vector<double> a(count);
        std::vector<double> b(count);
        std::vector<double> c0(count);
        for (int64_t c = 0; c < count; ++c) {
            ggamma_v[c] = sum_gy_xc[c] * inv_std[c];
            a[c] = gamma_v[c] * inv_std[c];
            b[c] = -a[c] * inv_std[c] * ggamma_v[c] / m;
            c0[c] = -a[c] * sum_gy[c] / m - b[c] * mean[c];
        }
        StoreChannelValues(ggamma_v, ggamma);
        StoreChannelValues(sum_gy, gbeta);
        VisitFloatingDtype(x.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            using C = ComputeType<T>;
            channels.ForEachChannelRun<3>({&x, &gy, &gx}, [&](int64_t c, int64_t n, char* const* p, const int64_t* s) {
                C ca = static_cast<C>(a[c]);
                C cb = static_cast<C>(b[c]);
                C cc = static_cast<C>(c0[c]);
                WithStrides<T>(s, std::make_index_sequence<3>{}, [&](int64_t sx, int64_t sg, int64_t sgx) {
                    for (int64_t i = 0; i < n; ++i) {
                        StoreAt<T>(p[2], i, sgx, LoadAt<T>(p[1], i, sg) * ca + LoadAt<T>(p[0], i, sx) * cb + cc);
                    }
                });
            });
        });
    }
};

class NativeFixedBatchNormKernel : public FixedBatchNormKernel {
public:
    void Call(const Array& x, const Array& gamma, const Array& beta, const Array& mean, const Array& var, double eps,
              const Axes& axes, const Array& out) override {
        Channels channels{x, axes};
        std::vector<double> scale = ChannelValues(gamma);
        std::vector<double> offset = ChannelValues(beta);
        std::vector<double> mean_v = ChannelValues(mean);
        std::vector<double> var_v = ChannelValues(var);
        for (int64_t c = 0; c < channels.count(); ++c) {
            scale[c] /= std::sqrt(var_v[c] + eps);
            offset[c] -= mean_v[c] * scale[c];
        }
        VisitFloatingDtype(x.dtype(), [&](auto tag) {
            ApplyChannelAffine<typename decltype(tag)::type>(channels, x, scale, offset, out);
        });
    }
};

}  // namespace

void RegisterNormalizationKernels(KernelRegistry& registry) {
    registry.Register<BatchNormKernel>(std::make_unique<NativeBatchNormKernel>());
    registry.Register<BatchNormGradKernel>(std::make_unique<NativeBatchNormGradKernel>());
    registry.Register<FixedBatchNormKernel>(std::make_unique<NativeFixedBatchNormKernel>());
}

}  // namespace native
}  // namespace chainerx
