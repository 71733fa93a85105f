#include "chainerx/native/native_backend.h"

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

#include "chainerx/native/thread_pool.h"

namespace chainerx {
namespace native {

namespace {

// 64-byte alignment suits every SIMD width.
constexpr size_t kAlignment = 64;

// The empty object a data block's control block holds; the data follows the control block.
struct DataBlockHead {};

// Freed blocks of at least kMinBytes wait here, by size, for the next request of the same size
// (training loops allocate the same large temporaries every step). Handing them back to glibc
// would unmap them, and every step would pay page faults to touch fresh pages again. At most
// kMaxBytes are kept; blocks beyond that go back to malloc's heap.
class LargeBlockCache {
public:
    static constexpr size_t kMinBytes = size_t{256} << 10;
    static constexpr size_t kMaxBytes = size_t{512} << 20;

    static LargeBlockCache& Get() {
        static LargeBlockCache* cache = new LargeBlockCache{};  // outlives static arrays at exit
        return *cache;
    }

    void* Take(size_t bytes) {
        std::lock_guard<std::mutex> lock{mutex_};
        auto it = free_.find(bytes);
        if (it == free_.end() || it->second.empty()) return nullptr;
        void* block = it->second.back();
        it->second.pop_back();
        cached_bytes_ -= bytes;
        return block;
    }

    // Keeps the block, or returns false when the cache is full (or cannot grow its lists).
    bool Put(void* block, size_t bytes) noexcept {
        try {
            std::lock_guard<std::mutex> lock{mutex_};
            if (cached_bytes_ + bytes > kMaxBytes) return false;
            free_[bytes].push_back(block);
            cached_bytes_ += bytes;
            return true;
        } catch (...) {
            return false;
        }
    }

private:
    std::mutex mutex_;
    std::unordered_map<size_t, std::vector<void*>> free_;
    size_t cached_bytes_{0};
};

// Large blocks are rounded up to whole pages, so that nearby sizes share the cache's slots.
size_t BlockBytes(size_t bytes) {
    constexpr size_t kPage = 4096;
    return bytes < LargeBlockCache::kMinBytes ? bytes : (bytes + kPage - 1) / kPage * kPage;
}

void* AllocateBlock(size_t bytes) {
    void* block = bytes >= LargeBlockCache::kMinBytes ? LargeBlockCache::Get().Take(bytes) : nullptr;
    if (block == nullptr) block = std::malloc(bytes);
    if (block == nullptr) throw std::bad_alloc{};
    return block;
}

void FreeBlock(void* block, size_t bytes) {
    if (bytes < LargeBlockCache::kMinBytes || !LargeBlockCache::Get().Put(block, bytes)) std::free(block);
}

// Allocates a shared_ptr control block with room for the data behind it, so an array costs one
// malloc instead of two (data, then control block). allocate_shared calls allocate() once, for
// the control block; it writes where the aligned data starts to *data (a variable of the caller
// of allocate_shared, not used afterwards). Plain malloc (through the large-block cache): glibc's
// aligned_alloc is several times slower (it splits chunks, fragmenting the heap), which host-bound
// code feels.
template <typename T>
class DataBlockAllocator {
public:
    using value_type = T;

    DataBlockAllocator(size_t data_bytes, void** data) : data_bytes_{data_bytes}, data_{data} {}
    template <typename U>
    DataBlockAllocator(const DataBlockAllocator<U>& other) : data_bytes_{other.data_bytes()}, data_{other.data()} {}

    T* allocate(size_t n) {
        size_t head = n * sizeof(T);
        char* block = static_cast<char*>(AllocateBlock(BlockBytes(head + kAlignment + data_bytes_)));
        auto data_start = reinterpret_cast<std::uintptr_t>(block + head);
        *data_ = reinterpret_cast<void*>((data_start + kAlignment - 1) / kAlignment * kAlignment);
        return reinterpret_cast<T*>(block);
    }
    void deallocate(T* p, size_t n) noexcept { FreeBlock(p, BlockBytes(n * sizeof(T) + kAlignment + data_bytes_)); }

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
