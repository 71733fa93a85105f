"""local_convolution_2d: a kernel per output position, against a direct loop."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check, testing
from chainer.functions.connection import local_convolution_2d
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


@testing.fix_random()
@pytest.mark.parametrize(
    ("x_dtype", "W_dtype"), [(numpy.float16, numpy.float32), (numpy.float64, numpy.float16)]
)
def test_weights_of_another_dtype_give_x_dtype_and_gradients_in_each_dtype(x_dtype, W_dtype):
    x = chainer.Variable(numpy.random.uniform(-1, 1, (2, 3, 4, 4)).astype(x_dtype))
    W = chainer.Variable(numpy.random.uniform(-1, 1, (2, 2, 2, 3, 3, 3)).astype(W_dtype))
    y = F.local_convolution_2d(x, W)
    assert y.dtype == x_dtype
    F.sum(y).backward()
    assert x.grad.dtype == x_dtype and W.grad.dtype == W_dtype


@testing.fix_random()
def test_the_node_class_matches_the_function_and_differentiates():
    x = numpy.random.uniform(-1, 1, (2, 3, 5, 5))
    W = numpy.random.uniform(-1, 1, (4, 2, 2, 3, 3, 3))
    b = numpy.random.uniform(-1, 1, (4, 2, 2))
    (y,) = local_convolution_2d.LocalConvolution2DFunction(2).apply((x, W, b))
    numpy.testing.assert_allclose(y.array, F.local_convolution_2d(x, W, b, stride=2).array)
    gy = numpy.random.uniform(-1, 1, y.shape)
    ggs = tuple(numpy.random.uniform(-1, 1, a.shape) for a in (x, W, b))

    def f(*inputs):
        return local_convolution_2d.LocalConvolution2DFunction(2).apply(inputs)

    gradient_check.check_backward(f, (x, W, b), gy)
    gradient_check.check_double_backward(f, (x, W, b), gy, ggs)
