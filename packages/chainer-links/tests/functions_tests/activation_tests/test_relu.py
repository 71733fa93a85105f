"""relu: max(x, 0), its ReLUGrad2 backward, and dtype errors."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.activation.relu import ReLU, ReLUGrad2
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16, uniform_away_from_kinks


@testing.parameterize(*testing.product({"shape": [(3, 2), (), (0, 3)], "dtype": FLOAT_DTYPES}))
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestReLU(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        return (uniform_away_from_kinks(-1, 1, self.shape, self.dtype),)

    def forward(self, inputs, device):
        return (F.relu(inputs[0]),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (numpy.where(x > 0, x, 0).astype(self.dtype),)


def test_relu_backward_is_relu_grad_from_the_output():
    x = chainer.Variable(numpy.array([-1.0, 2.0, 0.5], numpy.float32))
    y = F.relu(x)
    assert isinstance(y.creator_node, ReLU)
    assert y.creator_node.output_data[0] is y.array  # the output is retained, not the input
    gy = chainer.Variable(numpy.ones(3, numpy.float32))
    (gx,) = chainer.grad([y], [x], [gy], enable_double_backprop=True)
    assert isinstance(gx.creator_node, ReLUGrad2)
    numpy.testing.assert_array_equal(gx.array, [0.0, 1.0, 1.0])


def test_relu_accepts_a_plain_array_and_keeps_dtype():
    y = F.relu(numpy.array([[-2.0, 3.0]], numpy.float16))
    assert isinstance(y, chainer.Variable) and y.dtype == numpy.float16
    numpy.testing.assert_array_equal(y.array, [[0.0, 3.0]])


def test_relu_rejects_integer_input():
    with pytest.raises(type_check.InvalidType, match=r"ReLU[\s\S]*x\.dtype\.kind == f"):
        F.relu(numpy.array([1, -1], numpy.int32))


def test_relu_skips_the_check_when_type_check_is_off():
    with chainer.using_config("type_check", False):
        y = F.relu(numpy.array([1, -1], numpy.int32))
    numpy.testing.assert_array_equal(y.array, [1, 0])


def _special_values(dtype, shape):
    size = int(numpy.prod(shape))
    x = numpy.random.RandomState(0).randn(size).astype(dtype)
    specials = numpy.array([-0.0, 0.0, -1.5, 2.5, numpy.inf, -numpy.inf, numpy.nan], dtype)
    for start in (0, size // 2, size - len(specials)):  # in the SIMD body and at the tails
        x[start : start + len(specials)] = specials
    x[size // 3] = -numpy.nan
    return x.reshape(shape)


# (64,) and (8, 8) take the 0-d zero, (64, 64) and (3, 1000) the zeros array of x's shape.
@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("shape", [(64,), (8, 8), (2, 4, 8), (64, 64), (3, 1000)])
@pytest.mark.parametrize("transposed", [False, True])
def test_relu_forward_is_bitwise_numpy_maximum_with_int_zero(dtype, shape, transposed):
    x = _special_values(dtype, shape)
    if transposed:  # not C-contiguous: the 0-d zero, the layout of x kept
        x = x.T
    y = F.relu(x).array
    expected = numpy.maximum(x, 0, dtype=x.dtype)
    assert type(y) is numpy.ndarray
    assert y.dtype == expected.dtype and y.shape == expected.shape
    assert y.strides == expected.strides
    assert y.tobytes() == expected.tobytes()


def test_relu_zeros_array_is_one_read_only_buffer_per_dtype():
    from chainer.functions.activation import relu as relu_module

    small = relu_module._zeros_shaped_like(numpy.ones((50, 50), numpy.float32))
    large = relu_module._zeros_shaped_like(numpy.ones((100, 100), numpy.float32))
    again = relu_module._zeros_shaped_like(numpy.ones((60, 60), numpy.float32))
    assert small.shape == (50, 50) and large.shape == (100, 100) and again.shape == (60, 60)
    assert numpy.shares_memory(again, large)  # the grown buffer serves smaller inputs
    assert not again.flags.writeable and not numpy.any(again)
    too_large = numpy.empty(relu_module._ZEROS_ARRAY_MAX_BYTES // 4 + 1, numpy.float32)
    assert relu_module._zeros_shaped_like(too_large) is None
    y = F.relu(numpy.full(too_large.shape, -1.0, numpy.float32)).array  # the 0-d zero then
    assert y.shape == too_large.shape and not numpy.any(y)


def test_relu_of_a_0d_array_is_an_array():
    y = F.relu(numpy.array(-2.0, numpy.float32)).array
    assert type(y) is numpy.ndarray and y.shape == () and y == 0


def test_relu_zeros_cannot_be_written():
    from chainer.functions.activation.relu import _ZEROS

    for zero in _ZEROS.values():
        assert zero.shape == () and zero == 0 and not zero.flags.writeable


# (300,) takes ``g * (y > 0)`` as written; (300, 300) and the transposed (300, 300) (not
# C-contiguous) the mask in a scratch buffer.
@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("shape", [(300,), (300, 300), (2, 150, 300)])
@pytest.mark.parametrize("transposed", [False, True])
def test_relu_backward_is_bitwise_the_gradient_times_the_mask(dtype, shape, transposed):
    x = _special_values(dtype, shape)
    gy = _special_values(dtype, shape)[::-1].copy()  # specials against specials
    if transposed:
        x, gy = x.T, gy.T
    xv = chainer.Variable(x)
    y = F.relu(xv)
    y.grad = gy
    with numpy.errstate(invalid="ignore"):  # inf * 0
        y.backward()
        expected = gy * (y.array > 0)
    gx = xv.grad
    assert gx.dtype == expected.dtype and gx.shape == expected.shape
    assert gx.tobytes() == expected.tobytes()
    # A fresh array: the scratch mask of the next backward does not change it.
    kept = gx.copy()
    y2 = F.relu(-xv)
    y2.grad = gy
    with numpy.errstate(invalid="ignore"):
        y2.backward()
    assert gx.tobytes() == kept.tobytes()
