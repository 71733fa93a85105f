"""average / mean: the core's mean, plus elementwise weights for axis=None."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing

from ..backend_configs import CPU_AND_CHAINERX


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "case": [
                ((3, 4), None, False, False),
                ((3, 4), 1, False, True),
                ((3, 4), 0, True, False),
                ((2, 3, 4), (0, 2), False, False),
                ((3, 4), None, True, True),
                ((2, 3), -1, True, True),
                ((), None, False, False),
            ],
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestAverage(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.axis, self.weighted, self.keepdims = self.case
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 5e-3, "rtol": 5e-3}
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-3, "rtol": 5e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        if not self.weighted:
            return (x,)
        w_shape = self.shape if self.axis is None else (self.shape[self.axis],)
        return x, numpy.random.uniform(0.5, 1, w_shape).astype(self.dtype)

    def forward(self, inputs, device):
        weights = inputs[1] if self.weighted else None
        return (F.average(inputs[0], self.axis, weights, self.keepdims),)

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        if self.weighted:
            w = inputs[1].astype(numpy.float64)
            if self.axis is not None:
                shape = [1] * x.ndim
                shape[self.axis] = -1
                w = numpy.broadcast_to(w.reshape(shape), x.shape)
            y = (x * w).sum(self.axis, keepdims=self.keepdims) / w.sum(
                self.axis, keepdims=self.keepdims
            )
        else:
            y = x.mean(self.axis, keepdims=self.keepdims)
        return (numpy.asarray(y, dtype=self.dtype),)


def test_mean_is_average():
    assert F.mean is F.average


def test_weights_that_do_not_fit_are_rejected():
    x = numpy.ones((2, 3))
    with pytest.raises(ValueError, match=r"shape of x \(2, 3\) when axis is None, got \(3,\)"):
        F.average(x, weights=numpy.ones(3))
    with pytest.raises(ValueError, match=r"1-D of length 3 \(x\.shape\[1\]\), got \(2,\)"):
        F.average(x, axis=1, weights=numpy.ones(2))
    with pytest.raises(ValueError, match=r"single integer axis or None, got axis=\(0, 1\)"):
        F.average(x, axis=(0, 1), weights=numpy.ones(3))
