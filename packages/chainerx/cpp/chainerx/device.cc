#include "chainerx/device.h"

#include <cstring>

#include "chainerx/backend.h"
#include "chainerx/context.h"
#include "chainerx/error.h"

namespace chainerx {

Device::Device(Backend& backend, int index)
    : backend_{backend}, index_{index}, name_{backend.GetName() + ":" + std::to_string(index)} {}

Context& Device::context() const { return backend_.context(); }

void Device::CopyFrom(void* dst, const void* src, size_t bytes, Device& src_device) {
    // Host memory on both sides is the only case this base class knows; device backends override.
    if (!IsHostMemory() || !src_device.IsHostMemory()) {
        throw DeviceError{
                "cannot transfer from ",          src_device.name(), " to ", name(), ": backend '", backend_.GetName(),
                "' has no transfer for this pair"};
    }
    if (bytes > 0) std::memcpy(dst, src, bytes);
}

namespace {
thread_local Device* t_default_device = nullptr;
}  // namespace

Device& GetDefaultDevice() {
    if (t_default_device == nullptr) {
        t_default_device = &GetDefaultContext().GetDevice("native", 0);
    }
    return *t_default_device;
}

void SetDefaultDevice(Device* device) { t_default_device = device; }

DeviceScope::DeviceScope(Device& device) : previous_{&GetDefaultDevice()} { SetDefaultDevice(&device); }

DeviceScope::~DeviceScope() { SetDefaultDevice(previous_); }

void CheckEqualDevices(const Device& a, const Device& b) {
    if (&a != &b) {
        throw DeviceError{"arrays must be on the same device, got ", a.name(), " and ", b.name(),
                          "; move one with to_device()"};
    }
}

Device& Backend::GetDevice(int index) {
    if (index < 0 || index >= GetDeviceCount()) {
        throw DeviceError{"device index ",  index,       " is out of range for backend '", GetName(), "' which has ",
                          GetDeviceCount(), " device(s)"};
    }
    std::lock_guard<std::mutex> lock{devices_mutex_};
    if (devices_.size() <= static_cast<size_t>(index)) devices_.resize(index + 1);
    if (devices_[index] == nullptr) devices_[index] = CreateDevice(index);
    return *devices_[index];
}

}  // namespace chainerx
