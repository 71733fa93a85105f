#include <cstdint>
#include <memory>
#include <random>

#include "chainerx/kernels/random.h"
#include "chainerx/native/elementwise.h"
#include "chainerx/native/native_backend.h"

namespace chainerx {
namespace native {
namespace {

std::mt19937_64& ThreadEngine() {
    thread_local std::mt19937_64 engine{std::random_device{}()};
    return engine;
}

class NativeRandomKernel : public RandomKernel {
public:
    void Call(RandomDistribution distribution, double param1, double param2, const Array& out) override {
        VisitFloatingDtype(out.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            auto fill = [&](auto dist) {
                std::mt19937_64& engine = ThreadEngine();
                ForEachRun<1>(out.shape(), {&out}, [&](int64_t n, char* const* p, const int64_t* s) {
                    for (int64_t i = 0; i < n; ++i) At<T>(p[0], i, s[0]) = static_cast<T>(dist(engine));
                });
            };
            if (distribution == RandomDistribution::kNormal) {
                fill(std::normal_distribution<double>{param1, param2});
            } else {
                fill(std::uniform_real_distribution<double>{param1, param2});
            }
        });
    }
};

}  // namespace

void RegisterRandomKernels(KernelRegistry& registry) {
    registry.Register<RandomKernel>(std::make_unique<NativeRandomKernel>());
}

}  // namespace native
}  // namespace chainerx
