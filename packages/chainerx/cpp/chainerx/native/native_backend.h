#pragma once

#include <memory>
#include <string>

#include "chainerx/backend.h"
#include "chainerx/device.h"

namespace chainerx {
namespace native {

// Host memory and CPU kernels; its devices "native:0".."native:3" all share the host.
class NativeDevice : public Device {
public:
    using Device::Device;
    std::shared_ptr<void> Allocate(size_t bytes) override;
    bool IsHostMemory() const override { return true; }
};

class NativeBackend : public Backend {
public:
    static constexpr int kDeviceCount = 4;

    explicit NativeBackend(Context& context);
    std::string GetName() const override { return "native"; }
    int GetDeviceCount() const override { return kDeviceCount; }

protected:
    std::unique_ptr<Device> CreateDevice(int index) override;
};

// Fills a registry with every native kernel; plugin backends that run on the host reuse it.
void RegisterNativeKernels(KernelRegistry& registry);

// One per kernels/*.h family, defined next to the kernels.
void RegisterCreationKernels(KernelRegistry& registry);
void RegisterUnaryKernels(KernelRegistry& registry);
void RegisterBinaryKernels(KernelRegistry& registry);
void RegisterCompareKernels(KernelRegistry& registry);
void RegisterReductionKernels(KernelRegistry& registry);
void RegisterIndexingKernels(KernelRegistry& registry);
void RegisterLinalgKernels(KernelRegistry& registry);
void RegisterRandomKernels(KernelRegistry& registry);
void RegisterLossKernels(KernelRegistry& registry);
void RegisterPoolingKernels(KernelRegistry& registry);
void RegisterNormalizationKernels(KernelRegistry& registry);
void RegisterConnectionKernels(KernelRegistry& registry);

}  // namespace native
}  // namespace chainerx
