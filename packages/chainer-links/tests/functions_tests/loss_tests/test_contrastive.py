"""contrastive: similar pairs pulled together, dissimilar ones pushed past the margin."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16


@testing.parameterize(
    *testing.product(
        {
            "dtype": FLOAT_DTYPES,
            "margin": [1.0, 2.0],
            "reduce": ["mean", "no"],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestContrastive(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        x0 = numpy.random.uniform(-1, 1, (6, 3))
        direction = numpy.random.normal(size=(6, 3))
        direction /= numpy.linalg.norm(direction, axis=1, keepdims=True)
        # distances at least 0.1 from the margin (the kink of max(0, margin - d))
        distance = numpy.where(
            numpy.arange(6) % 2 == 0,
            numpy.random.uniform(0.2, self.margin - 0.1, 6),
            numpy.random.uniform(self.margin + 0.1, self.margin + 1, 6),
        )
        x1 = x0 + direction * distance[:, None]
        y = numpy.array([0, 0, 1, 1, 0, 1], numpy.int32)
        return x0.astype(self.dtype), x1.astype(self.dtype), y

    def forward(self, inputs, device):
        return (F.contrastive(*inputs, margin=self.margin, reduce=self.reduce),)

    def forward_expected(self, inputs):
        x0, x1, y = inputs
        loss = []
        for a, b, similar in zip(x0.astype(numpy.float64), x1.astype(numpy.float64), y):
            d = numpy.linalg.norm(a - b)
            loss.append(d**2 / 2 if similar else max(0.0, self.margin - d) ** 2 / 2)
        loss = numpy.array(loss)
        if self.reduce == "mean":
            loss = numpy.asarray(loss.mean())
        return (loss.astype(self.dtype),)


@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64])
def test_identical_pairs_have_zero_gradients_of_every_order(dtype):
    data = numpy.random.uniform(-1, 1, (3, 2)).astype(dtype)
    x0, x1 = chainer.Variable(data), chainer.Variable(data.copy())
    loss = F.contrastive(x0, x1, numpy.array([0, 1, 0], numpy.int32))
    assert float(loss.array) == pytest.approx(1 / 3, rel=1e-3)
    (gx0,) = chainer.grad([loss], [x0], enable_double_backprop=True)
    numpy.testing.assert_array_equal(gx0.array, numpy.zeros((3, 2), dtype))
    (ggx1,) = chainer.grad([F.sum(gx0 * gx0)], [x1])
    assert numpy.isfinite(ggx1.array).all()


def test_bad_arguments_raise():
    x = numpy.zeros((2, 3), numpy.float32)
    y = numpy.array([0, 1], numpy.int32)
    with pytest.raises(ValueError, match="margin should be positive, got 0"):
        F.contrastive(x, x, y, margin=0)
    with pytest.raises(ValueError, match="only 'mean' and 'no' are valid for 'reduce'"):
        F.contrastive(x, x, y, reduce="sum")
    with pytest.raises(type_check.InvalidType, match=r"Contrastive[\s\S]*x0.shape == x1.shape"):
        F.contrastive(x, numpy.zeros((2, 4), numpy.float32), y)
    with pytest.raises(type_check.InvalidType, match=r"x1.shape\[0\] > 0"):
        F.contrastive(x[:0], x[:0], y[:0])
