#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace chainerx {

class Backend;
class Context;

// One memory space and execution place of a backend, named "<backend>:<index>".
class Device {
public:
    Device(Backend& backend, int index);
    virtual ~Device() = default;
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    Backend& backend() const { return backend_; }
    Context& context() const;
    int index() const { return index_; }
    const std::string& name() const { return name_; }

    virtual std::shared_ptr<void> Allocate(size_t bytes) = 0;

    // True if the memory this device allocates can be read and written by host code.
    virtual bool IsHostMemory() const = 0;

    // Copies `bytes` from memory of src_device to memory of this device.
    virtual void CopyFrom(void* dst, const void* src, size_t bytes, Device& src_device);

private:
    Backend& backend_;
    int index_;
    std::string name_;
};

// The thread's default device: set with SetDefaultDevice or DeviceScope, else the default
// context's "native:0".
Device& GetDefaultDevice();
void SetDefaultDevice(Device* device);

// Makes a device the thread's default until the scope ends.
class DeviceScope {
public:
    explicit DeviceScope(Device& device);
    ~DeviceScope();
    DeviceScope(const DeviceScope&) = delete;
    DeviceScope& operator=(const DeviceScope&) = delete;

private:
    Device* previous_;
};

// Throws DeviceError naming both devices unless they are the same.
void CheckEqualDevices(const Device& a, const Device& b);

}  // namespace chainerx
