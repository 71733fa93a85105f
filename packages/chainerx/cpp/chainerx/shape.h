#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <string>
#include <type_traits>

#include "chainerx/error.h"

namespace chainerx {

constexpr int kMaxNdim = 10;

// A vector with inline storage of kMaxNdim elements: shapes, strides and axes never allocate.
template <typename T>
class StackVector {
public:
    using value_type = T;
    using iterator = T*;
    using const_iterator = const T*;

    StackVector() = default;
    StackVector(std::initializer_list<T> values) : StackVector(values.begin(), values.end()) {}
    template <typename It, std::enable_if_t<!std::is_integral_v<It>, int> = 0>
    StackVector(It first, It last) {
        for (; first != last; ++first) push_back(static_cast<T>(*first));
    }
    explicit StackVector(int size, T value = T{}) {
        for (int i = 0; i < size; ++i) push_back(value);
    }

    int size() const { return size_; }
    bool empty() const { return size_ == 0; }
    T& operator[](int i) { return data_[i]; }
    const T& operator[](int i) const { return data_[i]; }
    T* begin() { return data_.data(); }
    T* end() { return data_.data() + size_; }
    const T* begin() const { return data_.data(); }
    const T* end() const { return data_.data() + size_; }
    T* data() { return data_.data(); }
    const T* data() const { return data_.data(); }
    T& back() { return data_[size_ - 1]; }
    const T& back() const { return data_[size_ - 1]; }

    void push_back(T value) {
        if (size_ >= kMaxNdim) {
            throw DimensionError{"too many dimensions: at most ", kMaxNdim, " are supported"};
        }
        data_[size_++] = value;
    }
    void emplace_back(T value) { push_back(value); }
    void pop_back() { --size_; }
    void insert(int pos, T value) {
        push_back(value);
        for (int i = size_ - 1; i > pos; --i) data_[i] = data_[i - 1];
        data_[pos] = value;
    }
    void erase(int pos) {
        for (int i = pos; i + 1 < size_; ++i) data_[i] = data_[i + 1];
        --size_;
    }
    void resize(int size, T value = T{}) {
        while (size_ < size) push_back(value);
        size_ = size;
    }

    friend bool operator==(const StackVector& a, const StackVector& b) {
        if (a.size_ != b.size_) return false;
        for (int i = 0; i < a.size_; ++i) {
            if (a.data_[i] != b.data_[i]) return false;
        }
        return true;
    }
    friend bool operator!=(const StackVector& a, const StackVector& b) { return !(a == b); }

private:
    std::array<T, kMaxNdim> data_{};
    int size_{0};
};

template <typename T>
std::string ToString(const StackVector<T>& v) {
    std::string s = "(";
    for (int i = 0; i < v.size(); ++i) {
        if (i > 0) s += ", ";
        s += std::to_string(static_cast<int64_t>(v[i]));
    }
    if (v.size() == 1) s += ",";
    return s + ")";
}

template <typename T>
std::ostream& operator<<(std::ostream& os, const StackVector<T>& v) {
    return os << ToString(v);
}

class Shape : public StackVector<int64_t> {
public:
    using StackVector::StackVector;
    int ndim() const { return size(); }
    int64_t GetTotalSize() const {
        int64_t n = 1;
        for (int64_t d : *this) n *= d;
        return n;
    }
};

class Strides : public StackVector<int64_t> {
public:
    using StackVector::StackVector;
    int ndim() const { return size(); }
};

class Axes : public StackVector<int8_t> {
public:
    using StackVector::StackVector;
    int ndim() const { return size(); }
};

// One integer per spatial axis: kernel sizes, strides, pads and output sizes of convolution and
// pooling.
using Dims = StackVector<int64_t>;

// C-contiguous strides (in bytes) of a shape.
Strides ContiguousStrides(const Shape& shape, int64_t item_size);

// True if the layout is C-contiguous (size-1 axes may have any stride).
bool IsContiguous(const Shape& shape, const Strides& strides, int64_t item_size);

// Normalizes a possibly negative axis into [0, ndim); throws DimensionError when out of range.
int8_t NormalizeAxis(int64_t axis, int ndim);

// Normalizes and sorts axes; throws DimensionError on duplicates or out-of-range values.
Axes NormalizeAxes(const Axes& axes, int ndim);

// All axes 0..ndim-1.
Axes AllAxes(int ndim);

// NumPy broadcasting of two shapes; throws DimensionError naming both when incompatible.
Shape BroadcastShapes(const Shape& a, const Shape& b);

}  // namespace chainerx
