"""sigmoid_cross_entropy: stable binary cross entropy, ignore label, normalisation."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16


def _reference(x, t, normalize, reduce):
    x = x.astype(numpy.float64)
    p = 1 / (1 + numpy.exp(-x))
    loss = numpy.where(t == -1, 0, -(t * numpy.log(p) + (1 - t) * numpy.log(1 - p)))
    if reduce == "no":
        return loss
    count = numpy.sum(t != -1) if normalize else (len(x) if x.ndim else 1)
    return numpy.asarray(loss.sum() / max(count, 1))


@testing.parameterize(
    *testing.product(
        {
            "shape": [(4, 3), (5,), (2, 2, 2), (), (0, 2)],
            "dtype": FLOAT_DTYPES,
            "normalize": [True, False],
            "reduce": ["mean", "no"],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestSigmoidCrossEntropy(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        x = numpy.random.uniform(-3, 3, self.shape).astype(self.dtype)
        t = numpy.random.randint(-1, 2, self.shape).astype(numpy.int32)
        return x, t

    def forward(self, inputs, device):
        x, t = inputs
        return (F.sigmoid_cross_entropy(x, t, self.normalize, self.reduce),)

    def forward_expected(self, inputs):
        x, t = inputs
        return (_reference(x, t, self.normalize, self.reduce).astype(self.dtype),)


def test_extreme_scores_stay_finite():
    x = numpy.array([1000.0, -1000.0, 1000.0], numpy.float32)
    t = numpy.array([1, 0, 0], numpy.int32)
    numpy.testing.assert_allclose(F.sigmoid_cross_entropy(x, t, reduce="no").array, [0, 0, 1000])


def test_all_ignored_gives_zero():
    x = chainer.Variable(numpy.ones((2, 2), numpy.float32))
    loss = F.sigmoid_cross_entropy(x, numpy.full((2, 2), -1, numpy.int32))
    loss.backward()
    assert float(loss.array) == 0
    numpy.testing.assert_array_equal(x.grad, 0)


def test_bad_arguments_raise():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match="only 'mean' and 'no' are valid for 'reduce', but 'sum'"):
        F.sigmoid_cross_entropy(x, x.astype(numpy.int32), reduce="sum")
    with pytest.raises(type_check.InvalidType, match=r"SigmoidCrossEntropy[\s\S]*x.shape == t"):
        F.sigmoid_cross_entropy(x, numpy.zeros((3, 2), numpy.int32))
    with pytest.raises(type_check.InvalidType, match=r"t.dtype.kind == i"):
        F.sigmoid_cross_entropy(x, x)
