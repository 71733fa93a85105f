"""triplet: hinge on the difference of squared distances."""

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
            "dtype": FLOAT_DTYPES,
            "margin": [0.2, 1.0],
            "reduce": ["mean", "no"],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestTriplet(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def _gap(self, a, p, n):
        a, p, n = (v.astype(numpy.float64) for v in (a, p, n))
        return ((a - p) ** 2).sum(axis=1) - ((a - n) ** 2).sum(axis=1) + self.margin

    def generate_inputs(self):
        for _ in range(100):
            a, p, n = (numpy.random.uniform(-1, 1, (5, 3)).astype(self.dtype) for _ in range(3))
            gap = self._gap(a, p, n)
            if numpy.abs(gap).min() > 0.1 and (gap > 0).any():  # away from the kink
                return a, p, n
        raise AssertionError("could not sample triplets away from the hinge")

    def forward(self, inputs, device):
        return (F.triplet(*inputs, margin=self.margin, reduce=self.reduce),)

    def forward_expected(self, inputs):
        loss = numpy.maximum(self._gap(*inputs), 0)
        if self.reduce == "mean":
            loss = numpy.asarray(loss.mean())
        return (loss.astype(self.dtype),)


def test_bad_arguments_raise():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match="margin should be positive, got -1"):
        F.triplet(x, x, x, margin=-1)
    with pytest.raises(ValueError, match="only 'mean' and 'no' are valid for 'reduce'"):
        F.triplet(x, x, x, reduce="sum")
    with pytest.raises(type_check.InvalidType, match=r"Triplet[\s\S]*anchor.shape == negative"):
        F.triplet(x, x, numpy.zeros((2, 2), numpy.float32))
    with pytest.raises(type_check.InvalidType, match=r"anchor.ndim == 2"):
        F.triplet(x[0], x[0], x[0])
