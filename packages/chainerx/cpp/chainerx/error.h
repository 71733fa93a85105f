#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace chainerx {
namespace internal {

template <typename... Args>
std::string MakeMessage(const Args&... args) {
    std::ostringstream os;
    (os << ... << args);
    return os.str();
}

}  // namespace internal

// The root of every error ChainerX raises; the Python binding maps each class below to a
// Python exception class of the same name (one mapping, in python/error.cc).
class ChainerxError : public std::runtime_error {
public:
    template <typename... Args>
    explicit ChainerxError(const Args&... args) : std::runtime_error{internal::MakeMessage(args...)} {}
};

#define CHAINERX_DEFINE_ERROR(Name, Base) \
    class Name : public Base {            \
    public:                               \
        using Base::Base;                 \
    };

// A context was used wrongly (unknown or released backprop id, context mismatch).
CHAINERX_DEFINE_ERROR(ContextError, ChainerxError)
// A backend could not be found or loaded.
CHAINERX_DEFINE_ERROR(BackendError, ChainerxError)
// A device index or specifier is invalid, or arrays live on different devices.
CHAINERX_DEFINE_ERROR(DeviceError, ChainerxError)
// Shapes, axes or numbers of dimensions do not fit.
CHAINERX_DEFINE_ERROR(DimensionError, ChainerxError)
// A dtype is unknown or not supported by the operation.
CHAINERX_DEFINE_ERROR(DtypeError, ChainerxError)
// The operation exists but is not implemented for these arguments or on this backend.
CHAINERX_DEFINE_ERROR(NotImplementedError, ChainerxError)
// Gradient setting or backpropagation failed.
CHAINERX_DEFINE_ERROR(GradientError, ChainerxError)
// An index is out of range (chainerx.IndexError in Python, also a builtin IndexError, so
// iteration protocols and NumPy-style `except IndexError` work).
CHAINERX_DEFINE_ERROR(IndexError, ChainerxError)

#undef CHAINERX_DEFINE_ERROR

}  // namespace chainerx
