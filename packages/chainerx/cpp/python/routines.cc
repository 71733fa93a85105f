// Module-level creation, manipulation, indexing, reduction, linear algebra and random routines.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "chainerx/routines/creation.h"
#include "chainerx/routines/indexing.h"
#include "chainerx/routines/linalg.h"
#include "chainerx/routines/manipulation.h"
#include "chainerx/routines/random.h"
#include "chainerx/routines/reduction.h"
#include "common.h"

namespace chainerx {
namespace python {
namespace {

// Chainer's default floating dtype is what the shape-only creation routines use.
constexpr Dtype kDefaultDtype = Dtype::kFloat32;

Dtype DtypeOr(nb::handle dtype, Dtype fallback) { return dtype.is_none() ? fallback : DtypeArg(dtype); }

std::optional<Shape> OptionalShapeArg(nb::handle shape) {
    if (shape.is_none()) return std::nullopt;
    return ShapeArg(shape);
}

nb::list ToList(const std::vector<Array>& arrays) {
    nb::list l;
    for (const Array& a : arrays) l.append(nb::cast(a));
    return l;
}

std::vector<Array> SplitArg(const Array& a, nb::handle sections_or_indices, int64_t axis) {
    if (PyLong_Check(sections_or_indices.ptr())) return Split(a, nb::cast<int64_t>(sections_or_indices), axis);
    std::vector<int64_t> indices;
    for (int64_t i : ShapeArg(sections_or_indices)) indices.push_back(i);
    return Split(a, indices, axis);
}

// An ndarray returned as a Python object (possibly the argument itself), typed for the stubs.
using ArrayObject = nb::typed<nb::object, Array>;

// Whether obj is a chainerx.ndarray that already has the requested dtype and device (None: any).
bool IsArrayWithoutConversion(nb::handle obj, nb::handle dtype, nb::handle device) {
    Array* a = nullptr;
    return nb::try_cast<Array*>(obj, a) && a != nullptr && (dtype.is_none() || DtypeArg(dtype) == a->dtype()) &&
           (device.is_none() || &DeviceArg(device) == &a->device());
}

void InitCreation(nb::module_& m) {
    m.def(
            "array",
            [](nb::handle obj, nb::handle dtype, bool copy, nb::handle device) -> ArrayObject {
                if (!copy && IsArrayWithoutConversion(obj, dtype, device))
                    return ArrayObject{nb::borrow(obj)};  // NumPy's rule
                return ArrayObject{nb::cast(MakeArray(obj, dtype, copy, device))};
            },
            nb::arg("object"), nb::arg("dtype") = nb::none(), nb::arg("copy") = true, nb::arg("device") = nb::none(),
            "Creates an array from an ndarray, a NumPy array, a (nested) sequence or a number.\n\n"
            "With copy=False a NumPy array on the host is wrapped without copying.");
    m.def(
            "asarray",
            [](nb::handle obj, nb::handle dtype, nb::handle device) -> ArrayObject {
                if (IsArrayWithoutConversion(obj, dtype, device))
                    return ArrayObject{nb::borrow(obj)};  // as NumPy's asarray
                return ArrayObject{nb::cast(MakeArray(obj, dtype, false, device))};
            },
            nb::arg("object"), nb::arg("dtype") = nb::none(), nb::arg("device") = nb::none(),
            "Like array(..., copy=False): returns the input itself when nothing needs converting.");
    m.def(
            "ascontiguousarray",
            [](nb::handle obj, nb::handle dtype, nb::handle device) -> ArrayObject {
                if (IsArrayWithoutConversion(obj, dtype, device) && nb::cast<const Array&>(obj).IsContiguous()) {
                    return ArrayObject{nb::borrow(obj)};
                }
                return ArrayObject{nb::cast(AsContiguous(MakeArray(obj, dtype, false, device)))};
            },
            nb::arg("a"), nb::arg("dtype") = nb::none(), nb::arg("device") = nb::none(),
            "Returns a C-contiguous array.");
    m.def("copy", [](const Array& a) { return Copy(a); }, nb::arg("a"), "Creates a copy of a given array.");
    m.def(
            "empty",
            [](nb::handle shape, nb::handle dtype, nb::handle device) {
                return Empty(ShapeArg(shape), DtypeOr(dtype, kDefaultDtype), DeviceArg(device));
            },
            nb::arg("shape"), nb::arg("dtype") = nb::none(), nb::arg("device") = nb::none(),
            "Returns an array without initializing the elements (dtype defaults to float32).");
    m.def(
            "zeros",
            [](nb::handle shape, nb::handle dtype, nb::handle device) {
                return Zeros(ShapeArg(shape), DtypeOr(dtype, kDefaultDtype), DeviceArg(device));
            },
            nb::arg("shape"), nb::arg("dtype") = nb::none(), nb::arg("device") = nb::none(),
            "Returns a new array of given shape and dtype (default float32), filled with zeros.");
    m.def(
            "ones",
            [](nb::handle shape, nb::handle dtype, nb::handle device) {
                return Ones(ShapeArg(shape), DtypeOr(dtype, kDefaultDtype), DeviceArg(device));
            },
            nb::arg("shape"), nb::arg("dtype") = nb::none(), nb::arg("device") = nb::none(),
            "Returns a new array of given shape and dtype (default float32), filled with ones.");
    m.def(
            "full",
            [](nb::handle shape, nb::handle fill_value, nb::handle dtype, nb::handle device) {
                Scalar value = ScalarArg(fill_value);
                return Full(ShapeArg(shape), value, DtypeOr(dtype, value.GetDefaultDtype()), DeviceArg(device));
            },
            nb::arg("shape"), nb::arg("fill_value"), nb::arg("dtype") = nb::none(), nb::arg("device") = nb::none(),
            "Returns a new array filled with fill_value (dtype defaults to the value's own).");
    auto like = [&m](const char* name, Array (*fn)(const Array&, Device&), const char* doc) {
        m.def(
                name,
                [fn](const Array& a, nb::handle device) {
                    return fn(a, device.is_none() ? a.device() : DeviceArg(device));
                },
                nb::arg("a"), nb::arg("device") = nb::none(), doc);
    };
    like("empty_like", static_cast<Array (*)(const Array&, Device&)>(EmptyLike),
         "Returns a new array with same shape and dtype of a given array.");
    like("zeros_like", static_cast<Array (*)(const Array&, Device&)>(ZerosLike),
         "Returns an array of zeros with same shape and dtype as a given array.");
    like("ones_like", static_cast<Array (*)(const Array&, Device&)>(OnesLike),
         "Returns an array of ones with same shape and dtype as a given array.");
    m.def(
            "full_like",
            [](const Array& a, nb::handle value, nb::handle device) {
                return FullLike(a, ScalarArg(value), device.is_none() ? a.device() : DeviceArg(device));
            },
            nb::arg("a"), nb::arg("fill_value"), nb::arg("device") = nb::none(),
            "Returns a full array with same shape and dtype as a given array.");
    m.def(
            "arange",
            [](nb::handle start, nb::handle stop, nb::handle step, nb::handle dtype, nb::handle device) {
                Scalar first = stop.is_none() ? Scalar{0} : ScalarArg(start);
                Scalar last = stop.is_none() ? ScalarArg(start) : ScalarArg(stop);
                return Arange(first, last, ScalarArg(step), OptionalDtypeArg(dtype), DeviceArg(device));
            },
            nb::arg("start"), nb::arg("stop") = nb::none(), nb::arg("step") = 1, nb::arg("dtype") = nb::none(),
            nb::arg("device") = nb::none(), "Returns an array with evenly spaced values within a given interval.");
    m.def(
            "linspace",
            [](nb::handle start, nb::handle stop, int64_t num, bool endpoint, nb::handle dtype, nb::handle device) {
                return Linspace(ScalarArg(start), ScalarArg(stop), num, endpoint, DtypeOr(dtype, kDefaultDtype),
                                DeviceArg(device));
            },
            nb::arg("start"), nb::arg("stop"), nb::arg("num") = 50, nb::arg("endpoint") = true,
            nb::arg("dtype") = nb::none(), nb::arg("device") = nb::none(),
            "Returns an array with evenly spaced numbers over a specified interval.");
    m.def(
            "eye",
            [](int64_t n, std::optional<int64_t> mm, int64_t k, nb::handle dtype, nb::handle device) {
                return Eye(n, mm, k, DtypeOr(dtype, kDefaultDtype), DeviceArg(device));
            },
            nb::arg("N"), nb::arg("M") = nb::none(), nb::arg("k") = 0, nb::arg("dtype") = nb::none(),
            nb::arg("device") = nb::none(), "Returns a 2-D array with ones on the diagonals and zeros elsewhere.");
    m.def(
            "identity",
            [](int64_t n, nb::handle dtype, nb::handle device) {
                return Identity(n, DtypeOr(dtype, kDefaultDtype), DeviceArg(device));
            },
            nb::arg("n"), nb::arg("dtype") = nb::none(), nb::arg("device") = nb::none(),
            "Returns a 2-D identity array.");
    m.def(
            "tri",
            [](int64_t n, std::optional<int64_t> mm, int64_t k, nb::handle dtype, nb::handle device) {
                return Tri(n, mm, k, DtypeOr(dtype, kDefaultDtype), DeviceArg(device));
            },
            nb::arg("N"), nb::arg("M") = nb::none(), nb::arg("k") = 0, nb::arg("dtype") = nb::none(),
            nb::arg("device") = nb::none(),
            "Returns a 2-D array with ones at and below the given diagonal and zeros elsewhere.");
    m.def(
            "diag", [](const Array& v, int64_t k) { return Diag(v, k); }, nb::arg("v"), nb::arg("k") = 0,
            "Returns a diagonal (a view) of a 2-D array, or a diagonal array from a 1-D one.");
    m.def(
            "diagflat", [](nb::handle v, int64_t k) { return Diagflat(ArrayArg(v), k); }, nb::arg("v"),
            nb::arg("k") = 0, "Creates a diagonal array from the flattened input.");
    m.def(
            "tril", [](const Array& a, int64_t k) { return Tril(a, k); }, nb::arg("m"), nb::arg("k") = 0,
            "Lower triangle of an array.");
    m.def(
            "triu", [](const Array& a, int64_t k) { return Triu(a, k); }, nb::arg("m"), nb::arg("k") = 0,
            "Upper triangle of an array.");
    m.def(
            "meshgrid",
            [](const nb::args& xi, const std::string& indexing) {
                if (indexing != "xy" && indexing != "ij") {
                    throw ChainerxError{"meshgrid: indexing must be 'xy' or 'ij', got '", indexing, "'"};
                }
                return ToList(Meshgrid(ArrayListArg(xi), indexing == "xy"));
            },
            nb::arg("xi"), nb::kw_only(), nb::arg("indexing") = "xy",
            "Returns coordinate matrices from coordinate vectors.");
    m.def("to_numpy", &ArrayToNumpy, nb::arg("array"), nb::arg("copy") = true,
          "Converts a ChainerX array to NumPy (copy=False shares the memory of a host array).");
}

void InitManipulation(nb::module_& m) {
    m.def(
            "reshape", [](const Array& a, nb::handle shape) { return Reshape(a, ShapeArg(shape)); }, nb::arg("a"),
            nb::arg("newshape"), "Returns a reshaped array (a view when possible).");
    m.def("ravel", [](const Array& a) { return Ravel(a); }, nb::arg("a"), "Returns a flattened array.");
    m.def(
            "transpose", [](const Array& a, nb::handle axes) { return Transpose(a, AxesArg(axes)); }, nb::arg("a"),
            nb::arg("axes") = nb::none(), "Permutes the dimensions of an array.");
    m.def(
            "broadcast_to", [](const Array& a, nb::handle shape) { return BroadcastTo(a, ShapeArg(shape)); },
            nb::arg("array"), nb::arg("shape"), "Broadcasts an array to a given shape.");
    m.def(
            "squeeze", [](const Array& a, nb::handle axis) { return Squeeze(a, AxesArg(axis)); }, nb::arg("a"),
            nb::arg("axis") = nb::none(), "Removes size-one axes from the shape of an array.");
    m.def(
            "expand_dims", [](const Array& a, int64_t axis) { return ExpandDims(a, axis); }, nb::arg("a"),
            nb::arg("axis"), "Expand the shape of an array.");
    m.def(
            "swapaxes", [](const Array& a, int64_t a1, int64_t a2) { return Swapaxes(a, a1, a2); }, nb::arg("a"),
            nb::arg("axis1"), nb::arg("axis2"), "Interchange two axes of an array.");
    m.def(
            "moveaxis",
            [](const Array& a, nb::handle src, nb::handle dst) { return Moveaxis(a, IntsArg(src), IntsArg(dst)); },
            nb::arg("a"), nb::arg("source"), nb::arg("destination"), "Move axes of an array to new positions.");
    m.def(
            "flip", [](const Array& a, nb::handle axis) { return Flip(a, AxesArg(axis)); }, nb::arg("m"),
            nb::arg("axis") = nb::none(), "Reverse the order of elements in an array along the given axis.");
    m.def("fliplr", [](const Array& a) { return Fliplr(a); }, nb::arg("m"), "Flip array in the left/right direction.");
    m.def("flipud", [](const Array& a) { return Flipud(a); }, nb::arg("m"), "Flip array in the up/down direction.");
    m.def(
            "atleast_2d", [](nb::handle a) { return AtLeast2D(ArrayArg(a)); }, nb::arg("a"),
            "View inputs as arrays with at least two dimensions.");
    m.def(
            "atleast_3d", [](nb::handle a) { return AtLeast3D(ArrayArg(a)); }, nb::arg("a"),
            "View inputs as arrays with at least three dimensions.");
    m.def(
            "concatenate",
            [](nb::handle arrays, nb::handle axis) {
                return Concatenate(ArrayListArg(arrays),
                                   axis.is_none() ? std::nullopt : std::optional<int64_t>{nb::cast<int64_t>(axis)});
            },
            nb::arg("arrays"), nb::arg("axis").none() = 0, "Joins arrays along an axis (flattened when axis is None).");
    m.def(
            "stack", [](nb::handle arrays, int64_t axis) { return Stack(ArrayListArg(arrays), axis); },
            nb::arg("arrays"), nb::arg("axis") = 0, "Stacks arrays along a new axis.");
    m.def(
            "hstack", [](nb::handle arrays) { return HStack(ArrayListArg(arrays)); }, nb::arg("arrays"),
            "Stack arrays in sequence horizontally (column wise).");
    m.def(
            "vstack", [](nb::handle arrays) { return VStack(ArrayListArg(arrays)); }, nb::arg("arrays"),
            "Stack arrays in sequence vertically (row wise).");
    m.def(
            "dstack", [](nb::handle arrays) { return DStack(ArrayListArg(arrays)); }, nb::arg("arrays"),
            "Stack arrays in sequence depth wise (along third axis).");
    m.def(
            "split", [](const Array& a, nb::handle s, int64_t axis) { return ToList(SplitArg(a, s, axis)); },
            nb::arg("ary"), nb::arg("indices_or_sections"), nb::arg("axis") = 0,
            "Splits an array into multiple sub arrays along a given axis.");
    m.def(
            "hsplit", [](const Array& a, nb::handle s) { return ToList(SplitArg(a, s, a.ndim() == 1 ? 0 : 1)); },
            nb::arg("ary"), nb::arg("indices_or_sections"), "Split an array into multiple sub-arrays horizontally.");
    m.def(
            "vsplit",
            [](const Array& a, nb::handle s) {
                if (a.ndim() < 2) throw DimensionError{"vsplit only works on arrays of 2 or more dimensions"};
                return ToList(SplitArg(a, s, 0));
            },
            nb::arg("ary"), nb::arg("indices_or_sections"),
            "Splits an array into multiple sub-arrays vertically (row-wise).");
    m.def(
            "dsplit",
            [](const Array& a, nb::handle s) {
                if (a.ndim() < 3) throw DimensionError{"dsplit only works on arrays of 3 or more dimensions"};
                return ToList(SplitArg(a, s, 2));
            },
            nb::arg("ary"), nb::arg("indices_or_sections"),
            "Split array into multiple sub-arrays along the 3rd axis (depth).");
    m.def("repeat", &RepeatFromArgs, nb::arg("a"), nb::arg("repeats"), nb::arg("axis") = nb::none(),
          "Constructs an array by repeating a given array.");
}

void InitIndexingAndReductions(nb::module_& m) {
    m.def(
            "take",
            [](const Array& a, nb::handle indices, nb::handle axis, const std::string& mode) {
                return Take(a, ArrayArg(indices, &a.device()), AxisArg(axis), IndexBoundsModeArg(mode));
            },
            nb::arg("a"), nb::arg("indices"), nb::arg("axis") = nb::none(), nb::arg("mode") = "raise",
            "Takes elements from an array along an axis (out-of-range indices: mode 'raise', 'wrap' or 'clip').");
    m.def(
            "where",
            [](nb::handle condition, nb::handle x, nb::handle y) {
                Array cond = ArrayArg(condition);
                bool xs = IsScalar(x);
                bool ys = IsScalar(y);
                if (xs && ys) return Where(cond, ScalarArg(x), ScalarArg(y));
                if (xs) return Where(cond, ScalarArg(x), ArrayArg(y, &cond.device()));
                if (ys) return Where(cond, ArrayArg(x, &cond.device()), ScalarArg(y));
                return Where(cond, ArrayArg(x, &cond.device()), ArrayArg(y, &cond.device()));
            },
            nb::arg("condition"), nb::arg("x"), nb::arg("y"),
            "Return elements chosen from x or y depending on condition.");
    m.def(
            "nonzero", [](const Array& a) { return nb::tuple(ToList(Nonzero(a))); }, nb::arg("a"),
            "Return the indices of the elements that are non-zero.");
    auto reduction = [&m](const char* name, Array (*fn)(const Array&, const std::optional<Axes>&, bool),
                          const char* doc) {
        m.def(
                name, [fn](const Array& a, nb::handle axis, bool keepdims) { return fn(a, AxesArg(axis), keepdims); },
                nb::arg("a"), nb::arg("axis") = nb::none(), nb::arg("keepdims") = false, doc);
    };
    reduction("sum", Sum, "Sum of array elements over a given axis.");
    reduction("mean", Mean, "Compute the arithmetic mean along the specified axis.");
    reduction("var", Var, "Compute the arithmetic var along the specified axis.");
    reduction("amax", AMax, "Returns the maximum of an array or the maximum along an axis.");
    reduction("max", AMax, "Returns the maximum of an array or the maximum along an axis.");
    reduction("amin", AMin, "Returns the minimum of an array or the minimum along an axis.");
    reduction("min", AMin, "Returns the minimum of an array or the minimum along an axis.");
    reduction("all", All, "Test whether all array elements along a given axis evaluate to True.");
    reduction("any", Any, "Test whether any array element along a given axis evaluate to True.");
    reduction("logsumexp", Logsumexp, "The log of the sum of exponentials of input array.");
    m.def(
            "argmax", [](const Array& a, nb::handle axis) { return ArgMax(a, AxisArg(axis)); }, nb::arg("a"),
            nb::arg("axis") = nb::none(), "Returns the indices of the maximum along an axis.");
    m.def(
            "argmin", [](const Array& a, nb::handle axis) { return ArgMin(a, AxisArg(axis)); }, nb::arg("a"),
            nb::arg("axis") = nb::none(), "Returns the indices of the minimum along an axis.");
    m.def(
            "log_softmax", [](const Array& x, nb::handle axis) { return LogSoftmax(x, AxesArg(axis)); }, nb::arg("x"),
            nb::arg("axis") = nb::none(), "The log of the softmax of input array (over axis 1 by default).");
    m.def(
            "softmax", [](const Array& x, nb::handle axis) { return Softmax(x, AxesArg(axis)); }, nb::arg("x"),
            nb::arg("axis") = nb::none(), "The softmax of input array (over axis 1 by default).");
    m.def(
            "dot", [](nb::handle a, nb::handle b) { return Dot(ArrayArg(a), ArrayArg(b)); }, nb::arg("a"), nb::arg("b"),
            "Returns a dot product of two arrays.");
    m.def(
            "matmul", [](nb::handle a, nb::handle b) { return Matmul(ArrayArg(a), ArrayArg(b)); }, nb::arg("a"),
            nb::arg("b"), "Matrix product of two arrays, broadcast over leading axes.");
}

void InitRandom(nb::module_& m) {
    nb::module_ random = m.def_submodule("random", "Random sampling.");
    random.def(
            "normal",
            [](double loc, double scale, nb::handle size, nb::handle dtype, nb::handle device) {
                Shape shape = size.is_none() ? Shape{} : ShapeArg(size);
                return RandomNormal(loc, scale, shape, DtypeOr(dtype, Dtype::kFloat64), DeviceArg(device));
            },
            nb::arg("loc") = 0.0, nb::arg("scale") = 1.0, nb::arg("size") = nb::none(), nb::arg("dtype") = nb::none(),
            nb::arg("device") = nb::none(), "Draws random samples from a normal (Gaussian) distribution.");
    random.def(
            "uniform",
            [](double low, double high, nb::handle size, nb::handle dtype, nb::handle device) {
                Shape shape = size.is_none() ? Shape{} : ShapeArg(size);
                return RandomUniform(low, high, shape, DtypeOr(dtype, Dtype::kFloat64), DeviceArg(device));
            },
            nb::arg("low") = 0.0, nb::arg("high") = 1.0, nb::arg("size") = nb::none(), nb::arg("dtype") = nb::none(),
            nb::arg("device") = nb::none(), "Draws samples from a uniform distribution over [low, high).");
}

}  // namespace

void InitRoutines(nb::module_& m) {
    InitCreation(m);
    InitManipulation(m);
    InitIndexingAndReductions(m);
    InitRandom(m);
}

}  // namespace python
}  // namespace chainerx
