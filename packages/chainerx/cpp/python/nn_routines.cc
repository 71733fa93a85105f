// Neural-network routines: connection, recurrent cells, losses and evaluation.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>

#include <optional>
#include <string>

#include "chainerx/routines/evaluation.h"
#include "chainerx/routines/linear.h"
#include "chainerx/routines/loss.h"
#include "chainerx/routines/rnn_cells.h"
#include "common.h"

namespace chainerx {
namespace python {
namespace {

LossReduction ReductionArg(const std::string& reduce) {
    if (reduce == "no") return LossReduction::kNo;
    if (reduce == "sum") return LossReduction::kSum;
    if (reduce == "mean") return LossReduction::kMean;
    throw nb::value_error(("reduce must be 'no', 'sum' or 'mean', got '" + reduce + "'").c_str());
}

}  // namespace

void InitNnRoutines(nb::module_& m) {
    m.def("linear", &Linear, nb::arg("x"), nb::arg("W"), nb::arg("b") = nb::none(), nb::arg("n_batch_axes") = 1,
          "Linear function: x (flattened after n_batch_axes) times W.T, plus b.");
    m.def("lstm", &Lstm, nb::arg("c_prev"), nb::arg("x"),
          "Long Short-Term Memory units as an activation function; returns (c, h).");
    m.def("slstm", &Slstm, nb::arg("c_prev1"), nb::arg("c_prev2"), nb::arg("x1"), nb::arg("x2"),
          "S-LSTM units as an activation function; returns (c, h).");
    m.def(
            "tree_lstm", [](const nb::args& inputs) { return TreeLstm(ArrayListArg(inputs)); }, nb::arg("inputs"),
            "TreeLSTM unit as an activation function of c_1, ..., c_n and x; returns (c, h).");
    m.def("absolute_error", &AbsoluteError, nb::arg("x1"), nb::arg("x2"), "Element-wise absolute error ``|x1 - x2|``.");
    m.def("squared_error", &SquaredError, nb::arg("x1"), nb::arg("x2"), "Element-wise squared error (x1 - x2)^2.");
    m.def("huber_loss", &HuberLoss, nb::arg("x1"), nb::arg("x2"), nb::arg("delta"), "Element-wise Huber loss.");
    m.def(
            "gaussian_kl_divergence",
            [](const Array& mean, const Array& ln_var, const std::string& reduce) {
                return GaussianKlDivergence(mean, ln_var, ReductionArg(reduce));
            },
            nb::arg("mean"), nb::arg("ln_var"), nb::arg("reduce") = "no",
            "KL divergence of N(mean, exp(ln_var)) from N(0, 1); reduce is 'no', 'sum' or 'mean'.");
    m.def("sigmoid_cross_entropy", &SigmoidCrossEntropy, nb::arg("x1"), nb::arg("x2"),
          "Element-wise sigmoid cross entropy of logits x1 and integer labels x2 (-1 is ignored).");
    m.def("softmax_cross_entropy", &SoftmaxCrossEntropy, nb::arg("x1"), nb::arg("x2"),
          "Per-sample softmax cross entropy of logits x1 (n, c) and integer labels x2 (n,) (-1 is ignored).");
    m.def("accuracy", &Accuracy, nb::arg("y"), nb::arg("t"), nb::arg("ignore_label") = nb::none(),
          "Fraction of samples whose argmax over axis 1 of y equals t, ignoring ignore_label.");
}

}  // namespace python
}  // namespace chainerx
