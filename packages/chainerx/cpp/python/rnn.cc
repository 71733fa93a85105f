// Multi-layer recurrent networks over variable-length sequences (Chainer's n_step_* functions).
#include "chainerx/routines/rnn.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <tuple>
#include <vector>

#include "common.h"

namespace chainerx {
namespace python {
namespace {

using ArrayLists = std::vector<std::vector<Array>>;
using LstmOutputs = std::tuple<Array, Array, std::vector<Array>>;
using RnnOutputs = std::tuple<Array, std::vector<Array>>;
using LstmFn = NStepLstmResult (*)(int64_t, const Array&, const Array&, const ArrayLists&, const ArrayLists&,
                                   const std::vector<Array>&);
using GruFn = NStepRnnResult (*)(int64_t, const Array&, const ArrayLists&, const ArrayLists&,
                                 const std::vector<Array>&);
using RnnFn = NStepRnnResult (*)(int64_t, const Array&, const ArrayLists&, const ArrayLists&, const std::vector<Array>&,
                                 RnnActivation);

RnnActivation ActivationArg(const std::string& activation) {
    if (activation == "tanh") return RnnActivation::kTanh;
    if (activation == "relu") return RnnActivation::kRelu;
    throw nb::value_error(("activation must be 'tanh' or 'relu', got '" + activation + "'").c_str());
}

template <LstmFn F>
void DefLstm(nb::module_& m, const char* name, const char* doc) {
    m.def(
            name,
            [](int64_t n_layers, const Array& hx, const Array& cx, const ArrayLists& ws, const ArrayLists& bs,
               const std::vector<Array>& xs) {
                NStepLstmResult r = F(n_layers, hx, cx, ws, bs, xs);
                return LstmOutputs{r.hy, r.cy, r.ys};
            },
            nb::arg("n_layers"), nb::arg("hx"), nb::arg("cx"), nb::arg("ws"), nb::arg("bs"), nb::arg("xs"), doc);
}

template <GruFn F>
void DefGru(nb::module_& m, const char* name, const char* doc) {
    m.def(
            name,
            [](int64_t n_layers, const Array& hx, const ArrayLists& ws, const ArrayLists& bs,
               const std::vector<Array>& xs) {
                NStepRnnResult r = F(n_layers, hx, ws, bs, xs);
                return RnnOutputs{r.hy, r.ys};
            },
            nb::arg("n_layers"), nb::arg("hx"), nb::arg("ws"), nb::arg("bs"), nb::arg("xs"), doc);
}

template <RnnFn F>
void DefRnn(nb::module_& m, const char* name, const char* doc) {
    m.def(
            name,
            [](int64_t n_layers, const Array& hx, const ArrayLists& ws, const ArrayLists& bs,
               const std::vector<Array>& xs, const std::string& activation) {
                NStepRnnResult r = F(n_layers, hx, ws, bs, xs, ActivationArg(activation));
                return RnnOutputs{r.hy, r.ys};
            },
            nb::arg("n_layers"), nb::arg("hx"), nb::arg("ws"), nb::arg("bs"), nb::arg("xs"),
            nb::arg("activation") = "tanh", doc);
}

}  // namespace

void InitRnn(nb::module_& m) {
    DefLstm<&NStepLstm>(m, "n_step_lstm",
                        "Stacked uni-directional LSTM over sequences sorted by decreasing length; "
                        "returns (hy, cy, ys).");
    DefLstm<&NStepBiLstm>(m, "n_step_bilstm",
                          "Stacked bi-directional LSTM over sequences sorted by decreasing "
                          "length; returns (hy, cy, ys).");
    DefGru<&NStepGru>(m, "n_step_gru",
                      "Stacked uni-directional GRU over sequences sorted by decreasing length; "
                      "returns (hy, ys).");
    DefGru<&NStepBiGru>(m, "n_step_bigru",
                        "Stacked bi-directional GRU over sequences sorted by decreasing length; "
                        "returns (hy, ys).");
    DefRnn<&NStepRnn>(m, "n_step_rnn",
                      "Stacked uni-directional Elman RNN ('tanh' or 'relu') over sequences sorted "
                      "by decreasing length; returns (hy, ys).");
    DefRnn<&NStepBiRnn>(m, "n_step_birnn",
                        "Stacked bi-directional Elman RNN ('tanh' or 'relu') over sequences "
                        "sorted by decreasing length; returns (hy, ys).");
}

}  // namespace python
}  // namespace chainerx
