#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <new>
#include <utility>

namespace chainerx {
namespace internal {

// A vector that keeps up to N elements inside itself and moves them to the heap only beyond
// that. The graph bookkeeping of every differentiable call (a node's inputs, an array's graph
// entries, ...) almost always holds one or two elements; std::vector would allocate for each.
template <typename T, size_t N>
class SmallVector {
    static_assert(N > 0, "SmallVector needs inline room for at least one element");

public:
    using value_type = T;
    using iterator = T*;
    using const_iterator = const T*;

    SmallVector() = default;
    SmallVector(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
    SmallVector(const SmallVector& other) { assign(other.begin(), other.end()); }
    SmallVector(SmallVector&& other) noexcept { StealFrom(other); }
    SmallVector& operator=(const SmallVector& other) {
        if (this != &other) assign(other.begin(), other.end());
        return *this;
    }
    SmallVector& operator=(SmallVector&& other) noexcept {
        if (this != &other) {
            Release();
            StealFrom(other);
        }
        return *this;
    }
    ~SmallVector() { Release(); }

    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T* data() { return data_; }
    const T* data() const { return data_; }
    T* begin() { return data_; }
    T* end() { return data_ + size_; }
    const T* begin() const { return data_; }
    const T* end() const { return data_ + size_; }
    T& operator[](size_t i) { return data_[i]; }
    const T& operator[](size_t i) const { return data_[i]; }
    T& back() { return data_[size_ - 1]; }
    const T& back() const { return data_[size_ - 1]; }

    template <typename... Args>
    T& emplace_back(Args&&... args) {
        if (size_ == capacity_) {
            // Build the new element before moving the old ones: args may refer to one of them.
            size_t capacity = capacity_ * 2 + 1;  // (+1 keeps GCC from warning about empty allocations)
            T* heap = Allocate(capacity);
            new (heap + size_) T(std::forward<Args>(args)...);
            MoveTo(heap, capacity);
        } else {
            new (data_ + size_) T(std::forward<Args>(args)...);
        }
        return data_[size_++];
    }
    void push_back(const T& value) { emplace_back(value); }
    void push_back(T&& value) { emplace_back(std::move(value)); }
    void pop_back() { data_[--size_].~T(); }

    void clear() {
        while (size_ > 0) pop_back();
    }
    void reserve(size_t capacity) {
        if (capacity > capacity_) MoveTo(Allocate(capacity), capacity);
    }
    void resize(size_t size) {
        while (size_ > size) pop_back();
        reserve(size);
        while (size_ < size) emplace_back();
    }
    template <typename It>
    void assign(It first, It last) {
        clear();
        for (; first != last; ++first) emplace_back(*first);
    }

private:
    static T* Allocate(size_t capacity) { return std::allocator<T>{}.allocate(capacity); }
    static void Deallocate(T* p, size_t capacity) { std::allocator<T>{}.deallocate(p, capacity); }

    T* inline_data() { return reinterpret_cast<T*>(inline_); }
    bool on_heap() const { return data_ != reinterpret_cast<const T*>(inline_); }

    // Moves the elements into heap (which has room for capacity) and makes it the storage.
    void MoveTo(T* heap, size_t capacity) {
        for (size_t i = 0; i < size_; ++i) {
            new (heap + i) T(std::move(data_[i]));
            data_[i].~T();
        }
        if (on_heap()) Deallocate(data_, capacity_);
        data_ = heap;
        capacity_ = capacity;
    }

    void Release() {
        clear();
        if (on_heap()) Deallocate(data_, capacity_);
        data_ = inline_data();
        capacity_ = N;
    }

    // Takes other's heap storage, or moves its inline elements; other is left empty.
    void StealFrom(SmallVector& other) {
        if (other.on_heap()) {
            data_ = other.data_;
            size_ = other.size_;
            capacity_ = other.capacity_;
            other.data_ = other.inline_data();
            other.size_ = 0;
            other.capacity_ = N;
            return;
        }
        for (T& value : other) emplace_back(std::move(value));
        other.clear();
    }

    alignas(T) unsigned char inline_[N * sizeof(T)];
    T* data_{inline_data()};
    size_t size_{0};
    size_t capacity_{N};
};

}  // namespace internal
}  // namespace chainerx
