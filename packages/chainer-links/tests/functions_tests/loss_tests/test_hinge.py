"""hinge: one-vs-rest margins, L1 and L2."""

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
            "shape": [(5, 4), (1, 2)],
            "dtype": FLOAT_DTYPES,
            "norm": ["L1", "L2"],
            "reduce": ["mean", "no"],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestHinge(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        # scores at least 0.1 away from the kinks at +-1
        x = numpy.random.uniform(0, 0.8, self.shape) * numpy.random.choice([-1, 1], self.shape)
        x += numpy.where(numpy.random.rand(*self.shape) < 0.3, 1.2 * numpy.sign(x), 0)
        t = numpy.random.randint(0, self.shape[1], self.shape[0]).astype(numpy.int32)
        return x.astype(self.dtype), t

    def forward(self, inputs, device):
        x, t = inputs
        return (F.hinge(x, t, self.norm, self.reduce),)

    def forward_expected(self, inputs):
        x, t = inputs
        loss = numpy.zeros(x.shape)
        for i in range(x.shape[0]):
            for j in range(x.shape[1]):
                value = float(x[i, j])
                loss[i, j] = max(0.0, 1 - value) if j == t[i] else max(0.0, 1 + value)
        if self.norm == "L2":
            loss = loss**2
        if self.reduce == "mean":
            loss = numpy.asarray(loss.sum() / x.shape[0])
        return (loss.astype(self.dtype),)


def test_bad_arguments_raise():
    x = numpy.zeros((2, 3), numpy.float32)
    t = numpy.array([0, 1], numpy.int32)
    with pytest.raises(NotImplementedError, match="norm should be either 'L1' or 'L2', got 'L3'"):
        F.hinge(x, t, norm="L3")
    with pytest.raises(ValueError, match="only 'mean' and 'no' are valid for 'reduce'"):
        F.hinge(x, t, reduce="sum")
    with pytest.raises(ValueError, match=r"\[0, 3\).*got 3"):
        F.hinge(x, numpy.array([0, 3], numpy.int32))
    with pytest.raises(type_check.InvalidType, match=r"Hinge[\s\S]*x.ndim == 2"):
        F.hinge(numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.int32))
