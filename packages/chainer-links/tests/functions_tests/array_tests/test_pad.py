"""pad: every copying mode against hand-built index maps, gradients, and the checks."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


def _source_index(i, n, mode):
    """The input position that padded position ``i`` (relative to the input start) copies."""
    if 0 <= i < n:
        return i
    if mode == "constant":
        return None
    if mode == "edge":
        return min(max(i, 0), n - 1)
    if mode == "wrap":
        return i % n
    if mode == "symmetric":  # mirror including the edge: ... 1 0 | 0 1 2 | 2 1 ...
        period = 2 * n
        i %= period
        return i if i < n else period - 1 - i
    period = 2 * (n - 1)  # reflect: mirror around the edge: ... 2 1 | 0 1 2 | 1 0 ...
    i %= period
    return i if i < n else period - i


def _pad_loops(x, widths, mode, value):
    out_shape = tuple(n + a + b for n, (a, b) in zip(x.shape, widths))
    y = numpy.full(out_shape, value, x.dtype)
    for index in numpy.ndindex(*out_shape):
        source = tuple(
            _source_index(i - a, n, mode) for i, (a, _), n in zip(index, widths, x.shape)
        )
        if None not in source:
            y[index] = x[source]
    return y


@testing.parameterize(
    *testing.product(
        {
            "case": [
                ((3,), 2, "constant", {}),
                ((2, 3), ((1, 0), (2, 1)), "constant", {"constant_values": 1.5}),
                ((2, 3), (1, 2), "edge", {}),
                ((3, 2), ((2, 2), (0, 1)), "reflect", {}),
                ((3, 2), ((3, 1), (1, 0)), "symmetric", {}),
                ((2, 2), ((3, 0), (1, 2)), "wrap", {}),
                ((), 0, "constant", {}),
            ],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestPad(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.pad_width, self.mode, self.keywords = self.case
        if self.dtype == numpy.float16:
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.pad(inputs[0], self.pad_width, self.mode, **self.keywords),)

    def forward_expected(self, inputs):
        (x,) = inputs
        widths = numpy.broadcast_to(numpy.asarray(self.pad_width), (x.ndim, 2)).tolist()
        value = self.keywords.get("constant_values", 0)
        return (_pad_loops(x, widths, self.mode, value),)


def test_statistic_modes_work_forward_but_have_no_gradient():
    x = chainer.Variable(numpy.array([1.0, 3.0], numpy.float32))
    y = F.pad(x, 1, "mean")
    numpy.testing.assert_array_equal(y.array, [2, 1, 3, 2])
    y.grad = numpy.ones(4, numpy.float32)
    with pytest.raises(NotImplementedError, match=r"mode='mean'.*has no gradient"):
        y.backward()


def test_odd_reflection_has_no_gradient():
    x = chainer.Variable(numpy.array([1.0, 3.0], numpy.float32))
    y = F.pad(x, 1, "reflect", reflect_type="odd")
    y.grad = numpy.ones(4, numpy.float32)
    with pytest.raises(NotImplementedError, match="reflect_type='even'"):
        y.backward()


def test_integer_input_is_rejected():
    with pytest.raises(type_check.InvalidType, match=r"x.dtype.kind == f"):
        F.pad(numpy.zeros(3, numpy.int32), 1, "constant")
