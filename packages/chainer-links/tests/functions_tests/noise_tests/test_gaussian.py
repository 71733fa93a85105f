"""gaussian: mean + exp(ln_var / 2) * eps, gradients through both inputs, eps statistics."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.testing import attr
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX

DTYPES = [numpy.float16, numpy.float32, numpy.float64]


@testing.parameterize(*testing.product({"shape": [(3, 2), (), (0, 2)], "dtype": DTYPES}))
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestGaussianWithEps(testing.FunctionTestCase):
    """With fixed noise, the sample is a deterministic, smooth function of its inputs."""

    def setUp(self):
        self.eps = numpy.random.standard_normal(self.shape).astype(self.dtype)
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 5e-3, "rtol": 5e-3}
            self.check_backward_options = {"atol": 5e-3, "rtol": 5e-2, "eps": 2.0**-6}
            self.check_double_backward_options = self.check_backward_options

    def generate_inputs(self):
        mean = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        ln_var = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        return mean, ln_var

    def forward(self, inputs, device):
        return (F.gaussian(*inputs, eps=self.eps),)

    def forward_expected(self, inputs):
        mean, ln_var = (a.astype(numpy.float64) for a in inputs)
        y = mean + numpy.sqrt(numpy.exp(ln_var)) * self.eps
        return (numpy.asarray(y, self.dtype),)


@testing.fix_random()
def test_gaussian_draws_from_the_given_distribution():
    mean = numpy.full(20000, 3.0, numpy.float32)
    ln_var = numpy.full(20000, numpy.log(4.0), numpy.float32)
    y, eps = F.gaussian(mean, ln_var, return_eps=True)
    assert eps.shape == mean.shape and eps.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, 3.0 + 2.0 * eps, rtol=1e-6)
    assert abs(float(y.array.mean()) - 3.0) < 0.05
    assert abs(float(y.array.std()) - 2.0) < 0.05


@attr.chainerx
@pytest.mark.parametrize("dtype", DTYPES)
def test_gaussian_on_chainerx_draws_the_numpy_noise_and_keeps_it_on_the_device(dtype):
    import chainerx

    mean = numpy.random.uniform(-1, 1, (3, 2)).astype(dtype)
    ln_var = numpy.random.uniform(-1, 1, (3, 2)).astype(dtype)
    numpy.random.seed(5)
    y_numpy, eps_numpy = F.gaussian(mean, ln_var, return_eps=True)
    numpy.random.seed(5)
    y_chx, eps_chx = F.gaussian(chainerx.array(mean), chainerx.array(ln_var), return_eps=True)
    assert isinstance(eps_chx, chainerx.ndarray) and eps_chx.dtype == dtype
    assert y_chx.dtype == dtype
    numpy.testing.assert_array_equal(chainerx.to_numpy(eps_chx), eps_numpy)
    tolerance = 1e-3 if dtype == numpy.float16 else 1e-6
    numpy.testing.assert_allclose(
        chainerx.to_numpy(y_chx.array), y_numpy.array, atol=tolerance, rtol=tolerance
    )
    again = F.gaussian(chainerx.array(mean), chainerx.array(ln_var), eps=eps_chx)
    numpy.testing.assert_array_equal(
        chainerx.to_numpy(again.array), chainerx.to_numpy(y_chx.array)
    )


def test_gaussian_samples_in_test_mode_too():
    with chainer.using_config("train", False):
        y = F.gaussian(numpy.zeros(100, numpy.float32), numpy.zeros(100, numpy.float32))
    assert float(y.array.std()) > 0.5


def test_gaussian_rejects_mismatched_inputs():
    with pytest.raises(type_check.InvalidType, match=r"Gaussian[\s\S]*mean\.shape == ln_var"):
        F.gaussian(numpy.zeros(2, numpy.float32), numpy.zeros(3, numpy.float32))
    with pytest.raises(type_check.InvalidType, match=r"mean\.dtype == ln_var\.dtype"):
        F.gaussian(numpy.zeros(2, numpy.float32), numpy.zeros(2, numpy.float64))
    with pytest.raises(type_check.InvalidType, match=r"eps\.shape == ln_var\.shape"):
        zeros = numpy.zeros(2, numpy.float32)
        F.gaussian(zeros, zeros, eps=numpy.zeros(3, numpy.float32))


def test_gaussian_rejects_unknown_options():
    zeros = numpy.zeros(2, numpy.float32)
    with pytest.raises(TypeError, match=r"gaussian\(\) got unexpected keyword argument"):
        F.gaussian(zeros, zeros, noise=zeros)
