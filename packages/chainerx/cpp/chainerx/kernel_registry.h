#pragma once

#include <array>
#include <memory>
#include <string>

#include "chainerx/error.h"

namespace chainerx {

// Every kernel interface (kernels/*.h) has one slot; a backend fills the slots it implements.
enum class KernelId : int {
    kCopy = 0,
    kFill,
    kArange,
    kEye,
    kUnary,
    kBinary,
    kCompare,
    kPredicate,
    kWhere,
    kReduce,
    kTake,
    kScatter,
    kDot,
    kNonzero,
    kRandom,
    // Losses (kernels/loss.h).
    kSoftmaxCrossEntropy,
    kSoftmaxCrossEntropyGrad,
    // Pooling (kernels/pooling.h).
    kMaxPool,
    kMaxPoolGrad,
    kMaxPoolGradGrad,
    kAveragePool,
    kAveragePoolGrad,
    // Normalization (kernels/normalization.h).
    kBatchNorm,
    kBatchNormGrad,
    kFixedBatchNorm,
    // Decompositions and solvers (kernels/linalg.h, LAPACK).
    kCholesky,
    kQr,
    kSvd,
    kEigh,
    kSolve,
    kInv,
    // connection (convolutions)
    kConv,
    kConvTranspose,
    kConvWeightGrad,
    kCount,
};

// Base of kernel interfaces. A kernel class declares `static constexpr KernelId kId` and
// `static constexpr const char* kName`, and a pure virtual Call(...).
class Kernel {
public:
    virtual ~Kernel() = default;
};

class KernelRegistry {
public:
    template <typename K>
    void Register(std::unique_ptr<K> kernel) {
        table_[static_cast<int>(K::kId)] = std::move(kernel);
    }

    template <typename K>
    K& Get(const std::string& backend_name) const {
        Kernel* kernel = table_[static_cast<int>(K::kId)].get();
        if (kernel == nullptr) {
            throw NotImplementedError{"kernel ", K::kName, " is not implemented by backend '", backend_name, "'"};
        }
        return static_cast<K&>(*kernel);
    }

    template <typename K>
    bool Has() const {
        return table_[static_cast<int>(K::kId)] != nullptr;
    }

private:
    std::array<std::unique_ptr<Kernel>, static_cast<int>(KernelId::kCount)> table_{};
};

}  // namespace chainerx
