#pragma once

#include <cstdint>

#include "chainerx/array.h"
#include "chainerx/kernel_registry.h"

namespace chainerx {

enum class RandomDistribution : int8_t {
    kNormal,   // parameters: mean, standard deviation
    kUniform,  // parameters: low, high (half-open)
};

// Fills a floating out with independent samples.
class RandomKernel : public Kernel {
public:
    static constexpr KernelId kId = KernelId::kRandom;
    static constexpr const char* kName = "Random";
    virtual void Call(RandomDistribution distribution, double param1, double param2, const Array& out) = 0;
};

}  // namespace chainerx
