"""tree_lstm: any number of children; gates a, i, o, f_1 .. f_n; gradients of every input."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def tree_lstm_reference(*inputs):
    """Child-sum TreeLSTM; x holds the gates a, i, o, f_1 .. f_n in blocks along axis 1."""
    *cs, x = (v.astype(numpy.float64) for v in inputs)
    h = x.shape[1] // (3 + len(cs))

    def gate(k):
        return x[:, k * h : (k + 1) * h]

    c = numpy.tanh(gate(0)) * _sigmoid(gate(1))
    for k, c_child in enumerate(cs):
        c = c + _sigmoid(gate(3 + k)) * c_child
    return c, _sigmoid(gate(2)) * numpy.tanh(c)


@testing.parameterize(
    *testing.product({"n_children": [1, 2, 3], "trailing": [(), (2,)], "dtype": FLOAT_DTYPES})
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestTreeLSTM(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        units = 2
        c_shape = (3, units) + self.trailing
        x_shape = (3, (3 + self.n_children) * units) + self.trailing
        cs = [
            numpy.random.uniform(-1, 1, c_shape).astype(self.dtype) for _ in range(self.n_children)
        ]
        return (*cs, numpy.random.uniform(-1, 1, x_shape).astype(self.dtype))

    def forward(self, inputs, device):
        return F.tree_lstm(*inputs)

    def forward_expected(self, inputs):
        return tuple(y.astype(self.dtype) for y in tree_lstm_reference(*inputs))


def test_tree_lstm_rejects_wrong_gate_count():
    c = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(
        type_check.InvalidType, match=r"TreeLSTM[\s\S]*x\.shape\[1\] == 5 \* c1\.shape\[1\]"
    ):
        F.tree_lstm(c, c, numpy.zeros((2, 12), numpy.float32))


def test_tree_lstm_needs_a_child_and_an_input():
    with pytest.raises(type_check.InvalidType, match=r"in_types\.size >= 2\nActual: 1 < 2"):
        F.tree_lstm(numpy.zeros((2, 12), numpy.float32))
