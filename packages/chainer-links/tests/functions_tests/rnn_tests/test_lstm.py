"""lstm: gate layout, shrinking batches, gradients of both outputs (each alone too)."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check, testing
from chainer.functions.rnn import lstm as lstm_module
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def lstm_reference(c_prev, x):
    """LSTM with gates a, i, f, o interleaved along axis 1 (channel 4 * unit + gate)."""
    c_prev = c_prev.astype(numpy.float64)
    x = x.astype(numpy.float64)
    batch = len(x)
    a = numpy.tanh(x[:, 0::4])
    i = _sigmoid(x[:, 1::4])
    f = _sigmoid(x[:, 2::4])
    o = _sigmoid(x[:, 3::4])
    c = a * i + f * c_prev[:batch]
    h = o * numpy.tanh(c)
    return numpy.concatenate([c, c_prev[batch:]]), h


@testing.parameterize(
    *testing.product(
        {
            "shapes": [
                ((3, 2), (3, 8)),
                ((2, 2, 3), (2, 8, 3)),
                ((3, 2), (2, 8)),
                ((2, 3), (0, 12)),
            ],
            "dtype": FLOAT_DTYPES,
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestLSTM(testing.FunctionTestCase):
    def setUp(self):
        self.c_shape, self.x_shape = self.shapes
        loosen_for_float16(self)

    def generate_inputs(self):
        c_prev = numpy.random.uniform(-1, 1, self.c_shape).astype(self.dtype)
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.dtype)
        return c_prev, x

    def forward(self, inputs, device):
        return F.lstm(*inputs)

    def forward_expected(self, inputs):
        return tuple(y.astype(self.dtype) for y in lstm_reference(*inputs))


@pytest.mark.parametrize("output", [0, 1])
@pytest.mark.parametrize("x_rows", [3, 2])
def test_lstm_gradient_of_one_output_alone(output, x_rows):
    rng = numpy.random.default_rng(1)
    c_prev = rng.uniform(-1, 1, (3, 2))
    x = rng.uniform(-1, 1, (x_rows, 8))
    shape = (3, 2) if output == 0 else (x_rows, 2)
    gy = rng.uniform(-1, 1, shape)
    ggs = (rng.uniform(-1, 1, c_prev.shape), rng.uniform(-1, 1, x.shape))

    def f(c, v):
        return F.lstm(c, v)[output]

    gradient_check.check_backward(f, (c_prev, x), gy)
    gradient_check.check_double_backward(f, (c_prev, x), gy, ggs)


def test_lstm_rejects_wrong_gate_count():
    with pytest.raises(type_check.InvalidType, match=r"LSTM[\s\S]*x\.shape\[1\] == 4 \* c_prev"):
        F.lstm(numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 8), numpy.float32))


def test_lstm_rejects_more_inputs_than_cells():
    with pytest.raises(type_check.InvalidType, match=r"x\.shape\[0\] <= c_prev\.shape\[0\]"):
        F.lstm(numpy.zeros((1, 2), numpy.float32), numpy.zeros((2, 8), numpy.float32))


def test_lstm_rejects_mismatched_trailing_axes_and_dtypes():
    with pytest.raises(type_check.InvalidType, match=r"x\.shape\[2\] == c_prev\.shape\[2\]"):
        F.lstm(numpy.zeros((1, 2, 3), numpy.float32), numpy.zeros((1, 8, 4), numpy.float32))
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype == c_prev\.dtype"):
        F.lstm(numpy.zeros((1, 2), numpy.float32), numpy.zeros((1, 8), numpy.float64))


@testing.fix_random()
@pytest.mark.parametrize("batch", [3, 2])
def test_lstm_grad_node_gives_lstm_gradients_and_their_derivatives(batch):
    c_prev = numpy.random.uniform(-1, 1, (3, 2, 4))
    x = numpy.random.uniform(-1, 1, (batch, 8, 4))
    gc = numpy.random.uniform(-1, 1, (3, 2, 4))
    gh = numpy.random.uniform(-1, 1, (batch, 2, 4))
    c_var, x_var = chainer.Variable(c_prev), chainer.Variable(x)
    c_next, h = F.lstm(c_var, x_var)
    expected = chainer.grad([c_next, h], [c_var, x_var], [gc, gh])
    node = lstm_module.LSTMGrad()
    gc_prev, gx = node.apply((c_prev, x, c_next.array, gc, gh))
    numpy.testing.assert_allclose(gc_prev.array, expected[0].array)
    numpy.testing.assert_allclose(gx.array, expected[1].array)
    grad_outputs = (
        numpy.random.uniform(-1, 1, c_prev.shape),
        numpy.random.uniform(-1, 1, x.shape),
    )
    gradient_check.check_backward(
        lstm_module.LSTMGrad(),  # callable, as Chainer's old-style LSTMGrad
        (c_prev, x, c_next.array, gc, gh),
        grad_outputs,
        atol=1e-4,
        rtol=1e-4,
    )
