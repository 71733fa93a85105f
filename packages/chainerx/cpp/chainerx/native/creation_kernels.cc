#include <cstdint>
#include <memory>

#include "chainerx/kernels/creation.h"
#include "chainerx/native/convert.h"
#include "chainerx/native/elementwise.h"
#include "chainerx/native/native_backend.h"

namespace chainerx {
namespace native {
namespace {

class NativeCopyKernel : public CopyKernel {
public:
    void Call(const Array& src, const Array& dst) override {
        VisitDtype(src.dtype(), [&](auto src_tag) {
            using From = typename decltype(src_tag)::type;
            VisitDtype(dst.dtype(), [&](auto dst_tag) {
                using To = typename decltype(dst_tag)::type;
                UnaryLoop<To, From>(src, dst, [](From v) { return ConvertValue<To>(v); });
            });
        });
    }
};

class NativeFillKernel : public FillKernel {
public:
    void Call(const Array& out, Scalar value) override {
        VisitDtype(out.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            const T v = value.As<T>();
            ForEachRun<1>(out.shape(), {&out}, [v](int64_t n, char* const* p, const int64_t* s) {
                for (int64_t i = 0; i < n; ++i) At<T>(p[0], i, s[0]) = v;
            });
        });
    }
};

class NativeArangeKernel : public ArangeKernel {
public:
    void Call(Scalar start, Scalar step, const Array& out) override {
        VisitNumericDtype(out.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            char* base = static_cast<char*>(out.raw_data());
            int64_t stride = out.strides()[0];
            if constexpr (std::is_integral_v<T>) {
                int64_t a = start.As<int64_t>();
                int64_t d = step.As<int64_t>();
                for (int64_t i = 0; i < out.shape()[0]; ++i) At<T>(base, i, stride) = static_cast<T>(a + i * d);
            } else {
                double a = start.As<double>();
                double d = step.As<double>();
                for (int64_t i = 0; i < out.shape()[0]; ++i) At<T>(base, i, stride) = static_cast<T>(a + i * d);
            }
        });
    }
};

class NativeEyeKernel : public EyeKernel {
public:
    void Call(int64_t k, const Array& out) override {
        VisitDtype(out.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            char* base = static_cast<char*>(out.raw_data());
            for (int64_t i = 0; i < out.shape()[0]; ++i) {
                for (int64_t j = 0; j < out.shape()[1]; ++j) {
                    *reinterpret_cast<T*>(base + i * out.strides()[0] + j * out.strides()[1]) =
                            ConvertValue<T>(j - i == k);
                }
            }
        });
    }
};

}  // namespace

void RegisterCreationKernels(KernelRegistry& registry) {
    registry.Register<CopyKernel>(std::make_unique<NativeCopyKernel>());
    registry.Register<FillKernel>(std::make_unique<NativeFillKernel>());
    registry.Register<ArangeKernel>(std::make_unique<NativeArangeKernel>());
    registry.Register<EyeKernel>(std::make_unique<NativeEyeKernel>());
}

}  // namespace native
}  // namespace chainerx
