"""fft and ifft on (real, imag) pairs."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _dft(z, sign):
    # The transform as a matrix product, over the last axis.
    n = z.shape[-1]
    k = numpy.arange(n)
    matrix = numpy.exp(sign * 2j * numpy.pi * numpy.outer(k, k) / n)
    y = z @ matrix.T
    return y if sign < 0 else y / n


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "method": ["fft", "ifft"],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "shape": [(4,), (2, 3), (2, 1, 5)],
        }
    )
)
@testing.inject_backend_tests(None, [{}])
class TestFFT(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 1e-2, "rtol": 1e-2}
            self.check_backward_options = {"atol": 5e-2, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-2, "rtol": 5e-2}

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, self.shape).astype(self.dtype) for _ in "ri")

    def forward(self, inputs, device):
        return getattr(F, self.method)(inputs)

    def forward_expected(self, inputs):
        real, imag = (x.astype(numpy.float64) for x in inputs)
        y = _dft(real + 1j * imag, -1 if self.method == "fft" else 1)
        return y.real.astype(self.dtype), y.imag.astype(self.dtype)


def test_ifft_inverts_fft_and_one_output_can_be_unused():
    real = chainer.Variable(numpy.random.uniform(-1, 1, (2, 4)))
    imag = chainer.Variable(numpy.random.uniform(-1, 1, (2, 4)))
    back_real, _ = F.ifft(F.fft((real, imag)))
    numpy.testing.assert_allclose(back_real.array, real.array, atol=1e-12)
    F.sum(back_real).backward()  # the imaginary output gets no gradient
    numpy.testing.assert_allclose(real.grad, numpy.ones((2, 4)), atol=1e-12)
    numpy.testing.assert_allclose(imag.grad, numpy.zeros((2, 4)), atol=1e-12)


def test_bad_inputs_are_rejected():
    with pytest.raises(TypeError, match=r"\(real, imag\) pair"):
        F.fft(numpy.ones(4))
    with pytest.raises(type_check.InvalidType, match=r"real\.shape == imag\.shape"):
        F.fft((numpy.ones(4), numpy.ones(3)))
    with pytest.raises(type_check.InvalidType, match=r"real\.dtype == imag\.dtype"):
        F.ifft((numpy.ones(4), numpy.ones(4, numpy.float32)))
