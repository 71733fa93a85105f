#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "chainerx/device.h"
#include "chainerx/kernel_registry.h"

namespace chainerx {

class Context;

// A family of devices with the kernels that run on them. The native backend is built in;
// others are plugins loaded by Context::GetBackend (see context.h for the entry points).
class Backend {
public:
    explicit Backend(Context& context) : context_{context} {}
    virtual ~Backend() = default;
    Backend(const Backend&) = delete;
    Backend& operator=(const Backend&) = delete;

    virtual std::string GetName() const = 0;
    virtual int GetDeviceCount() const = 0;

    // Returns the device of that index (created on first use); throws DeviceError when out of range.
    Device& GetDevice(int index);

    Context& context() const { return context_; }
    KernelRegistry& kernel_registry() { return kernel_registry_; }

    template <typename K, typename... Args>
    decltype(auto) CallKernel(Args&&... args) {
        return kernel_registry_.Get<K>(GetName()).Call(std::forward<Args>(args)...);
    }

protected:
    virtual std::unique_ptr<Device> CreateDevice(int index) = 0;

private:
    Context& context_;
    KernelRegistry kernel_registry_;
    std::mutex devices_mutex_;
    std::vector<std::unique_ptr<Device>> devices_;
};

}  // namespace chainerx
