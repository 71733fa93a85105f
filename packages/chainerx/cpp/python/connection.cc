// Convolutions: conv and conv_transpose.
#include "chainerx/routines/connection.h"

#include <nanobind/stl/optional.h>

#include <algorithm>
#include <optional>

#include "common.h"

namespace chainerx {
namespace python {

void InitConnection(nb::module_& m) {
    // x's spatial axes decide how many values an int stride or pad stands for.
    auto spatial = [](const Array& x) { return std::max(x.ndim() - 2, 0); };
    m.def(
            "conv",
            [spatial](const Array& x, const Array& w, const std::optional<Array>& b, nb::handle stride, nb::handle pad,
                      bool cover_all) {
                int n = spatial(x);
                return Conv(x, w, b, DimsArg(stride, n, "stride"), DimsArg(pad, n, "pad"), cover_all);
            },
            nb::arg("x"), nb::arg("w"), nb::arg("b").none() = nb::none(), nb::arg("stride") = 1, nb::arg("pad") = 0,
            nb::arg("cover_all") = false,
            "Convolution of x (n, c, d...) with w (out_c, c, k...), plus a bias b (out_c,).");
    m.def(
            "conv_transpose",
            [spatial](const Array& x, const Array& w, const std::optional<Array>& b, nb::handle stride, nb::handle pad,
                      nb::handle outsize) {
                int n = spatial(x);
                std::optional<Dims> out;
                if (!outsize.is_none()) out = DimsArg(outsize, n, "outsize");
                return ConvTranspose(x, w, b, DimsArg(stride, n, "stride"), DimsArg(pad, n, "pad"), out);
            },
            nb::arg("x"), nb::arg("w"), nb::arg("b").none() = nb::none(), nb::arg("stride") = 1, nb::arg("pad") = 0,
            nb::arg("outsize") = nb::none(),
            "Transposed convolution of x (n, c_in, d...) with w (c_in, c_out, k...), plus a bias.");
}

}  // namespace python
}  // namespace chainerx
