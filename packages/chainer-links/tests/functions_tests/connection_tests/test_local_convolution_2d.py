"""local_convolution_2d: a kernel per output position, against a direct loop."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check, testing
from chainer.utils import type_check

from .conftest import FLOAT_DTYPES, loosen_for_float16, uniform


@testing.parameterize(
    *testing.product({"stride": [1, (2, 1)], "nobias": [False, True], "dtype": FLOAT_DTYPES})
)
@testing.inject_backend_tests(None, [{}])
class TestLocalConvolution2D(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)
        sy, sx = self.stride if isinstance(self.stride, tuple) else (self.stride,) * 2
        self.out = ((5 - 3) // sy + 1, (4 - 2) // sx + 1)

    def generate_inputs(self):
        x = uniform((2, 3, 5, 4), self.dtype)
        W = uniform((2, *self.out, 3, 3, 2), self.dtype)
        return (x, W) if self.nobias else (x, W, uniform((2, *self.out), self.dtype))

    def forward(self, inputs, device):
        return (F.local_convolution_2d(*inputs, stride=self.stride),)

    def forward_expected(self, inputs):
        x, W = (a.astype(numpy.float64) for a in inputs[:2])
        sy, sx = self.stride if isinstance(self.stride, tuple) else (self.stride,) * 2
        y = numpy.zeros((2, 2, *self.out))
        for p in range(self.out[0]):
            for q in range(self.out[1]):
                window = x[:, :, p * sy : p * sy + 3, q * sx : q * sx + 2]
                y[:, :, p, q] = numpy.einsum("ncij,ocij->no", window, W[:, p, q])
        if not self.nobias:
            y += inputs[2]
        return (y.astype(self.dtype),)


def test_weight_for_another_output_size_is_an_invalid_type():
    x, W = numpy.ones((1, 2, 5, 5), numpy.float32), numpy.ones((3, 2, 2, 2, 3, 3), numpy.float32)
    with pytest.raises(
        type_check.InvalidType, match=r"LocalConvolution2D[\s\S]*W\.shape\[1:3\] == \(2, 2\)"
    ):
        F.local_convolution_2d(x, W)


def test_channel_mismatch_is_an_invalid_type():
    x, W = numpy.ones((1, 2, 5, 5), numpy.float32), numpy.ones((3, 3, 3, 1, 3, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"x\.shape\[1\] == W\.shape\[3\]"):
        F.local_convolution_2d(x, W)


def test_kernel_larger_than_the_input_is_an_invalid_type():
    x, W = numpy.ones((1, 1, 2, 2), numpy.float32), numpy.ones((1, 1, 1, 1, 3, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match="positive output size"):
        F.local_convolution_2d(x, W)


def test_bias_shape_is_checked():
    x, W = numpy.ones((1, 2, 4, 4), numpy.float32), numpy.ones((3, 2, 2, 2, 3, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"b\.shape == W\.shape\[:3\]"):
        F.local_convolution_2d(x, W, numpy.ones((3, 2), numpy.float32))


@pytest.mark.parametrize(
    ("x_dtype", "W_dtype"), [(numpy.float32, numpy.float16), (numpy.float64, numpy.float32)]
)
def test_weight_of_another_float_dtype_is_cast(x_dtype, W_dtype):
    # As in Chainer: y takes x's dtype, W's gradient keeps W's dtype.
    x = chainer.Variable(uniform((2, 3, 4, 4), x_dtype))
    W = chainer.Variable(uniform((2, 2, 2, 3, 3, 3), W_dtype))
    y = F.local_convolution_2d(x, W)
    assert y.dtype == x_dtype
    expected = F.local_convolution_2d(x.array, W.array.astype(x_dtype)).array
    numpy.testing.assert_array_equal(y.array, expected)
    F.sum(y).backward()
    assert W.grad.dtype == W_dtype and x.grad.dtype == x_dtype
    gradient_check.check_backward(
        F.local_convolution_2d,
        (x.array, W.array),
        uniform(y.shape, x_dtype),
        dtype=numpy.float64,
        atol=1e-2,
        rtol=1e-2,
    )
