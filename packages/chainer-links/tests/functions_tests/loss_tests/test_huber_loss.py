"""huber_loss: quadratic inside delta, linear outside."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16


@testing.parameterize(
    *testing.product(
        {
            "shape": [(4, 3), (2, 3, 2)],
            "dtype": FLOAT_DTYPES,
            "delta": [0.5, 1.0],
            "reduce": ["sum_along_second_axis", "no"],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestHuberLoss(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        t = numpy.random.uniform(-1, 1, self.shape)
        # differences at least 0.1 from the switch points +-delta
        magnitude = numpy.where(
            numpy.random.rand(*self.shape) < 0.5,
            numpy.random.uniform(0, self.delta - 0.1, self.shape),
            numpy.random.uniform(self.delta + 0.1, 2 * self.delta + 1, self.shape),
        )
        x = t + magnitude * numpy.random.choice([-1, 1], self.shape)
        return x.astype(self.dtype), t.astype(self.dtype)

    def forward(self, inputs, device):
        return (F.huber_loss(*inputs, delta=self.delta, reduce=self.reduce),)

    def forward_expected(self, inputs):
        x, t = (a.astype(numpy.float64) for a in inputs)
        d = numpy.abs(x - t)
        loss = numpy.where(d <= self.delta, d**2 / 2, self.delta * (d - self.delta / 2))
        if self.reduce == "sum_along_second_axis":
            loss = loss.sum(axis=1)
        return (loss.astype(self.dtype),)


def test_bad_arguments_raise():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match="only 'sum_along_second_axis' and 'no' are valid"):
        F.huber_loss(x, x, 1.0, reduce="mean")
    with pytest.raises(ValueError, match="delta must be positive, got 0"):
        F.huber_loss(x, x, 0)
    with pytest.raises(type_check.InvalidType, match=r"HuberLoss[\s\S]*x.ndim >= 2"):
        F.huber_loss(numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float32), 1.0)
    with pytest.raises(type_check.InvalidType, match=r"x.shape == t.shape"):
        F.huber_loss(x, numpy.zeros((3, 2), numpy.float32), 1.0)
