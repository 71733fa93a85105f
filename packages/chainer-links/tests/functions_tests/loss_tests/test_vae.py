"""gaussian_kl_divergence, gaussian_nll, bernoulli_nll."""

import math

import numpy
import pytest

import chainer.functions as F
from chainer import testing

from .conftest import FLOAT_DTYPES, loosen_for_float16


def _expected(name, inputs):
    a = [x.astype(numpy.float64) for x in inputs]
    if name == "gaussian_kl_divergence":
        mean, ln_var = a
        return (mean**2 + numpy.exp(ln_var) - ln_var - 1) / 2
    if name == "gaussian_nll":
        x, mean, ln_var = a
        var = numpy.exp(ln_var)
        return 0.5 * numpy.log(2 * math.pi * var) + (x - mean) ** 2 / (2 * var)
    x, y = a
    p = 1 / (1 + numpy.exp(-y))
    return -(x * numpy.log(p) + (1 - x) * numpy.log(1 - p))


@testing.parameterize(
    *testing.product(
        {
            "name": ["gaussian_kl_divergence", "gaussian_nll", "bernoulli_nll"],
            "shape": [(3, 2), ()],
            "dtype": FLOAT_DTYPES,
            "reduce": ["sum", "mean", "no"],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, [{}])
class TestVAELosses(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        n_inputs = 3 if self.name == "gaussian_nll" else 2
        inputs = [numpy.random.uniform(-1, 1, self.shape) for _ in range(n_inputs)]
        if self.name == "bernoulli_nll":
            inputs[0] = numpy.random.uniform(0, 1, self.shape)
        return tuple(numpy.asarray(x, self.dtype) for x in inputs)

    def forward(self, inputs, device):
        return (getattr(F, self.name)(*inputs, reduce=self.reduce),)

    def forward_expected(self, inputs):
        loss = _expected(self.name, inputs)
        if self.reduce == "sum":
            loss = loss.sum()
        elif self.reduce == "mean":
            loss = loss.mean()
        return (numpy.asarray(loss, self.dtype),)


@pytest.mark.parametrize("name", ["gaussian_kl_divergence", "bernoulli_nll"])
def test_bad_reduce_raises(name):
    x = numpy.zeros(2, numpy.float32)
    with pytest.raises(
        ValueError, match="only 'sum' and 'mean' and 'no' are valid for 'reduce', but 'avg'"
    ):
        getattr(F, name)(x, x, reduce="avg")


def test_gaussian_nll_bad_reduce_raises():
    x = numpy.zeros(2, numpy.float32)
    with pytest.raises(ValueError, match="but 'avg' is given"):
        F.gaussian_nll(x, x, x, reduce="avg")
