#include "common.h"

#include <Python.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <utility>

#include "chainerx/context.h"
#include "chainerx/error.h"
#include "chainerx/routines/creation.h"
#include "chainerx/routines/manipulation.h"
#include "chainerx/routines/util.h"

namespace chainerx {
namespace python {
namespace {

// numpy.dtype objects by Dtype code; numpy's builtin dtypes are singletons, so known objects
// (dtypes and scalar types) are matched by identity before asking numpy.
std::array<nb::object, kDtypeCount> g_numpy_dtypes;
std::vector<std::pair<PyObject*, Dtype>> g_dtype_cache;
nb::object g_numpy_dtype_fn;
nb::object g_numpy_asarray;
nb::object g_numpy_generic;
nb::object g_numpy_bool;
nb::object g_numpy_floating;

}  // namespace

void InitConversions() {
    nb::module_ numpy = nb::module_::import_("numpy");
    g_numpy_dtype_fn = numpy.attr("dtype");
    g_numpy_asarray = numpy.attr("asarray");
    g_numpy_generic = numpy.attr("generic");
    g_numpy_bool = numpy.attr("bool_");
    g_numpy_floating = numpy.attr("floating");
    for (int i = 0; i < kDtypeCount; ++i) {
        Dtype dtype = static_cast<Dtype>(i);
        g_numpy_dtypes[i] = g_numpy_dtype_fn(GetDtypeName(dtype));
        g_dtype_cache.emplace_back(g_numpy_dtypes[i].ptr(), dtype);
        g_dtype_cache.emplace_back(g_numpy_dtypes[i].attr("type").ptr(), dtype);
    }
    g_dtype_cache.emplace_back(reinterpret_cast<PyObject*>(&PyFloat_Type), Dtype::kFloat64);
    g_dtype_cache.emplace_back(reinterpret_cast<PyObject*>(&PyLong_Type), Dtype::kInt64);
    g_dtype_cache.emplace_back(reinterpret_cast<PyObject*>(&PyBool_Type), Dtype::kBool);
}

Dtype DtypeArg(nb::handle dtype) {
    for (const auto& [obj, value] : g_dtype_cache) {
        if (obj == dtype.ptr()) return value;
    }
    if (nb::isinstance<nb::str>(dtype)) return GetDtype(nb::cast<std::string>(dtype));
    nb::object name;
    try {
        name = g_numpy_dtype_fn(dtype).attr("name");
    } catch (const nb::python_error&) {
        throw DtypeError{"invalid dtype ", nb::cast<std::string>(nb::repr(dtype)),
                         ": expected a dtype such as chainerx.float32 or 'float32'"};
    }
    return GetDtype(nb::cast<std::string>(name));
}

std::optional<Dtype> OptionalDtypeArg(nb::handle dtype) {
    if (dtype.is_none()) return std::nullopt;
    return DtypeArg(dtype);
}

nb::object DtypeToPy(Dtype dtype) { return g_numpy_dtypes[static_cast<int>(dtype)]; }

Device& DeviceArg(nb::handle device) {
    if (device.is_none()) return GetDefaultDevice();
    if (nb::isinstance<nb::str>(device)) return GetDefaultContext().GetDevice(nb::cast<std::string>(device));
    Device* d = nullptr;
    if (nb::try_cast<Device*>(device, d) && d != nullptr) return *d;
    throw DeviceError{"invalid device ", nb::cast<std::string>(nb::repr(device)),
                      ": expected a chainerx.Device or a specifier such as 'native:0'"};
}

Shape ShapeArg(nb::handle shape) {
    if (PyLong_Check(shape.ptr())) return Shape{nb::cast<int64_t>(shape)};
    if (!PySequence_Check(shape.ptr())) {
        throw DimensionError{"invalid shape ", nb::cast<std::string>(nb::repr(shape)),
                             ": expected an int or a tuple of ints"};
    }
    Shape result;
    for (nb::handle item : nb::iter(shape)) {
        int64_t d;
        if (!nb::try_cast<int64_t>(item, d)) {
            throw DimensionError{"invalid shape ", nb::cast<std::string>(nb::repr(shape)), ": expected ints"};
        }
        result.push_back(d);
    }
    return result;
}

Dims DimsArg(nb::handle dims, int ndim, const char* name) {
    auto type_error = [&] {
        std::string repr = nb::cast<std::string>(nb::repr(dims));
        return nb::type_error((std::string{name} + " must be an int or a sequence of ints, got " + repr).c_str());
    };
    int64_t v;
    if (nb::try_cast<int64_t>(dims, v)) return Dims(ndim, v);
    if (!PySequence_Check(dims.ptr())) throw type_error();
    Dims result;
    for (nb::handle item : nb::iter(dims)) {
        if (!nb::try_cast<int64_t>(item, v)) throw type_error();
        result.push_back(v);
    }
    return result;
}

std::optional<Axes> AxesArg(nb::handle axis) {
    if (axis.is_none()) return std::nullopt;
    if (PyLong_Check(axis.ptr())) return Axes{static_cast<int8_t>(nb::cast<int64_t>(axis))};
    Axes axes;
    for (int64_t a : ShapeArg(axis)) axes.push_back(static_cast<int8_t>(a));
    return axes;
}

std::vector<int64_t> IntsArg(nb::handle obj) {
    std::vector<int64_t> values;
    if (PyLong_Check(obj.ptr())) {
        values.push_back(nb::cast<int64_t>(obj));
    } else {
        for (int64_t v : ShapeArg(obj)) values.push_back(v);
    }
    return values;
}

Array RepeatFromArgs(const Array& a, nb::handle repeats, nb::handle axis) {
    std::optional<int64_t> ax = axis.is_none() ? std::nullopt : std::optional<int64_t>{nb::cast<int64_t>(axis)};
    return Repeat(a, IntsArg(repeats), ax);
}

IndexBoundsMode IndexBoundsModeArg(const std::string& mode) {
    if (mode == "raise") return IndexBoundsMode::kRaise;
    if (mode == "wrap") return IndexBoundsMode::kWrap;
    if (mode == "clip") return IndexBoundsMode::kClip;
    throw nb::value_error(("mode must be one of 'raise', 'wrap' or 'clip', got '" + mode + "'").c_str());
}

std::optional<int8_t> AxisArg(nb::handle axis) {
    if (axis.is_none()) return std::nullopt;
    int64_t a;
    if (!nb::try_cast<int64_t>(axis, a)) {
        throw DimensionError{"invalid axis ", nb::cast<std::string>(nb::repr(axis)), ": expected an int or None"};
    }
    return static_cast<int8_t>(a);
}

bool IsScalar(nb::handle obj) {
    PyObject* o = obj.ptr();
    return PyFloat_Check(o) || PyLong_Check(o) || PyBool_Check(o) || PyObject_IsInstance(o, g_numpy_generic.ptr()) == 1;
}

Scalar ScalarArg(nb::handle obj) {
    PyObject* o = obj.ptr();
    if (PyBool_Check(o)) return Scalar{o == Py_True};
    if (PyLong_Check(o)) return Scalar{nb::cast<int64_t>(obj)};
    if (PyFloat_Check(o)) return Scalar{PyFloat_AS_DOUBLE(o)};
    if (PyObject_IsInstance(o, g_numpy_bool.ptr()) == 1) return Scalar{PyObject_IsTrue(o) == 1};
    if (PyObject_IsInstance(o, g_numpy_floating.ptr()) == 1) return Scalar{nb::cast<double>(nb::float_(obj))};
    if (PyObject_IsInstance(o, g_numpy_generic.ptr()) == 1) return Scalar{nb::cast<int64_t>(nb::int_(obj))};
    throw DtypeError{"expected a number (bool, int or float), got ", nb::cast<std::string>(nb::repr(obj))};
}

nb::object ScalarToPy(const Scalar& s) {
    switch (s.kind()) {
        case Scalar::Kind::kBool:
            return nb::bool_(s.As<bool>());
        case Scalar::Kind::kInt:
            return nb::int_(s.As<int64_t>());
        case Scalar::Kind::kFloat:
            return nb::float_(s.As<double>());
    }
    return nb::none();
}

namespace {

// Maps a buffer format string to a dtype (native byte order only).
Dtype DtypeFromBufferFormat(const char* format, Py_ssize_t itemsize) {
    std::string f = format == nullptr ? "B" : format;
    if (!f.empty() && (f[0] == '<' || f[0] == '=' || f[0] == '@')) f = f.substr(1);
    if (f.size() == 1) {
        switch (f[0]) {
            case '?':
                return Dtype::kBool;
            case 'b':
                return Dtype::kInt8;
            case 'B':
                return Dtype::kUInt8;
            case 'h':
                return Dtype::kInt16;
            case 'e':
                return Dtype::kFloat16;
            case 'f':
                return Dtype::kFloat32;
            case 'd':
                return Dtype::kFloat64;
            case 'i':
            case 'l':
            case 'q':
                if (itemsize == 4) return Dtype::kInt32;
                if (itemsize == 8) return Dtype::kInt64;
                break;
            default:
                break;
        }
    }
    throw DtypeError{"unsupported buffer format '", f,
                     "': ChainerX supports bool, int8, int16, int32, int64, uint8, float16, float32 and float64"};
}

}  // namespace

Array ArrayFromBuffer(nb::handle obj, Device& device) {
    if (!device.IsHostMemory()) {
        Array host = ArrayFromBuffer(obj, GetDefaultContext().GetDevice("native", 0));
        return host.ToDevice(device);
    }
    auto view = std::make_unique<Py_buffer>();
    if (PyObject_GetBuffer(obj.ptr(), view.get(), PyBUF_RECORDS_RO) != 0) throw nb::python_error();
    Shape shape;
    Strides strides;
    Dtype dtype;
    try {
        dtype = DtypeFromBufferFormat(view->format, view->itemsize);
        for (int i = 0; i < view->ndim; ++i) {
            shape.push_back(view->shape[i]);
            strides.push_back(view->strides[i]);
        }
    } catch (...) {
        PyBuffer_Release(view.get());
        throw;
    }
    // The buffer protocol reports C-contiguous strides along axes of length 0 or 1; NumPy's own
    // may differ there (0 on every axis of an empty array, any stride on a length-1 axis), and
    // an array wrapped without a copy keeps NumPy's.
    bool has_short_axis = std::any_of(shape.begin(), shape.end(), [](int64_t dim) { return dim <= 1; });
    if (has_short_axis && nb::hasattr(obj, "strides")) {
        int axis = 0;
        for (nb::handle stride : obj.attr("strides")) strides[axis++] = nb::cast<int64_t>(stride);
    }
    void* data = view->buf;
    // The Array owns the buffer view; releasing it may run Python code, so take the GIL.
    std::shared_ptr<void> owner{data, [view = view.release()](void*) {
                                    nb::gil_scoped_acquire gil;
                                    PyBuffer_Release(view);
                                    delete view;
                                }};
    return FromData(shape, dtype, std::move(owner), strides, 0, device);
}

Array ArrayArg(nb::handle obj, Device* device) {
    Array* a = nullptr;
    if (nb::try_cast<Array*>(obj, a) && a != nullptr) return *a;
    return MakeArray(obj, nb::none(), true,
                     device == nullptr ? nb::none() : nb::cast(device, nb::rv_policy::reference));
}

std::vector<Array> ArrayListArg(nb::handle sequence) {
    std::vector<Array> arrays;
    for (nb::handle item : nb::iter(sequence)) arrays.push_back(ArrayArg(item));
    return arrays;
}

Array MakeArray(nb::handle obj, nb::handle dtype, bool copy, nb::handle device) {
    Array* existing = nullptr;
    std::optional<Dtype> dt = OptionalDtypeArg(dtype);
    if (nb::try_cast<Array*>(obj, existing) && existing != nullptr) {
        Array a = *existing;
        if (!device.is_none()) a = a.ToDevice(DeviceArg(device));
        if (dt.has_value() && *dt != a.dtype()) return AsType(a, *dt);
        return copy && a.body() == existing->body() ? Copy(a) : a;
    }
    Device& target = DeviceArg(device);
    // NumPy parses lists and scalars; its default dtypes (int64, float64, bool) are ours too.
    nb::object np_array = dt.has_value() ? g_numpy_asarray(obj, DtypeToPy(*dt)) : g_numpy_asarray(obj);
    Array wrapped = ArrayFromBuffer(np_array, target);
    if (!copy && &wrapped.device() == &target) return wrapped;
    return &wrapped.device() == &target ? Copy(wrapped) : wrapped;
}

namespace {

constexpr const char* kInvalidIndexMessage =
        "only integers, slices (':'), ellipsis ('...'), None and integer or boolean arrays are valid indices, got ";

// An index array from a list, a NumPy array or another array-like, converted as NumPy does: an
// empty sequence gives integer indices, and integer dtypes ChainerX lacks become int64.
Array IndexArrayArg(nb::handle obj, Device& device) {
    nb::object np_array = g_numpy_asarray(obj);
    nb::handle dtype = np_array.attr("dtype");
    char kind = nb::cast<std::string>(dtype.attr("kind"))[0];
    int64_t itemsize = nb::cast<int64_t>(dtype.attr("itemsize"));
    if (kind != 'b' && kind != 'i' && kind != 'u' && kind != 'f') {
        throw IndexError{kInvalidIndexMessage, nb::cast<std::string>(nb::repr(obj))};
    }
    bool empty = nb::cast<int64_t>(np_array.attr("size")) == 0;
    if ((kind == 'f' && empty) || (kind == 'u' && itemsize > 1)) {
        np_array = np_array.attr("astype")(DtypeToPy(Dtype::kInt64));
    }
    return ArrayFromBuffer(np_array, device);
}

}  // namespace

std::vector<ArrayIndex> IndicesArg(nb::handle key, Device& device) {
    std::vector<ArrayIndex> indices;
    auto add = [&indices, &device](nb::handle item) {
        PyObject* o = item.ptr();
        Array* array = nullptr;
        if (PyLong_CheckExact(o)) {
            indices.emplace_back(nb::cast<int64_t>(item));
        } else if (PySlice_Check(o)) {
            auto member = [o](const char* name) -> std::optional<int64_t> {
                nb::object v = nb::borrow(o).attr(name);
                if (v.is_none()) return std::nullopt;
                return nb::cast<int64_t>(nb::int_(v));
            };
            Slice s{member("start"), member("stop"), member("step").value_or(1)};
            indices.emplace_back(s);
        } else if (item.is_none()) {
            indices.push_back(ArrayIndex::NewAxis());
        } else if (o == Py_Ellipsis) {
            indices.push_back(ArrayIndex::Ellipsis());
        } else if (nb::try_cast<Array*>(item, array) && array != nullptr) {
            indices.emplace_back(*array);
        } else if (PyBool_Check(o) || PyObject_IsInstance(o, g_numpy_bool.ptr()) == 1) {
            // Like NumPy: a boolean scalar is a 0-d boolean array, not the integer 0 or 1.
            indices.emplace_back(internal::ScalarArray(Scalar{PyObject_IsTrue(o) == 1}, Dtype::kBool, device));
        } else if (PyIndex_Check(o) && !PySequence_Check(o)) {
            indices.emplace_back(nb::cast<int64_t>(nb::int_(item)));
        } else if ((PySequence_Check(o) && !PyUnicode_Check(o) && !PyBytes_Check(o)) || PyObject_CheckBuffer(o)) {
            indices.emplace_back(IndexArrayArg(item, device));
        } else {
            throw IndexError{kInvalidIndexMessage, nb::cast<std::string>(nb::repr(item))};
        }
    };
    if (PyTuple_Check(key.ptr())) {
        for (nb::handle item : nb::borrow<nb::tuple>(key)) add(item);
    } else {
        add(key);
    }
    return indices;
}

nb::object ArrayToNumpy(const Array& a, bool copy) {
    nb::object self = nb::cast(a);
    nb::object result = g_numpy_asarray(self);
    return copy ? result.attr("copy")() : result;
}

}  // namespace python
}  // namespace chainerx
