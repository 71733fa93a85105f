"""n_step_rnn and n_step_birnn (tanh and ReLU) against a per-sequence NumPy RNN."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import NStepCase, n_step_params, rnn_cell, time_major_inputs


def _relu(x):
    return numpy.maximum(x, 0)


@testing.parameterize(
    *testing.product(
        {
            "n_layers": [1, 2],
            "bi": [False, True],
            "activation": ["tanh", "relu"],
            "lengths": [(3, 2, 2), (2,)],
            "dtype": [numpy.float32, numpy.float64],
        }
    ),
    *testing.product(
        {
            "n_layers": [2],
            "bi": [False, True],
            "activation": ["tanh"],
            "lengths": [(3, 1)],
            "dtype": [numpy.float16],
        }
    ),
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestNStepRNN(NStepCase, testing.FunctionTestCase):
    functions = (F.n_step_rnn, F.n_step_birnn)
    n_weights = 2
    state_names = ("hx",)

    def setUp(self):
        super().setUp()
        self.cell = rnn_cell(numpy.tanh if self.activation == "tanh" else _relu)
        self.dodge_nondifferentiable = self.activation == "relu"

    def forward(self, inputs, device):
        states, ws, bs, xs = self._split(inputs)
        function = self.functions[self.bi]
        hy, ys = function(self.n_layers, 0.0, *states, ws, bs, xs, activation=self.activation)
        return (hy, *ys)


def test_activation_is_positional_too():
    rng = numpy.random.default_rng(0)
    ws, bs = n_step_params(rng, 1, 1, 2, 3, 2, numpy.float64)
    xs = time_major_inputs(rng, (2, 1), 3, numpy.float64)
    hx = numpy.zeros((1, 2, 2))
    hy, ys = F.n_step_rnn(1, 0.0, hx, ws, bs, xs, "relu")
    expected = _relu(xs[0] @ ws[0][0].T + bs[0][0] + bs[0][1])
    numpy.testing.assert_allclose(ys[0].array, expected, rtol=1e-12)


@pytest.mark.parametrize("activation", ["sigmoid", None, numpy.tanh])
def test_rejects_unknown_activation(activation):
    rng = numpy.random.default_rng(1)
    ws, bs = n_step_params(rng, 1, 2, 2, 3, 2, numpy.float32)
    xs = time_major_inputs(rng, (2,), 3, numpy.float32)
    hx = numpy.zeros((2, 1, 2), numpy.float32)
    with pytest.raises(ValueError, match=r"n_step_birnn: activation must be one of \['relu'"):
        F.n_step_birnn(1, 0.0, hx, ws, bs, xs, activation=activation)
