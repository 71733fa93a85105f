"""rrelu: random slopes in training (given or drawn), their mean in test mode, errors."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.activation.rrelu import RReLU
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from ..chainerx_native import forbid_fallback, to_chainerx, to_numpy
from .conftest import FLOAT_DTYPES, loosen_for_float16, uniform_away_from_kinks


@testing.parameterize(
    *testing.product(
        {"shape": [(3, 2), (), (0, 2)], "train": [True, False], "dtype": FLOAT_DTYPES}
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestRReLU(testing.FunctionTestCase):
    lower = 0.1
    upper = 0.4

    def setUp(self):
        loosen_for_float16(self)
        self.r = numpy.random.uniform(self.lower, self.upper, self.shape).astype(self.dtype)

    def generate_inputs(self):
        return (uniform_away_from_kinks(-1, 1, self.shape, self.dtype),)

    def forward(self, inputs, device):
        with chainer.using_config("train", self.train):
            return (F.rrelu(inputs[0], l=self.lower, u=self.upper, r=self.r),)

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        slope = self.r if self.train else (self.lower + self.upper) / 2
        return (numpy.asarray(numpy.where(x >= 0, x, slope * x), self.dtype),)


@testing.fix_random()
def test_rrelu_draws_slopes_in_range_and_returns_them():
    x = -numpy.ones((50, 40), numpy.float32)
    y, r = F.rrelu(x, l=0.2, u=0.3, return_r=True)
    assert r.shape == x.shape and r.dtype == numpy.float32
    assert 0.2 <= r.min() and r.max() < 0.3
    assert abs(r.mean() - 0.25) < 0.005 and r.std() > 0.02  # uniform: std ~0.029
    numpy.testing.assert_array_equal(y.array, -r)


@testing.fix_random()
def test_rrelu_on_chainerx_draws_slopes_once_for_values_and_gradients(monkeypatch):
    forbid_fallback(monkeypatch, RReLU)
    (x,) = to_chainerx(-numpy.ones((20, 10), numpy.float32))
    x = chainer.Variable(x)
    y, r = F.rrelu(x, l=0.2, u=0.3, return_r=True)
    r = to_numpy(r)
    assert r.dtype == numpy.float32 and 0.2 <= r.min() and r.max() < 0.3 and r.std() > 0.02
    numpy.testing.assert_array_equal(to_numpy(y), -r)
    y.grad = y.xp.ones_like(y.array)
    y.backward()
    numpy.testing.assert_array_equal(to_numpy(x.grad), r)


def test_rrelu_test_mode_uses_the_mean_slope():
    with chainer.using_config("train", False):
        y, r = F.rrelu(numpy.array([-2.0, 3.0], numpy.float32), return_r=True)
    mean = (1 / 8 + 1 / 3) / 2
    numpy.testing.assert_allclose(r, [mean, mean])
    numpy.testing.assert_allclose(y.array, [-2 * mean, 3.0])


def test_rrelu_rejects_bad_bounds():
    with pytest.raises(ValueError, match=r"0 <= l < u, got l=0.5, u=0.5"):
        F.rrelu(numpy.zeros(2, numpy.float32), l=0.5, u=0.5)
    with pytest.raises(ValueError, match=r"got l=-0.1"):
        F.rrelu(numpy.zeros(2, numpy.float32), l=-0.1)


def test_rrelu_rejects_retired_and_unknown_options():
    x = numpy.zeros(2, numpy.float32)
    with pytest.raises(ValueError, match=r"train argument is not supported anymore"):
        F.rrelu(x, train=True)
    with pytest.raises(TypeError, match=r"rrelu\(\) got unexpected keyword argument\(s\) 'foo'"):
        F.rrelu(x, foo=1)


def test_rrelu_rejects_slopes_of_another_shape():
    with pytest.raises(type_check.InvalidType, match=r"RReLU[\s\S]*r\.shape == x\.shape"):
        F.rrelu(numpy.zeros(2, numpy.float32), r=numpy.zeros(3, numpy.float32))
