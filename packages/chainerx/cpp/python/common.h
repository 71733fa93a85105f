#pragma once

// Conversions between Python objects and ChainerX values, shared by the binding files.
#include <nanobind/nanobind.h>

#include <optional>
#include <string>
#include <vector>

#include "chainerx/array.h"
#include "chainerx/array_index.h"
#include "chainerx/device.h"
#include "chainerx/dtype.h"
#include "chainerx/routines/indexing.h"
#include "chainerx/scalar.h"
#include "chainerx/shape.h"

namespace chainerx {
namespace python {

namespace nb = nanobind;

// Called once at import: caches numpy's dtype objects.
void InitConversions();

// dtype arguments: numpy dtypes, scalar types (numpy.float32, float, int, bool) or names.
Dtype DtypeArg(nb::handle dtype);
std::optional<Dtype> OptionalDtypeArg(nb::handle dtype);
// The numpy.dtype object of a dtype.
nb::object DtypeToPy(Dtype dtype);

// device arguments: None (the default device), a Device or a specifier such as "native:0".
Device& DeviceArg(nb::handle device);

// An int or a sequence of ints.
Shape ShapeArg(nb::handle shape);
// None (all axes), an int or a sequence of ints.
std::optional<Axes> AxesArg(nb::handle axis);
std::optional<int8_t> AxisArg(nb::handle axis);
// An int or a sequence of ints, as a vector.
std::vector<int64_t> IntsArg(nb::handle obj);

// repeat(a, repeats, axis): repeats is an int or a sequence of ints, axis an int or None.
Array RepeatFromArgs(const Array& a, nb::handle repeats, nb::handle axis);

// NumPy's take mode: 'raise', 'wrap' or 'clip' (ValueError otherwise).
IndexBoundsMode IndexBoundsModeArg(const std::string& mode);
// An int (repeated ndim times) or a sequence of ints, one per spatial axis; name is for errors.
Dims DimsArg(nb::handle dims, int ndim, const char* name);

// Python bool/int/float and NumPy scalars; false when obj is none of these.
bool IsScalar(nb::handle obj);
Scalar ScalarArg(nb::handle obj);
nb::object ScalarToPy(const Scalar& s);

// A chainerx.ndarray as is; anything NumPy accepts (lists, numbers, numpy arrays) converted on
// the given device.
Array ArrayArg(nb::handle obj, Device* device = nullptr);
std::vector<Array> ArrayListArg(nb::handle sequence);

// Wraps a NumPy array (or any buffer) without copying; the Array keeps the buffer alive.
Array ArrayFromBuffer(nb::handle obj, Device& device);
// chainerx.array(obj, dtype, copy, device).
Array MakeArray(nb::handle obj, nb::handle dtype, bool copy, nb::handle device);

// A Python index expression: an int, slice, None, Ellipsis, bool, ndarray or array-like (list,
// NumPy array), or a tuple of those. Index arrays not yet on device are converted onto it.
std::vector<ArrayIndex> IndicesArg(nb::handle key, Device& device);

nb::object ArrayToNumpy(const Array& a, bool copy);

// Registration of each part of chainerx._core.
void InitErrors(nb::module_& m);
void InitDevices(nb::module_& m);
void InitArray(nb::module_& m);
void InitRoutines(nb::module_& m);
void InitMathRoutines(nb::module_& m);
void InitNnRoutines(nb::module_& m);
void InitLinalg(nb::module_& m);
void InitConnection(nb::module_& m);
void InitBackprop(nb::module_& m);
void InitRnn(nb::module_& m);
void InitPooling(nb::module_& m);
void InitNormalization(nb::module_& m);
void InitFunctionNode(nb::module_& m);

}  // namespace python
}  // namespace chainerx
