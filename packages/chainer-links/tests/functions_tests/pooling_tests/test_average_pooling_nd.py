"""average_pooling_1d/2d/3d/nd: values with both padding modes, gradients and errors."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.pooling.average_pooling_nd import AveragePoolingND

from ..backend_configs import CPU_AND_CHAINERX
from ..chainerx_native import forbid_fallback, to_chainerx, to_numpy
from .conftest import FLOAT_DTYPES, loosen_for_float16, reference_pooling


def _mean_with_padding(values, window_size):
    return values.sum(axis=2) / window_size


def _mean_without_padding(values, _):
    return values.mean(axis=2)


_CASES = [
    # shape, ksize, stride, pad
    ((2, 3, 5, 4), 2, None, 0),
    ((2, 3, 5, 4), 3, 2, 1),
    ((1, 2, 3, 3), (2, 3), (1, 2), (1, 1)),
    ((2, 2, 7), 3, 2, 1),
    ((1, 2, 3, 4, 3), 2, 1, (1, 0, 1)),
]


@testing.parameterize(
    *testing.product({"case": _CASES, "pad_value": [0, None], "dtype": FLOAT_DTYPES})
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestAveragePoolingND(testing.FunctionTestCase):
    def setUp(self):
        self.shape, ksize, stride, pad = self.case
        ndim = len(self.shape) - 2
        self.ksize = (ksize,) * ndim if isinstance(ksize, int) else ksize
        stride = self.ksize if stride is None else stride
        self.stride = (stride,) * ndim if isinstance(stride, int) else stride
        self.pad = (pad,) * ndim if isinstance(pad, int) else pad
        loosen_for_float16(self)

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        _, ksize, stride, pad = self.case
        return (F.average_pooling_nd(inputs[0], ksize, stride, pad, self.pad_value),)

    def forward_expected(self, inputs):
        reduce = _mean_with_padding if self.pad_value == 0 else _mean_without_padding
        y = reference_pooling(inputs[0], self.ksize, self.stride, self.pad, False, reduce)
        return (y.astype(self.dtype),)


@testing.parameterize(
    *testing.product(
        {
            "case": [((2, 3, 5, 4), 2, None, 0), ((1, 1, 4, 5), (3, 2), (1, 2), (1, 0))],
            "dtype": FLOAT_DTYPES,
        }
    )
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestAveragePooling2D(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.case[0]).astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.average_pooling_2d(inputs[0], *self.case[1:]),)

    def forward_expected(self, inputs):
        _, ksize, stride, pad = self.case
        ksize = (ksize,) * 2 if isinstance(ksize, int) else ksize
        stride = ksize if stride is None else stride
        pad = (pad,) * 2 if isinstance(pad, int) else pad
        y = reference_pooling(inputs[0], ksize, stride, pad, False, _mean_with_padding)
        return (y.astype(self.dtype),)


def test_average_pooling_1d_and_3d_wrap_nd():
    x1 = numpy.arange(6, dtype=numpy.float32).reshape(1, 1, 6)
    numpy.testing.assert_allclose(F.average_pooling_1d(x1, 3).array, [[[1.0, 4.0]]])
    x3 = numpy.ones((1, 1, 2, 2, 2), numpy.float32)
    numpy.testing.assert_allclose(F.average_pooling_3d(x3, 2, pad=1).array[0, 0, 0, 0, 0], 1 / 8)


def test_average_pooling_gradient_spreads_evenly():
    x = chainer.Variable(numpy.zeros((1, 1, 4), numpy.float32))
    y = F.average_pooling_1d(x, 2)
    y.grad = numpy.array([[[2.0, 4.0]]], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[[1, 1, 2, 2]]])


@pytest.mark.parametrize("pad_value", [1, -1.0, "zero"])
def test_average_pooling_rejects_other_pad_values(pad_value):
    with pytest.raises(
        ValueError, match=rf"pad_value must be either 0 or None, not {pad_value!r}"
    ):
        F.average_pooling_nd(numpy.zeros((1, 1, 4), numpy.float32), 2, pad_value=pad_value)


@pytest.mark.parametrize(
    "func, shape, ndim",
    [
        (F.average_pooling_1d, (1, 1, 4, 4), 1),
        (F.average_pooling_2d, (1, 1, 4, 4, 4), 2),
        (F.average_pooling_3d, (1, 1, 4), 3),
    ],
)
def test_average_pooling_fixed_ndim_rejects_other_shapes(func, shape, ndim):
    with pytest.raises(ValueError, match=rf"should be {ndim}\. But the actual ndim was"):
        func(numpy.zeros(shape, numpy.float32), 2)


def test_average_pooling_rejects_kernel_larger_than_padded_input():
    with pytest.raises(ValueError, match=r"too small for ksize \(4,\) with pad \(1,\)"):
        F.average_pooling_1d(numpy.zeros((1, 1, 1), numpy.float32), 4, pad=1)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("pad_value", [0, None])
def test_chainerx_inputs_are_pooled_natively(monkeypatch, dtype, pad_value):
    forbid_fallback(monkeypatch, AveragePoolingND)
    x = numpy.random.uniform(-1, 1, (2, 3, 5, 4)).astype(dtype)
    y = F.average_pooling_nd(*to_chainerx(x), 3, 2, 1, pad_value=pad_value)
    assert y.dtype == dtype
    reduce = _mean_with_padding if pad_value == 0 else _mean_without_padding
    expected = reference_pooling(x, (3, 3), (2, 2), (1, 1), False, reduce)
    tol = 1e-3 if dtype == numpy.float16 else 1e-6
    numpy.testing.assert_allclose(to_numpy(y), expected, rtol=tol, atol=tol)


def test_chainerx_cover_all_falls_back():
    (x,) = to_chainerx(numpy.ones((1, 1, 5, 5), numpy.float32))
    assert AveragePoolingND(2, 2, cover_all=True).forward_chainerx((x,)) is chainer.Fallback


def test_windows_wholly_in_the_padding_average_to_zero_without_padding_values():
    x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
    y = F.average_pooling_nd(x, 2, stride=3, pad=2, pad_value=None)
    expected = numpy.zeros((1, 1, 3, 3), numpy.float32)
    expected[0, 0, 1, 1] = (5 + 6 + 9 + 10) / 4  # the one window over real elements
    numpy.testing.assert_array_equal(y.array, expected)
    chainer.gradient_check.check_backward(
        lambda v: F.average_pooling_nd(v, 2, stride=3, pad=2, pad_value=None),
        x.astype(numpy.float64),
        numpy.ones((1, 1, 3, 3)),
    )
