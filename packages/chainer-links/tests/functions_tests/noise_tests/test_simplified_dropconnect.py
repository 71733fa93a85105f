"""simplified_dropconnect: linear map with masked, rescaled weights; masks and errors."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check, testing
from chainer.functions.noise.simplified_dropconnect import SimplifiedDropconnect
from chainer.testing import attr
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX

DTYPES = [numpy.float16, numpy.float32, numpy.float64]


def dropconnect_reference(x, W, b, mask, ratio):
    """``y[n, o] = sum_i W[o, i] * mask[(n,) o, i] / (1 - ratio) * x[n, i] + b[o]``."""
    x = x.reshape(len(x), -1).astype(numpy.float64)
    W = W.astype(numpy.float64)
    y = numpy.zeros((len(x), len(W)))
    for n in range(len(x)):
        m = mask[n] if mask.ndim == 3 else mask
        for o in range(len(W)):
            y[n, o] = (W[o] * m[o] * x[n]).sum() / (1 - ratio)
            if b is not None:
                y[n, o] += b[o]
    return y


@testing.parameterize(
    *testing.product(
        {
            "x_shape": [(3, 4), (2, 2, 2)],
            "batchwise": [True, False],
            "bias": [True, False],
            "dtype": DTYPES,
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestSimplifiedDropconnect(testing.FunctionTestCase):
    ratio = 0.4
    n_out = 3

    def setUp(self):
        n_in = int(numpy.prod(self.x_shape[1:]))
        shape = (self.x_shape[0], self.n_out, n_in) if self.batchwise else (self.n_out, n_in)
        self.mask = numpy.random.uniform(size=shape) >= self.ratio
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 5e-3, "rtol": 5e-3}
            self.check_backward_options = {"atol": 5e-2, "rtol": 5e-2, "eps": 2.0**-6}
            self.check_double_backward_options = self.check_backward_options

    def generate_inputs(self):
        n_in = int(numpy.prod(self.x_shape[1:]))
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.dtype)
        W = numpy.random.uniform(-1, 1, (self.n_out, n_in)).astype(self.dtype)
        if not self.bias:
            return x, W
        return x, W, numpy.random.uniform(-1, 1, self.n_out).astype(self.dtype)

    def forward(self, inputs, device):
        x, W, *b = inputs
        y = F.simplified_dropconnect(
            x, W, *b, ratio=self.ratio, mask=self.mask, use_batchwise_mask=self.batchwise
        )
        return (y,)

    def forward_expected(self, inputs):
        x, W, *b = inputs
        y = dropconnect_reference(x, W, b[0] if b else None, self.mask, self.ratio)
        return (y.astype(self.dtype),)


def test_simplified_dropconnect_without_training_is_linear():
    rng = numpy.random.default_rng(0)
    x = rng.uniform(-1, 1, (2, 3)).astype(numpy.float32)
    W = rng.uniform(-1, 1, (4, 3)).astype(numpy.float32)
    b = rng.uniform(-1, 1, 4).astype(numpy.float32)
    y = F.simplified_dropconnect(x, W, b, ratio=0.9, train=False)
    numpy.testing.assert_allclose(y.array, x @ W.T + b, rtol=1e-6)


@testing.fix_random()
@pytest.mark.parametrize("batchwise", [True, False])
def test_simplified_dropconnect_random_mask_drops_about_ratio(batchwise):
    x = numpy.eye(50, dtype=numpy.float32)  # row n of y is column n of the masked weights
    W = numpy.ones((60, 50), numpy.float32)
    y = F.simplified_dropconnect(x, W, ratio=0.3, use_batchwise_mask=batchwise)
    values = y.array
    assert set(numpy.unique(values)) <= {0.0, numpy.float32(1 / 0.7)}
    assert abs(float((values == 0).mean()) - 0.3) < 0.02


@attr.chainerx
@pytest.mark.parametrize("batchwise", [True, False])
def test_simplified_dropconnect_on_chainerx_draws_the_numpy_mask(batchwise):
    import chainerx

    rng = numpy.random.default_rng(1)
    x = rng.uniform(-1, 1, (4, 5)).astype(numpy.float32)
    W = rng.uniform(-1, 1, (3, 5)).astype(numpy.float32)
    b = rng.uniform(-1, 1, 3).astype(numpy.float32)
    numpy.random.seed(2)
    y_numpy = F.simplified_dropconnect(x, W, b, ratio=0.4, use_batchwise_mask=batchwise)
    numpy.random.seed(2)
    node = SimplifiedDropconnect(0.4, use_batchwise_mask=batchwise)
    (y_chx,) = node.apply(tuple(chainerx.array(a) for a in (x, W, b)))
    assert y_chx.dtype == numpy.float32
    numpy.testing.assert_allclose(chainerx.to_numpy(y_chx.array), y_numpy.array, rtol=1e-6)
    assert isinstance(node.mask, chainerx.ndarray) and node.mask.dtype == numpy.bool_


def test_simplified_dropconnect_accepts_a_mask_variable():
    x = numpy.ones((1, 2), numpy.float32)
    W = numpy.ones((2, 2), numpy.float32)
    mask = chainer.Variable(numpy.array([[True, False], [False, False]]))
    y = F.simplified_dropconnect(x, W, ratio=0.5, mask=mask, use_batchwise_mask=False)
    numpy.testing.assert_array_equal(y.array, [[2.0, 0.0]])


def test_simplified_dropconnect_rejects_bad_shapes_and_ratio():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"prod\(x\.shape\[1:\]\) == W\.shape\[1\]"):
        F.simplified_dropconnect(x, numpy.ones((4, 5), numpy.float32))
    with pytest.raises(type_check.InvalidType, match=r"b\.shape\[0\] == W\.shape\[0\]"):
        F.simplified_dropconnect(
            x, numpy.ones((4, 3), numpy.float32), numpy.ones(5, numpy.float32)
        )
    with pytest.raises(type_check.InvalidType, match=r"mask\.shape\[0\] == x\.shape\[0\]"):
        F.simplified_dropconnect(
            x, numpy.ones((4, 3), numpy.float32), mask=numpy.ones((3, 4, 3), bool)
        )
    with pytest.raises(ValueError, match=r"ratio must be in the range \[0, 1\), got 1"):
        F.simplified_dropconnect(x, numpy.ones((4, 3), numpy.float32), ratio=1)


@pytest.mark.parametrize(
    ("x_dtype", "W_dtype"),
    [
        (numpy.float32, numpy.float16),
        (numpy.float16, numpy.float64),
        (numpy.float64, numpy.float32),
    ],
)
@pytest.mark.parametrize("batchwise", [True, False])
@testing.fix_random()
def test_simplified_dropconnect_mixes_input_and_weight_dtypes(x_dtype, W_dtype, batchwise):
    # As in Chainer: y and b take x's dtype, each gradient its input's dtype.
    x = numpy.random.uniform(-1, 1, (4, 3)).astype(x_dtype)
    W = numpy.random.uniform(-1, 1, (2, 3)).astype(W_dtype)
    b = numpy.random.uniform(-1, 1, 2).astype(x_dtype)
    mask = numpy.random.uniform(size=(4, 2, 3) if batchwise else (2, 3)) >= 0.5
    loose = numpy.float16 in (x_dtype, W_dtype)

    def f(x, W, b):
        return F.simplified_dropconnect(
            x, W, b, ratio=0.5, mask=mask, use_batchwise_mask=batchwise
        )

    y = f(x, W, b)
    assert y.dtype == x_dtype
    expected = dropconnect_reference(x, W, b, mask, 0.5)
    testing.assert_allclose(y.array, expected, **({"atol": 5e-3, "rtol": 5e-3} if loose else {}))
    xv, Wv, bv = (chainer.Variable(a) for a in (x, W, b))
    F.sum(f(xv, Wv, bv)).backward()
    assert (xv.grad.dtype, Wv.grad.dtype, bv.grad.dtype) == (x_dtype, W_dtype, x_dtype)
    tolerances = {"atol": 5e-2, "rtol": 5e-2} if loose else {"atol": 1e-4, "rtol": 1e-3}
    gy = numpy.random.uniform(-1, 1, (4, 2)).astype(x_dtype)
    ggs = tuple(numpy.random.uniform(-1, 1, a.shape).astype(a.dtype) for a in (x, W, b))
    gradient_check.check_backward(f, (x, W, b), gy, dtype=numpy.float64, **tolerances)
    gradient_check.check_double_backward(f, (x, W, b), gy, ggs, dtype=numpy.float64, **tolerances)
