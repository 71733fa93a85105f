// Module-level normalization routines.
#include "chainerx/routines/normalization.h"

#include "common.h"

namespace chainerx {
namespace python {

void InitNormalization(nb::module_& m) {
    m.def(
            "batch_norm",
            [](const Array& x, const Array& gamma, const Array& beta, const Array& running_mean,
               const Array& running_var, double eps, double decay, nb::handle axis) {
                return BatchNorm(x, gamma, beta, running_mean, running_var, eps, decay, AxesArg(axis));
            },
            nb::arg("x"), nb::arg("gamma"), nb::arg("beta"), nb::arg("running_mean"), nb::arg("running_var"),
            nb::arg("eps") = 2e-5, nb::arg("decay") = 0.9, nb::arg("axis") = nb::none(),
            "Batch normalization with the batch's statistics; updates running_mean and running_var in place.");
    m.def(
            "fixed_batch_norm",
            [](const Array& x, const Array& gamma, const Array& beta, const Array& mean, const Array& var, double eps,
               nb::handle axis) { return FixedBatchNorm(x, gamma, beta, mean, var, eps, AxesArg(axis)); },
            nb::arg("x"), nb::arg("gamma"), nb::arg("beta"), nb::arg("mean"), nb::arg("var"), nb::arg("eps") = 2e-5,
            nb::arg("axis") = nb::none(), "Batch normalization with the given statistics.");
}

}  // namespace python
}  // namespace chainerx
