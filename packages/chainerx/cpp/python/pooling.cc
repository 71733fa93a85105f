// Module-level pooling routines.
#include "chainerx/routines/pooling.h"

#include <nanobind/stl/string.h>

#include <string>

#include "common.h"

namespace chainerx {
namespace python {
namespace {

// An int (the same for every spatial axis) or a sequence of ints, one per spatial axis of x.
Dims DimsArg(nb::handle value, const Array& x) {
    PyObject* o = value.ptr();
    if (PyIndex_Check(o) && !PySequence_Check(o)) return Dims(x.ndim() - 2, nb::cast<int64_t>(nb::int_(value)));
    Shape entries = ShapeArg(value);
    return Dims(entries.begin(), entries.end());
}

AveragePoolPadMode PadModeArg(const std::string& pad_mode) {
    if (pad_mode == "zero") return AveragePoolPadMode::kZero;
    if (pad_mode == "ignore") return AveragePoolPadMode::kIgnore;
    throw nb::value_error(("average_pool: pad_mode must be 'zero' or 'ignore', got '" + pad_mode + "'").c_str());
}

}  // namespace

void InitPooling(nb::module_& m) {
    m.def(
            "max_pool",
            [](const Array& x, nb::handle ksize, nb::handle stride, nb::handle pad, bool cover_all) {
                Dims k = DimsArg(ksize, x);
                Dims s = stride.is_none() ? k : DimsArg(stride, x);
                return MaxPool(x, k, s, DimsArg(pad, x), cover_all);
            },
            nb::arg("x"), nb::arg("ksize"), nb::arg("stride") = nb::none(), nb::arg("pad") = 0,
            nb::arg("cover_all") = false,
            "Spatial max pooling over the axes after (batch, channel); stride defaults to ksize.");
    m.def(
            "average_pool",
            [](const Array& x, nb::handle ksize, nb::handle stride, nb::handle pad, const std::string& pad_mode) {
                Dims k = DimsArg(ksize, x);
                Dims s = stride.is_none() ? k : DimsArg(stride, x);
                return AveragePool(x, k, s, DimsArg(pad, x), PadModeArg(pad_mode));
            },
            nb::arg("x"), nb::arg("ksize"), nb::arg("stride") = nb::none(), nb::arg("pad") = 0,
            nb::arg("pad_mode") = "ignore",
            "Spatial average pooling; pad_mode 'zero' counts padding in the divisor, 'ignore' does not.");
}

}  // namespace python
}  // namespace chainerx
