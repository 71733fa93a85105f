"""maximum and minimum (elementwise, with broadcasting)."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "function": ["maximum", "minimum"],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "shapes": [((3, 2), (3, 2)), ((3, 2), (2,)), ((), ()), ((0, 2), (2,))],
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestMaximumMinimum(testing.FunctionTestCase):
    dodge_nondifferentiable = True

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 1e-3, "rtol": 1e-3}
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in self.shapes)

    def forward(self, inputs, device):
        return (getattr(F, self.function)(*inputs),)

    def forward_expected(self, inputs):
        x1, x2 = numpy.broadcast_arrays(*inputs)
        pick_first = x1 >= x2 if self.function == "maximum" else x1 <= x2
        return (numpy.asarray(numpy.where(pick_first, x1, x2), dtype=self.dtype),)


@pytest.mark.parametrize("function", ["maximum", "minimum"])
def test_ties_send_the_gradient_to_x1(function):
    x1 = chainer.Variable(numpy.array([1.0, 2.0]))
    x2 = chainer.Variable(numpy.array([1.0, 0.0 if function == "maximum" else 3.0]))
    F.sum(getattr(F, function)(x1, x2)).backward()
    numpy.testing.assert_array_equal(x1.grad, [1.0, 1.0])
    numpy.testing.assert_array_equal(x2.grad, [0.0, 0.0])


@pytest.mark.parametrize("function", ["maximum", "minimum"])
def test_bad_inputs_are_rejected(function):
    f = getattr(F, function)
    with pytest.raises(type_check.InvalidType, match=r"x1\.dtype == x2\.dtype"):
        f(numpy.ones(2, numpy.float32), numpy.ones(2, numpy.float64))
    with pytest.raises(type_check.InvalidType, match=r"x1\.dtype\.kind == f"):
        f(numpy.ones(2, numpy.int32), numpy.ones(2, numpy.int32))
    with pytest.raises(type_check.InvalidType, match=r"cannot broadcast \(2,\), \(3,\)"):
        f(numpy.ones(2), numpy.ones(3))
