"""linear: y = x W^T + b with batch axes, its grad nodes, and errors."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.connection.linear import LinearFunction, LinearGradData, LinearGradWeight
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from ..chainerx_native import forbid_fallback, to_chainerx, to_numpy
from .conftest import FLOAT_DTYPES, loosen_for_float16, uniform

CASES = [
    {"x_shape": (4, 3), "n_batch_axes": 1, "nobias": False},
    {"x_shape": (1, 3), "n_batch_axes": 1, "nobias": True},
    {"x_shape": (3, 1, 3), "n_batch_axes": 1, "nobias": False},  # features flattened
    {"x_shape": (2, 3, 3), "n_batch_axes": 2, "nobias": False},
    {"x_shape": (2, 1, 3, 3), "n_batch_axes": 2, "nobias": True},
    {"x_shape": (0, 3), "n_batch_axes": 1, "nobias": False},
]


@testing.parameterize(*testing.product_dict(CASES, [{"dtype": dtype} for dtype in FLOAT_DTYPES]))
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestLinear(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        x = uniform(self.x_shape, self.dtype)
        in_size = int(numpy.prod(self.x_shape[self.n_batch_axes :]))
        W = uniform((2, in_size), self.dtype)
        return (x, W) if self.nobias else (x, W, uniform((2,), self.dtype))

    def forward(self, inputs, device):
        b = None if self.nobias else inputs[2]
        return (F.linear(inputs[0], inputs[1], b, n_batch_axes=self.n_batch_axes),)

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        batch_shape = self.x_shape[: self.n_batch_axes]
        rows = x.astype(numpy.float64).reshape(int(numpy.prod(batch_shape)), W.shape[1])
        y = rows @ W.astype(numpy.float64).T
        if not self.nobias:
            y += inputs[2]
        return (y.reshape(*batch_shape, 2).astype(self.dtype),)


def test_gradients_come_from_the_two_grad_nodes():
    x = chainer.Variable(uniform((3, 4), numpy.float32))
    W = chainer.Variable(uniform((2, 4), numpy.float32))
    y = F.linear(x, W)
    assert isinstance(y.creator_node, LinearFunction)
    gx, gW = chainer.grad(
        [y], [x, W], [numpy.ones((3, 2), numpy.float32)], enable_double_backprop=True
    )
    assert isinstance(gx.creator_node, LinearGradData)
    assert isinstance(gW.creator_node, LinearGradWeight)
    numpy.testing.assert_allclose(gx.array, numpy.ones((3, 2)) @ W.array, rtol=1e-6)


def test_weight_gradient_keeps_the_weight_dtype():
    x = chainer.Variable(uniform((3, 4), numpy.float16))
    W = chainer.Variable(uniform((2, 4), numpy.float32))
    y = F.linear(x, W)
    assert y.dtype == numpy.float16
    y.grad = numpy.ones(y.shape, numpy.float16)
    y.backward()
    assert W.grad.dtype == numpy.float32 and x.grad.dtype == numpy.float16


def test_non_positive_n_batch_axes_is_a_value_error():
    with pytest.raises(ValueError, match="n_batch_axes must be a positive int, got 0"):
        F.linear(numpy.ones((2, 3), numpy.float32), numpy.ones((4, 3), numpy.float32), None, 0)


def test_input_without_feature_axes_is_a_value_error():
    with pytest.raises(ValueError, match=r"more than n_batch_axes=2 axes, got shape \(2, 3\)"):
        F.linear(numpy.ones((2, 3), numpy.float32), numpy.ones((4, 3), numpy.float32), None, 2)


def test_feature_mismatch_is_an_invalid_type():
    with pytest.raises(
        type_check.InvalidType, match=r"x\.shape\[1\] == W\.shape\[1\][\s\S]*3 != 5"
    ):
        F.linear(numpy.ones((2, 3), numpy.float32), numpy.ones((4, 5), numpy.float32))


def test_bias_shape_and_dtype_are_checked():
    x, W = numpy.ones((2, 3), numpy.float32), numpy.ones((4, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"b\.shape\[0\] == W\.shape\[0\]"):
        F.linear(x, W, numpy.ones(3, numpy.float32))
    with pytest.raises(type_check.InvalidType, match=r"b\.dtype == x\.dtype"):
        F.linear(x, W, numpy.ones(4, numpy.float64))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("nobias", [False, True])
def test_chainerx_inputs_are_computed_natively(monkeypatch, dtype, nobias):
    forbid_fallback(monkeypatch, LinearFunction)
    x, W, b = uniform((3, 4), dtype), uniform((2, 4), dtype), uniform((2,), dtype)
    y = F.linear(*to_chainerx(x, W, None if nobias else b))
    expected = x.astype(numpy.float64) @ W.astype(numpy.float64).T + (0 if nobias else b)
    assert y.dtype == dtype
    tol = 5e-3 if dtype == numpy.float16 else 1e-6
    numpy.testing.assert_allclose(to_numpy(y), expected, rtol=tol, atol=tol)


def test_chainerx_mixed_dtypes_fall_back_to_keep_the_input_dtype():
    x, W = to_chainerx(uniform((3, 4), numpy.float16), uniform((2, 4), numpy.float32))
    assert LinearFunction().forward_chainerx((x, W)) is chainer.Fallback
    y = F.linear(x, W)
    assert y.dtype == numpy.float16


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("n", [1, 2, 8])
def test_forward_is_bitwise_one_product_plus_the_broadcast_bias(dtype, n):
    # One row takes the bias without broadcasting: the same sums, so the same bits.
    rng = numpy.random.RandomState(n)
    x = rng.randn(n, 7).astype(dtype)
    W = rng.randn(5, 7).astype(dtype)
    b = (rng.randn(5) * 100).astype(dtype)
    expected = x.dot(W.T).astype(dtype) + b
    y = F.linear(x, W, b).array
    assert y.dtype == expected.dtype and y.shape == expected.shape
    assert y.tobytes() == expected.tobytes()
