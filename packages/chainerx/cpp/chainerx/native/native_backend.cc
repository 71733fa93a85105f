#include "chainerx/native/native_backend.h"

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

#include "chainerx/native/thread_pool.h"

namespace chainerx {
namespace native {

namespace {

// 64-byte alignment suits every SIMD width.
constexpr size_t kAlignment = 64;

// The empty object a data block's control block holds; the data follows the control block.
struct DataBlockHead {};

// Allocates a shared_ptr control block with room for the data behind it, so an array costs one
// malloc instead of two (data, then control block). allocate_shared calls allocate() once, for
// the control block; it writes where the aligned data starts to *data (a variable of the caller
// of allocate_shared, not used afterwards). Plain malloc: glibc's aligned_alloc is several times
// slower (it splits chunks, fragmenting the heap), which host-bound code feels.
template <typename T>
class DataBlockAllocator {
public:
    using value_type = T;

    DataBlockAllocator(size_t data_bytes, void** data) : data_bytes_{data_bytes}, data_{data} {}
    template <typename U>
    DataBlockAllocator(const DataBlockAllocator<U>& other) : data_bytes_{other.data_bytes()}, data_{other.data()} {}

    T* allocate(size_t n) {
        size_t head = n * sizeof(T);
        char* block = static_cast<char*>(std::malloc(head + kAlignment + data_bytes_));
        if (block == nullptr) throw std::bad_alloc{};
        auto data_start = reinterpret_cast<std::uintptr_t>(block + head);
        *data_ = reinterpret_cast<void*>((data_start + kAlignment - 1) / kAlignment * kAlignment);
        return reinterpret_cast<T*>(block);
    }
    void deallocate(T* p, size_t) noexcept { std::free(p); }

    size_t data_bytes() const { return data_bytes_; }
    void** data() const { return data_; }

    template <typename U>
    bool operator==(const DataBlockAllocator<U>& other) const {
        return data_ == other.data();
    }
    template <typename U>
    bool operator!=(const DataBlockAllocator<U>& other) const {
        return !(*this == other);
    }

private:
    size_t data_bytes_;
    void** data_;
};

}  // namespace

std::shared_ptr<void> NativeDevice::Allocate(size_t bytes) {
    void* data = nullptr;
    auto block = std::allocate_shared<DataBlockHead>(DataBlockAllocator<DataBlockHead>{bytes, &data});
    return std::shared_ptr<void>{block, data};  // shares the block's ownership, points at the data
}

NativeBackend::NativeBackend(Context& context) : Backend{context} {
    RegisterNativeKernels(kernel_registry());
    // Starts the thread pool now, which settles OpenBLAS's thread count before any BLAS call.
    NumThreads();
}

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
    RegisterLossKernels(registry);
    RegisterPoolingKernels(registry);
    RegisterNormalizationKernels(registry);
    RegisterConnectionKernels(registry);
}

}  // namespace native
}  // namespace chainerx
