// The one place where C++ errors become Python exceptions.
#include "chainerx/error.h"

#include <Python.h>

#include "common.h"

namespace chainerx {
namespace python {
namespace {

PyObject* g_chainerx_error;
PyObject* g_context_error;
PyObject* g_backend_error;
PyObject* g_device_error;
PyObject* g_dimension_error;
PyObject* g_dtype_error;
PyObject* g_not_implemented_error;
PyObject* g_gradient_error;
PyObject* g_index_error;

PyObject* NewError(nb::module_& m, const char* name, PyObject* bases, const char* doc) {
    std::string qualified = std::string{"chainerx."} + name;
    PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases, nullptr);
    if (type == nullptr) throw nb::python_error();
    m.attr(name) = nb::borrow(type);
    return type;
}

// An owned tuple: PyErr_NewExceptionWithDoc does not steal its bases.
nb::object Bases(PyObject* a, PyObject* b) {
    PyObject* bases = PyTuple_Pack(2, a, b);
    if (bases == nullptr) throw nb::python_error();
    return nb::steal(bases);
}

}  // namespace

void InitErrors(nb::module_& m) {
    g_chainerx_error = NewError(m, "ChainerxError", PyExc_Exception, "Base class of every ChainerX error.");
    g_context_error = NewError(m, "ContextError", g_chainerx_error, "A context or backprop id was used wrongly.");
    g_backend_error = NewError(m, "BackendError", g_chainerx_error, "A backend could not be found or loaded.");
    g_device_error =
            NewError(m, "DeviceError", g_chainerx_error, "A device is invalid, or arrays are on different devices.");
    // Also ValueError/TypeError/NotImplementedError/IndexError, so code written for NumPy (and
    // v7's `except IndexError` around indexing) catches them too.
    g_dimension_error = NewError(m, "DimensionError", Bases(g_chainerx_error, PyExc_ValueError).ptr(),
                                 "Shapes, axes or numbers of dimensions do not fit.");
    g_dtype_error = NewError(m, "DtypeError", Bases(g_chainerx_error, PyExc_TypeError).ptr(),
                             "A dtype is unknown or not supported by the operation.");
    g_not_implemented_error =
            NewError(m, "NotImplementedError", Bases(g_chainerx_error, PyExc_NotImplementedError).ptr(),
                     "The operation is not implemented for these arguments or this backend.");
    g_gradient_error = NewError(m, "GradientError", g_chainerx_error, "Gradient setting or backpropagation failed.");
    g_index_error = NewError(m, "IndexError", Bases(g_chainerx_error, PyExc_IndexError).ptr(),
                             "An index is out of bounds or of the wrong type.");

    nb::register_exception_translator([](const std::exception_ptr& p, void*) {
        try {
            std::rethrow_exception(p);
        } catch (const IndexError& e) {
            PyErr_SetString(g_index_error, e.what());
        } catch (const ContextError& e) {
            PyErr_SetString(g_context_error, e.what());
        } catch (const BackendError& e) {
            PyErr_SetString(g_backend_error, e.what());
        } catch (const DeviceError& e) {
            PyErr_SetString(g_device_error, e.what());
        } catch (const DimensionError& e) {
            PyErr_SetString(g_dimension_error, e.what());
        } catch (const DtypeError& e) {
            PyErr_SetString(g_dtype_error, e.what());
        } catch (const NotImplementedError& e) {
            PyErr_SetString(g_not_implemented_error, e.what());
        } catch (const GradientError& e) {
            PyErr_SetString(g_gradient_error, e.what());
        } catch (const ChainerxError& e) {
            PyErr_SetString(g_chainerx_error, e.what());
        }
    });
}

}  // namespace python
}  // namespace chainerx
