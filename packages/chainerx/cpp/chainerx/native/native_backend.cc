#include "chainerx/native/native_backend.h"

#include <cstdlib>
#include <new>

namespace chainerx {
namespace native {

std::shared_ptr<void> NativeDevice::Allocate(size_t bytes) {
    // 64-byte alignment suits every SIMD width; aligned_alloc wants a multiple of it.
    constexpr size_t kAlignment = 64;
    size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
    void* ptr = std::aligned_alloc(kAlignment, rounded == 0 ? kAlignment : rounded);
    if (ptr == nullptr) throw std::bad_alloc{};
    return std::shared_ptr<void>{ptr, std::free};
}

NativeBackend::NativeBackend(Context& context) : Backend{context} { RegisterNativeKernels(kernel_registry()); }

std::unique_ptr<Device> NativeBackend::CreateDevice(int index) { return std::make_unique<NativeDevice>(*this, index); }

void RegisterNativeKernels(KernelRegistry& registry) {
    RegisterCreationKernels(registry);
    RegisterUnaryKernels(registry);
    RegisterBinaryKernels(registry);
    RegisterCompareKernels(registry);
    RegisterReductionKernels(registry);
    RegisterIndexingKernels(registry);
    RegisterLinalgKernels(registry);
    RegisterRandomKernels(registry);
    RegisterConnectionKernels(registry);
}

}  // namespace native
}  // namespace chainerx
