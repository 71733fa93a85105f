// chainerx.ndarray.
#include <Python.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "chainerx/backend.h"
#include "chainerx/context.h"
#include "chainerx/error.h"
#include "chainerx/kernels/creation.h"
#include "chainerx/routines/creation.h"
#include "chainerx/routines/indexing.h"
#include "chainerx/routines/linalg.h"
#include "chainerx/routines/logic.h"
#include "chainerx/routines/manipulation.h"
#include "chainerx/routines/math.h"
#include "chainerx/routines/reduction.h"
#include "chainerx/routines/util.h"
#include "common.h"

namespace chainerx {
namespace python {
namespace {

// ---- Buffer protocol: NumPy and memoryview see the array's memory without a copy. ----

const char* BufferFormat(Dtype dtype) {
    switch (dtype) {
        case Dtype::kBool:
            return "?";
        case Dtype::kInt8:
            return "b";
        case Dtype::kInt16:
            return "h";
        case Dtype::kInt32:
            return "i";
        case Dtype::kInt64:
            return "q";
        case Dtype::kUInt8:
            return "B";
        case Dtype::kFloat16:
            return "e";
        case Dtype::kFloat32:
            return "f";
        case Dtype::kFloat64:
            return "d";
    }
    return "B";
}

int GetBuffer(PyObject* self, Py_buffer* view, int flags) {
    Array& a = *nb::inst_ptr<Array>(self);
    if (!a.device().IsHostMemory()) {
        PyErr_Format(PyExc_BufferError, "array on device %s is not in host memory: call to_device('native:0') first",
                     a.device().name().c_str());
        return -1;
    }
    if ((flags & PyBUF_STRIDES) != PyBUF_STRIDES && !a.IsContiguous()) {
        PyErr_SetString(PyExc_BufferError, "the array is not contiguous and the consumer did not ask for strides");
        return -1;
    }
    // shape and strides live until the buffer is released.
    auto* dims = new Py_ssize_t[2 * std::max(a.ndim(), 1)];
    for (int i = 0; i < a.ndim(); ++i) {
        dims[i] = a.shape()[i];
        dims[a.ndim() + i] = a.strides()[i];
    }
    view->buf = a.raw_data();
    view->obj = nb::handle(self).inc_ref().ptr();
    view->len = a.GetNBytes();
    view->readonly = 0;
    view->itemsize = a.GetItemSize();
    view->format = (flags & PyBUF_FORMAT) ? const_cast<char*>(BufferFormat(a.dtype())) : nullptr;
    view->ndim = a.ndim();
    view->shape = dims;
    view->strides = dims + a.ndim();
    view->suboffsets = nullptr;
    view->internal = dims;
    return 0;
}

void ReleaseBuffer(PyObject*, Py_buffer* view) { delete[] static_cast<Py_ssize_t*>(view->internal); }

PyType_Slot g_array_slots[] = {
        {Py_bf_getbuffer, reinterpret_cast<void*>(GetBuffer)},
        {Py_bf_releasebuffer, reinterpret_cast<void*>(ReleaseBuffer)},
        {0, nullptr},
};

// ---- Operators ----

// NumPy's protocol: a type whose __array_ufunc__ is None (e.g. chainer.Variable) implements the
// operators with arrays itself, so ours return NotImplemented and Python asks it.
bool DefersToOperand(nb::handle other) {
    nb::handle type = other.type();
    return nb::hasattr(type, "__array_ufunc__") && type.attr("__array_ufunc__").is_none();
}

// `a op other` where other is an ndarray, a number, or something NumPy turns into an array.
template <Array (*ArrayOp)(const Array&, const Array&), Array (*ScalarOp)(const Array&, Scalar)>
nb::object BinaryOperator(const Array& self, nb::handle other) {
    Array* b = nullptr;
    if (nb::try_cast<Array*>(other, b) && b != nullptr) return nb::cast(ArrayOp(self, *b));
    if (IsScalar(other)) return nb::cast(ScalarOp(self, ScalarArg(other)));
    if (DefersToOperand(other)) return nb::borrow(Py_NotImplemented);
    if (PySequence_Check(other.ptr()) || PyObject_CheckBuffer(other.ptr())) {
        return nb::cast(ArrayOp(self, ArrayArg(other, &self.device())));
    }
    return nb::borrow(Py_NotImplemented);
}

// `other op a`, for scalars and array-likes on the left.
template <Array (*ArrayOp)(const Array&, const Array&), Array (*ScalarOp)(Scalar, const Array&)>
nb::object ReflectedOperator(const Array& self, nb::handle other) {
    if (IsScalar(other)) return nb::cast(ScalarOp(ScalarArg(other), self));
    if (DefersToOperand(other)) return nb::borrow(Py_NotImplemented);
    if (PySequence_Check(other.ptr()) || PyObject_CheckBuffer(other.ptr())) {
        return nb::cast(ArrayOp(ArrayArg(other, &self.device()), self));
    }
    return nb::borrow(Py_NotImplemented);
}

// `a op= other`: computed in a's memory (refused for graph arrays).
template <void (*InplaceOp)(const Array&, const Array&)>
Array& InplaceOperator(Array& self, nb::handle other) {
    Array rhs;
    if (IsScalar(other)) {
        Scalar s = ScalarArg(other);
        rhs = internal::ScalarArray(s, ResultTypeWithScalar(self.dtype(), s), self.device());
    } else {
        rhs = ArrayArg(other, &self.device());
    }
    InplaceOp(self, rhs);
    return self;
}

Array Pow(const Array& a, const Array& b) { return Power(a, b); }
Array PowScalar(const Array& a, Scalar b) { return Power(a, b); }
Array RPowScalar(Scalar a, const Array& b) { return Power(a, b); }
Array Matmul2(const Array& a, const Array& b) { return Matmul(a, b); }
Array MatmulScalar(const Array&, Scalar) { throw DimensionError{"matmul: input operands must not be scalars"}; }
Array RMatmulScalar(Scalar, const Array&) { throw DimensionError{"matmul: input operands must not be scalars"}; }

#define CX_BINOP(fn) \
    static_cast<Array (*)(const Array&, const Array&)>(fn), static_cast<Array (*)(const Array&, Scalar)>(fn)
#define CX_RBINOP(fn) \
    static_cast<Array (*)(const Array&, const Array&)>(fn), static_cast<Array (*)(Scalar, const Array&)>(fn)

// Python float()/int()/bool() of a one-element array.
Scalar ItemOf(const Array& a) {
    if (a.GetTotalSize() != 1) {
        throw DimensionError{"only arrays of one element can be converted to a Python scalar, got shape ", a.shape()};
    }
    Array host = a.AsGradStopped().ToDevice(GetDefaultContext().GetDevice("native", 0));
    return VisitDtype(host.dtype(), [&](auto tag) -> Scalar {
        using T = typename decltype(tag)::type;
        return Scalar{*static_cast<const T*>(host.raw_data())};
    });
}

std::string Repr(const Array& a) {
    nb::module_ numpy = nb::module_::import_("numpy");
    nb::object host =
            ArrayToNumpy(a.device().IsHostMemory() ? a : a.AsGradStopped().ToDevice(GetDevice("native:0")), false);
    std::string body = nb::cast<std::string>(
            numpy.attr("array2string")(host, nb::arg("separator") = ", ", nb::arg("prefix") = "array("));
    std::string s = "array(" + body + ", shape=" + ToString(a.shape()) + ", dtype=" + GetDtypeName(a.dtype()) +
                    ", device='" + a.device().name() + "'";
    if (!a.body()->graphs.empty()) {
        s += ", backprop_ids=[";
        for (size_t i = 0; i < a.body()->graphs.size(); ++i) {
            const BackpropId& id = a.body()->graphs[i].node->backprop_id();
            s += (i > 0 ? ", '" : "'") + id.context().GetBackpropName(id) + "'";
        }
        s += "]";
    }
    return s + ")";
}

Shape ShapeFromArgs(const nb::args& args) {
    if (args.size() == 1 && !PyLong_Check(args[0].ptr())) return ShapeArg(args[0]);
    return ShapeArg(args);
}

std::optional<BackpropId> BackpropIdArg(nb::handle id) {
    if (id.is_none()) return std::nullopt;
    return nb::cast<BackpropId>(id);
}

}  // namespace

void InitArray(nb::module_& m) {
    nb::class_<AnyGraph>(m, "AnyGraph", "The type of chainerx.anygraph: selects every graph an array is in.")
            .def("__repr__", [](const AnyGraph&) { return "chainerx.anygraph"; });
    m.attr("anygraph") = AnyGraph{};
    nb::class_<Array> c{m, "ndarray", nb::type_slots(g_array_slots),
                        "An N-dimensional array on a ChainerX device, with autograd.\n\n"
                        "Create arrays with chainerx.array, chainerx.zeros, ...; mark inputs with\n"
                        "require_grad() and call backward() on a result to fill .grad."};
    c.def(
            "__init__",
            [](Array* self, nb::handle shape, nb::handle dtype, nb::handle device) {
                new (self) Array{Empty(ShapeArg(shape), DtypeArg(dtype), DeviceArg(device))};
            },
            nb::arg("shape"), nb::arg("dtype"), nb::arg("device") = nb::none(),
            "ndarray(shape, dtype, device=None): an uninitialized array.");
    c.def_prop_ro(
            "shape",
            [](const Array& a) {
                nb::tuple t = nb::steal<nb::tuple>(PyTuple_New(a.ndim()));
                for (int i = 0; i < a.ndim(); ++i) PyTuple_SET_ITEM(t.ptr(), i, PyLong_FromLongLong(a.shape()[i]));
                return t;
            },
            "Lengths of the axes, a tuple of ints.");
    c.def_prop_ro(
            "strides",
            [](const Array& a) {
                nb::list l;
                for (int64_t s : a.strides()) l.append(s);
                return nb::tuple(l);
            },
            "Byte steps between elements along each axis.");
    c.def_prop_ro("ndim", &Array::ndim, "Number of axes.");
    c.def_prop_ro("size", &Array::GetTotalSize, "Number of elements.");
    c.def_prop_ro("itemsize", &Array::GetItemSize, "Bytes per element.");
    c.def_prop_ro("nbytes", &Array::GetNBytes, "Bytes of all elements.");
    c.def_prop_ro("offset", &Array::offset, "Byte offset of the first element in the underlying memory.");
    c.def_prop_ro("dtype", [](const Array& a) { return DtypeToPy(a.dtype()); }, "The numpy.dtype of the elements.");
    c.def_prop_ro("device", &Array::device, nb::rv_policy::reference, "The chainerx.Device holding the data.");
    c.def_prop_ro("is_contiguous", &Array::IsContiguous, "True if the elements are C-contiguous.");
    c.def_prop_ro(
            "data_ptr", [](const Array& a) { return reinterpret_cast<uintptr_t>(a.raw_data()); },
            "Address of the first element.");
    c.def_prop_ro("T", [](const Array& a) { return Transpose(a); }, "The transpose (a view).");
    c.def("__len__", [](const Array& a) {
        if (a.ndim() == 0) throw DimensionError{"len() of unsized object (a 0-dimensional array)"};
        return a.shape()[0];
    });
    c.def("__bool__", [](const Array& a) { return ItemOf(a).As<bool>(); });
    c.def("__int__", [](const Array& a) { return ItemOf(a).As<int64_t>(); });
    c.def("__float__", [](const Array& a) { return ItemOf(a).As<double>(); });
    c.def("item", [](const Array& a) { return ScalarToPy(ItemOf(a)); }, "The only element as a Python number.");
    c.def("tolist", [](const Array& a) { return ArrayToNumpy(a, false).attr("tolist")(); }, "Nested Python lists.");
    c.def("__repr__", &Repr);
    c.def("__str__", &Repr);  // as v7: the full repr with shape, dtype, device (and graphs)
    c.def(
            "__getitem__", [](const Array& a, nb::handle key) { return At(a, IndicesArg(key, a.device())); },
            nb::arg("key").none(), "NumPy indexing: a view for basic indices, a copy with integer or boolean arrays.");
    c.def(
            "__setitem__",
            [](Array& a, nb::handle key, nb::handle value) {
                Array v = IsScalar(value) ? internal::ScalarArray(ScalarArg(value), a.dtype(), a.device())
                                          : ArrayArg(value, &a.device());
                SetItem(a, IndicesArg(key, a.device()), v);
            },
            nb::arg("key").none(), nb::arg("value"), "NumPy item assignment; refused when the array is in a graph.");

    // Autograd.
    c.def(
            "require_grad", [](Array& a, nb::handle id) -> Array& { return a.RequireGrad(BackpropIdArg(id)); },
            nb::arg("backprop_id") = nb::none(), nb::rv_policy::reference,
            "Marks the array as an input of the graph (default graph unless backprop_id); returns self.");
    c.def(
            "is_grad_required", [](const Array& a, nb::handle id) { return a.IsGradRequired(BackpropIdArg(id)); },
            nb::arg("backprop_id") = nb::none(), "Whether the array is in the graph.");
    c.def(
            "is_backprop_required",
            [](const Array& a, nb::handle id) {
                if (nb::isinstance<AnyGraph>(id)) return a.IsBackpropRequired(AnyGraph{});
                return a.IsBackpropRequired(BackpropIdArg(id));
            },
            nb::arg("backprop_id") = nb::none(),
            "Whether the array is in the graph (any graph with chainerx.anygraph) and that graph records now.");
    c.def(
            "_has_creator",
            [](const Array& a, nb::handle id) {
                internal::ArrayBody::GraphEntry* entry =
                        a.body()->FindGraph(internal::ResolveBackpropId(BackpropIdArg(id)));
                return entry != nullptr && entry->node->creator() != nullptr;
            },
            nb::arg("backprop_id") = nb::none(),
            "Whether the array is the output of a recorded op of the graph (false for a leaf); for Chainer.");
    c.def(
            "get_grad", [](const Array& a, nb::handle id) { return a.GetGrad(BackpropIdArg(id)); },
            nb::arg("backprop_id") = nb::none(), "The gradient, or None if none was computed.");
    c.def(
            "set_grad",
            [](const Array& a, std::optional<Array> grad, nb::handle id) {
                if (grad.has_value()) {
                    a.SetGrad(*grad, BackpropIdArg(id));
                } else {
                    a.ClearGrad(BackpropIdArg(id));
                }
            },
            nb::arg("grad").none(), nb::arg("backprop_id") = nb::none(), "Sets (or with None clears) the gradient.");
    c.def(
            "cleargrad", [](const Array& a, nb::handle id) { a.ClearGrad(BackpropIdArg(id)); },
            nb::arg("backprop_id") = nb::none(), "Clears the gradient.");
    c.def_prop_rw(
            "grad", [](const Array& a) { return a.GetGrad(); },
            [](const Array& a, std::optional<Array> grad) {
                if (grad.has_value()) {
                    a.SetGrad(*grad);
                } else {
                    a.ClearGrad();
                }
            },
            nb::arg("grad").none(), "Gradient in the default graph (None until computed).");
    c.def(
            "backward",
            [](const Array& a, nb::handle id, bool enable_double_backprop, bool retain_grad) {
                a.Backward(BackpropIdArg(id),
                           enable_double_backprop ? DoubleBackpropOption::kEnable : DoubleBackpropOption::kDisable,
                           retain_grad);
            },
            nb::arg("backprop_id") = nb::none(), nb::arg("enable_double_backprop") = false,
            nb::arg("retain_grad") = false,
            "Backpropagates from this array (starting from .grad, or ones) into the inputs' .grad.");
    c.def(
            "as_grad_stopped",
            [](const Array& a, nb::handle ids, bool copy) {
                std::vector<BackpropId> backprop_ids;
                if (!ids.is_none()) {
                    for (nb::handle id : nb::iter(ids)) backprop_ids.push_back(nb::cast<BackpropId>(id));
                }
                Array out = a.AsGradStopped(backprop_ids);
                return copy ? Copy(out) : out;
            },
            nb::arg("backprop_ids") = nb::none(), nb::arg("copy") = false,
            "A view (or copy) of the same data outside the graph, which may be written in place.");

    // Conversion and views.
    c.def(
            "to_device",
            [](const Array& a, nb::handle device, std::optional<int> index) {
                if (index.has_value()) {
                    return a.ToDevice(GetDefaultContext().GetDevice(nb::cast<std::string>(device), *index));
                }
                return a.ToDevice(DeviceArg(device));
            },
            nb::arg("device"), nb::arg("index") = nb::none(), "A copy on another device (self if already there).");
    c.def("copy", [](const Array& a) { return Copy(a); }, "A C-contiguous copy (differentiable).");
    c.def(
            "astype",
            [](nb::pointer_and_handle<Array> self, nb::handle dtype, bool copy) -> nb::typed<nb::object, Array> {
                Dtype target = DtypeArg(dtype);
                // As NumPy: without copy, an array that already has the dtype is returned itself.
                if (!copy && self.p->dtype() == target) return nb::typed<nb::object, Array>{nb::borrow(self.h)};
                return nb::typed<nb::object, Array>{nb::cast(AsType(*self.p, target, copy))};
            },
            nb::arg("dtype"), nb::arg("copy") = true,
            "Converted to dtype (the array itself if it has it and copy is False).");
    c.def("view", [](const Array& a) { return a.MakeView(); }, "A new array object sharing the data.");
    c.def(
            "reshape", [](const Array& a, const nb::args& args) { return Reshape(a, ShapeFromArgs(args)); },
            "``reshape(*shape)``: a view when possible.");
    c.def(
            "transpose",
            [](const Array& a, const nb::args& args) {
                if (args.size() == 0 || (args.size() == 1 && args[0].is_none())) return Transpose(a);
                return Transpose(a, AxesArg(args.size() == 1 && !PyLong_Check(args[0].ptr()) ? nb::handle(args[0])
                                                                                             : nb::handle(args)));
            },
            "``transpose(*axes)``: permuted axes (reversed when none are given).");
    c.def(
            "squeeze", [](const Array& a, nb::handle axis) { return Squeeze(a, AxesArg(axis)); },
            nb::arg("axis") = nb::none());
    c.def("swapaxes", [](const Array& a, int64_t a1, int64_t a2) { return Swapaxes(a, a1, a2); });
    c.def("ravel", [](const Array& a) { return Ravel(a); });
    c.def("flatten", [](const Array& a) { return Copy(Ravel(a)); }, "A flattened copy.");
    c.def(
            "fill",
            [](Array& a, nb::handle value) {
                internal::CheckNoGraphForInplace(a, "fill");
                a.device().backend().CallKernel<FillKernel>(a, ScalarArg(value));
            },
            nb::arg("value"), "Sets every element to value.");
    c.def(
            "take",
            [](const Array& a, nb::handle indices, nb::handle axis, const std::string& mode) {
                return Take(a, ArrayArg(indices, &a.device()), AxisArg(axis), IndexBoundsModeArg(mode));
            },
            nb::arg("indices"), nb::arg("axis") = nb::none(), nb::arg("mode") = "raise");
    c.def("repeat", &RepeatFromArgs, nb::arg("repeats"), nb::arg("axis") = nb::none(),
          "Repeats elements (chainerx.repeat).");
    c.def("dot", [](const Array& a, const Array& b) { return Dot(a, b); });
    c.def(
            "clip",
            [](const Array& a, nb::handle lo, nb::handle hi) {
                return Clip(a, lo.is_none() ? std::nullopt : std::optional<Scalar>{ScalarArg(lo)},
                            hi.is_none() ? std::nullopt : std::optional<Scalar>{ScalarArg(hi)});
            },
            nb::arg("a_min").none(), nb::arg("a_max").none());
    c.def(
            "sum", [](const Array& a, nb::handle axis, bool keepdims) { return Sum(a, AxesArg(axis), keepdims); },
            nb::arg("axis") = nb::none(), nb::arg("keepdims") = false);
    c.def(
            "mean", [](const Array& a, nb::handle axis, bool keepdims) { return Mean(a, AxesArg(axis), keepdims); },
            nb::arg("axis") = nb::none(), nb::arg("keepdims") = false);
    c.def(
            "var", [](const Array& a, nb::handle axis, bool keepdims) { return Var(a, AxesArg(axis), keepdims); },
            nb::arg("axis") = nb::none(), nb::arg("keepdims") = false);
    c.def(
            "max", [](const Array& a, nb::handle axis, bool keepdims) { return AMax(a, AxesArg(axis), keepdims); },
            nb::arg("axis") = nb::none(), nb::arg("keepdims") = false);
    c.def(
            "min", [](const Array& a, nb::handle axis, bool keepdims) { return AMin(a, AxesArg(axis), keepdims); },
            nb::arg("axis") = nb::none(), nb::arg("keepdims") = false);
    c.def(
            "argmax", [](const Array& a, nb::handle axis) { return ArgMax(a, AxisArg(axis)); },
            nb::arg("axis") = nb::none());
    c.def(
            "argmin", [](const Array& a, nb::handle axis) { return ArgMin(a, AxisArg(axis)); },
            nb::arg("axis") = nb::none());
    c.def(
            "all", [](const Array& a, nb::handle axis, bool keepdims) { return All(a, AxesArg(axis), keepdims); },
            nb::arg("axis") = nb::none(), nb::arg("keepdims") = false);
    c.def(
            "any", [](const Array& a, nb::handle axis, bool keepdims) { return Any(a, AxesArg(axis), keepdims); },
            nb::arg("axis") = nb::none(), nb::arg("keepdims") = false);

    // Arithmetic. __array_ufunc__ = None makes NumPy defer to the reflected operators below.
    c.attr("__array_ufunc__") = nb::none();
    c.def("__neg__", [](const Array& a) { return Negative(a); });
    c.def("__pos__", [](const Array& a) { return a.MakeView(); });
    c.def("__abs__", [](const Array& a) { return Absolute(a); });
    c.def("__invert__", [](const Array& a) { return Invert(a); });
    c.def("__add__", &BinaryOperator<CX_BINOP(Add)>);
    c.def("__sub__", &BinaryOperator<CX_BINOP(Subtract)>);
    c.def("__mul__", &BinaryOperator<CX_BINOP(Multiply)>);
    c.def("__truediv__", &BinaryOperator<CX_BINOP(Divide)>);
    c.def("__floordiv__", &BinaryOperator<CX_BINOP(FloorDivide)>);
    c.def("__mod__", &BinaryOperator<CX_BINOP(Remainder)>);
    c.def("__pow__", &BinaryOperator<Pow, PowScalar>);
    c.def("__matmul__", &BinaryOperator<Matmul2, MatmulScalar>);
    c.def("__and__", &BinaryOperator<CX_BINOP(BitwiseAnd)>);
    c.def("__or__", &BinaryOperator<CX_BINOP(BitwiseOr)>);
    c.def("__xor__", &BinaryOperator<CX_BINOP(BitwiseXor)>);
    c.def("__lshift__", &BinaryOperator<CX_BINOP(LeftShift)>);
    c.def("__rshift__", &BinaryOperator<CX_BINOP(RightShift)>);
    c.def("__radd__", &ReflectedOperator<CX_RBINOP(Add)>);
    c.def("__rsub__", &ReflectedOperator<CX_RBINOP(Subtract)>);
    c.def("__rmul__", &ReflectedOperator<CX_RBINOP(Multiply)>);
    c.def("__rtruediv__", &ReflectedOperator<CX_RBINOP(Divide)>);
    c.def("__rfloordiv__", &ReflectedOperator<CX_RBINOP(FloorDivide)>);
    c.def("__rmod__", &ReflectedOperator<CX_RBINOP(Remainder)>);
    c.def("__rpow__", &ReflectedOperator<Pow, RPowScalar>);
    c.def("__rmatmul__", &ReflectedOperator<Matmul2, RMatmulScalar>);
    c.def("__rand__", &ReflectedOperator<CX_RBINOP(BitwiseAnd)>);
    c.def("__ror__", &ReflectedOperator<CX_RBINOP(BitwiseOr)>);
    c.def("__rxor__", &ReflectedOperator<CX_RBINOP(BitwiseXor)>);
    c.def("__iadd__", &InplaceOperator<internal::AddInplace>, nb::rv_policy::none);
    c.def("__isub__", &InplaceOperator<internal::SubtractInplace>, nb::rv_policy::none);
    c.def("__imul__", &InplaceOperator<internal::MultiplyInplace>, nb::rv_policy::none);
    c.def("__itruediv__", &InplaceOperator<internal::DivideInplace>, nb::rv_policy::none);
    c.def("__ifloordiv__", &InplaceOperator<internal::FloorDivideInplace>, nb::rv_policy::none);
    c.def("__imod__", &InplaceOperator<internal::RemainderInplace>, nb::rv_policy::none);
    c.def("__iand__", &InplaceOperator<internal::BitwiseAndInplace>, nb::rv_policy::none);
    c.def("__ior__", &InplaceOperator<internal::BitwiseOrInplace>, nb::rv_policy::none);
    c.def("__ixor__", &InplaceOperator<internal::BitwiseXorInplace>, nb::rv_policy::none);
    c.def("__ilshift__", &InplaceOperator<internal::LeftShiftInplace>, nb::rv_policy::none);
    c.def("__irshift__", &InplaceOperator<internal::RightShiftInplace>, nb::rv_policy::none);
    c.def("__eq__", &BinaryOperator<CX_BINOP(Equal)>);
    c.def("__ne__", &BinaryOperator<CX_BINOP(NotEqual)>);
    c.def("__gt__", &BinaryOperator<CX_BINOP(Greater)>);
    c.def("__ge__", &BinaryOperator<CX_BINOP(GreaterEqual)>);
    c.def("__lt__", &BinaryOperator<CX_BINOP(Less)>);
    c.def("__le__", &BinaryOperator<CX_BINOP(LessEqual)>);
    c.attr("__hash__") = nb::none();
}

}  // namespace python
}  // namespace chainerx
