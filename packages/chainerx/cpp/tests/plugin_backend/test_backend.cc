// A tiny backend loaded at run time by the tests: host memory, the native kernels, and its own
// name and device count. It shows everything a plugin has to provide.
#include <cstdlib>
#include <memory>
#include <new>
#include <string>

#include "chainerx/backend.h"
#include "chainerx/context.h"
#include "chainerx/native/native_backend.h"

namespace {

class TestDevice : public chainerx::Device {
public:
    using Device::Device;
    std::shared_ptr<void> Allocate(size_t bytes) override {
        void* ptr = std::malloc(bytes == 0 ? 1 : bytes);
        if (ptr == nullptr) throw std::bad_alloc{};
        return std::shared_ptr<void>{ptr, std::free};
    }
    bool IsHostMemory() const override { return true; }
};

class TestBackend : public chainerx::Backend {
public:
    explicit TestBackend(chainerx::Context& context) : Backend{context} {
        chainerx::native::RegisterNativeKernels(kernel_registry());
    }
    std::string GetName() const override { return "test_backend"; }
    int GetDeviceCount() const override { return 2; }

protected:
    std::unique_ptr<chainerx::Device> CreateDevice(int index) override {
        return std::make_unique<TestDevice>(*this, index);
    }
};

}  // namespace

extern "C" chainerx::Backend* chainerx_create_backend(chainerx::Context* context) { return new TestBackend{*context}; }

extern "C" void chainerx_destroy_backend(chainerx::Backend* backend) { delete backend; }
