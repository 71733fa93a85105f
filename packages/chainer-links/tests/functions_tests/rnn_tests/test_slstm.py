"""slstm: two children merged into one cell; gradients of all four inputs."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check, testing
from chainer.functions.rnn import slstm as slstm_module
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def slstm_reference(c1, c2, x1, x2):
    """S-LSTM with gates a, i, f, o interleaved along axis 1 of each input: each child's
    input gate scales its own cell input."""
    c1, c2, x1, x2 = (v.astype(numpy.float64) for v in (c1, c2, x1, x2))
    a1, a2 = numpy.tanh(x1[:, 0::4]), numpy.tanh(x2[:, 0::4])
    i1, i2 = _sigmoid(x1[:, 1::4]), _sigmoid(x2[:, 1::4])
    f1 = _sigmoid(x1[:, 2::4])
    f2 = _sigmoid(x2[:, 2::4])
    o = _sigmoid(x1[:, 3::4] + x2[:, 3::4])
    c = a1 * i1 + a2 * i2 + f1 * c1 + f2 * c2
    return c, o * numpy.tanh(c)


@testing.parameterize(
    *testing.product({"shapes": [((3, 2), (3, 8)), ((2, 2, 2), (2, 8, 2))], "dtype": FLOAT_DTYPES})
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestSLSTM(testing.FunctionTestCase):
    def setUp(self):
        self.c_shape, self.x_shape = self.shapes
        loosen_for_float16(self)

    def generate_inputs(self):
        cs = [numpy.random.uniform(-1, 1, self.c_shape).astype(self.dtype) for _ in range(2)]
        xs = [numpy.random.uniform(-1, 1, self.x_shape).astype(self.dtype) for _ in range(2)]
        return (*cs, *xs)

    def forward(self, inputs, device):
        return F.slstm(*inputs)

    def forward_expected(self, inputs):
        return tuple(y.astype(self.dtype) for y in slstm_reference(*inputs))


@pytest.mark.parametrize("output", [0, 1])
def test_slstm_gradient_of_one_output_alone(output):
    rng = numpy.random.default_rng(2)
    inputs = (
        rng.uniform(-1, 1, (2, 3)),
        rng.uniform(-1, 1, (2, 3)),
        rng.uniform(-1, 1, (2, 12)),
        rng.uniform(-1, 1, (2, 12)),
    )
    gy = rng.uniform(-1, 1, (2, 3))
    ggs = tuple(rng.uniform(-1, 1, v.shape) for v in inputs)

    def f(*args):
        return F.slstm(*args)[output]

    gradient_check.check_backward(f, inputs, gy)
    gradient_check.check_double_backward(f, inputs, gy, ggs)


def test_slstm_rejects_mismatched_children():
    c = numpy.zeros((2, 3), numpy.float32)
    x = numpy.zeros((2, 12), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"SLSTM[\s\S]*c_prev2\.shape == c_prev1"):
        F.slstm(c, numpy.zeros((2, 4), numpy.float32), x, x)
    with pytest.raises(type_check.InvalidType, match=r"x1\.shape == x2\.shape"):
        F.slstm(c, c, x, numpy.zeros((2, 8), numpy.float32))


@testing.fix_random()
def test_slstm_grad_node_gives_slstm_gradients_and_their_derivatives():
    c1, c2 = (numpy.random.uniform(-1, 1, (3, 2, 4)) for _ in range(2))
    x1, x2 = (numpy.random.uniform(-1, 1, (3, 8, 4)) for _ in range(2))
    gc, gh = (numpy.random.uniform(-1, 1, (3, 2, 4)) for _ in range(2))
    inputs = [chainer.Variable(v) for v in (c1, c2, x1, x2)]
    c, h = F.slstm(*inputs)
    expected = chainer.grad([c, h], inputs, [gc, gh])
    grads = slstm_module.SLSTMGrad()(c1, c2, x1, x2, c.array, gc, gh)
    for g, e in zip(grads, expected):
        numpy.testing.assert_allclose(g.array, e.array)
    grad_outputs = tuple(numpy.random.uniform(-1, 1, v.shape) for v in (c1, c2, x1, x2))
    gradient_check.check_backward(
        slstm_module.SLSTMGrad(), (c1, c2, x1, x2, c.array, gc, gh), grad_outputs, atol=1e-4
    )
