"""polygamma."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

special = pytest.importorskip("scipy.special")


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "shapes": [((3, 2), (3, 2)), ((), (3, 2)), ((2,), (3, 2)), ((), ())],
        }
    )
)
@testing.inject_backend_tests(None, [{}])
class TestPolyGamma(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 1e-2, "rtol": 1e-2}
            self.check_backward_options = {"atol": 5e-2, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-2, "rtol": 5e-2}
        else:
            self.check_backward_options = {"atol": 1e-3, "rtol": 1e-3}
            self.check_double_backward_options = {"atol": 1e-3, "rtol": 1e-3}

    def generate_inputs(self):
        n_shape, x_shape = self.shapes
        self.n = numpy.asarray(numpy.random.randint(0, 3, n_shape), dtype=numpy.int32)
        return (numpy.random.uniform(1, 3, x_shape).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.polygamma(device.send(self.n), inputs[0]),)

    def forward_expected(self, inputs):
        y = special.polygamma(self.n, inputs[0].astype(numpy.float64))
        return (numpy.asarray(y, dtype=self.dtype),)


def test_order_zero_is_digamma():
    x = numpy.array([0.5, 1.0, 2.5])
    y = F.polygamma(numpy.zeros(3, numpy.int32), x)
    numpy.testing.assert_allclose(y.array, special.psi(x))


def test_bad_inputs_are_rejected():
    x = numpy.ones(3)
    with pytest.raises(type_check.InvalidType, match=r"n\.dtype\.kind == i"):
        F.polygamma(numpy.ones(3), x)
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        F.polygamma(numpy.ones(3, numpy.int32), numpy.ones(3, numpy.int32))
    with pytest.raises(type_check.InvalidType, match=r"cannot broadcast \(2,\), \(3,\)"):
        F.polygamma(numpy.ones(2, numpy.int32), x)
