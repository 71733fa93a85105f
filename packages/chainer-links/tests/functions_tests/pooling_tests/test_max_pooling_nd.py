"""max_pooling_1d/2d/3d/nd: values, indexes, gradients, geometry and argument errors."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.pooling.max_pooling_nd import MaxPoolingND
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from ..chainerx_native import forbid_fallback, to_chainerx, to_numpy
from .conftest import (
    FLOAT_DTYPES,
    distinct_values,
    loosen_for_float16,
    out_size,
    reference_pooling,
    window_positions,
)


def _max(values, _):
    return values.max(axis=2)


_CASES_2D = [
    # shape, ksize, stride, pad
    ((2, 3, 5, 4), 2, None, 0),
    ((2, 3, 5, 4), 3, 2, 1),
    ((2, 3, 5, 4), (2, 3), (1, 2), (1, 0)),
    ((1, 1, 3, 3), 3, 2, 1),
]


@testing.parameterize(
    *testing.product({"case": _CASES_2D, "cover_all": [True, False], "dtype": FLOAT_DTYPES})
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestMaxPooling2D(testing.FunctionTestCase):
    def setUp(self):
        self.shape, ksize, stride, pad = self.case
        self.ksize = (ksize, ksize) if isinstance(ksize, int) else ksize
        stride = self.ksize if stride is None else stride
        self.stride = (stride, stride) if isinstance(stride, int) else stride
        self.pad = (pad, pad) if isinstance(pad, int) else pad
        self.args = self.case[1:]
        loosen_for_float16(self)

    def generate_inputs(self):
        return (distinct_values(self.shape, self.dtype),)

    def forward(self, inputs, device):
        ksize, stride, pad = self.args
        return (F.max_pooling_2d(inputs[0], ksize, stride, pad, cover_all=self.cover_all),)

    def forward_expected(self, inputs):
        y = reference_pooling(inputs[0], self.ksize, self.stride, self.pad, self.cover_all, _max)
        return (y.astype(self.dtype),)


@testing.parameterize(
    {"shape": (2, 3, 7), "ksize": 3, "stride": 2, "pad": 1, "cover_all": True},
    {"shape": (1, 2, 4), "ksize": 2, "stride": 1, "pad": 0, "cover_all": False},
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestMaxPooling1D(testing.FunctionTestCase):
    def generate_inputs(self):
        return (distinct_values(self.shape, numpy.float64),)

    def forward(self, inputs, device):
        return (F.max_pooling_1d(inputs[0], self.ksize, self.stride, self.pad, self.cover_all),)

    def forward_expected(self, inputs):
        args = ((self.ksize,), (self.stride,), (self.pad,), self.cover_all)
        return (reference_pooling(inputs[0], *args, _max),)


@testing.parameterize(
    {"shape": (1, 2, 4, 3, 5), "ksize": (2, 3, 2), "stride": (2, 1, 2), "pad": (1, 1, 0)},
    {"shape": (2, 1, 3, 3, 3), "ksize": 2, "stride": None, "pad": 0},
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestMaxPooling3D(testing.FunctionTestCase):
    def generate_inputs(self):
        return (distinct_values(self.shape, numpy.float32),)

    def forward(self, inputs, device):
        return (F.max_pooling_3d(inputs[0], self.ksize, self.stride, self.pad),)

    def forward_expected(self, inputs):
        ksize = (self.ksize,) * 3 if isinstance(self.ksize, int) else self.ksize
        stride = ksize if self.stride is None else self.stride
        pad = (self.pad,) * 3 if isinstance(self.pad, int) else self.pad
        y = reference_pooling(inputs[0], ksize, stride, pad, True, _max)
        return (y.astype(numpy.float32),)


@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestMaxPoolingND4Axes(testing.FunctionTestCase):
    def generate_inputs(self):
        return (distinct_values((1, 1, 3, 2, 3, 2), numpy.float64),)

    def forward(self, inputs, device):
        return (F.max_pooling_nd(inputs[0], 2, 1, (0, 1, 0, 0), cover_all=False),)

    def forward_expected(self, inputs):
        return (reference_pooling(inputs[0], (2,) * 4, (1,) * 4, (0, 1, 0, 0), False, _max),)


def _reference_indexes(x, ksize, stride, pad, cover_all):
    """Flat C-order tap of the maximum of each window, padding never winning."""
    dims = x.shape[2:]
    outs = tuple(out_size(*args, cover_all) for args in zip(dims, ksize, stride, pad))
    indexes = numpy.zeros(x.shape[:2] + outs, int)
    for o, starts, _ in window_positions(dims, ksize, stride, pad, cover_all):
        best = numpy.full(x.shape[:2], -numpy.inf)
        for t, tap in enumerate(numpy.ndindex(*ksize)):
            pos = [a + k for a, k in zip(starts, tap)]
            if all(0 <= p < d for p, d in zip(pos, dims)):
                v = x[(slice(None), slice(None), *pos)]
                indexes[(slice(None), slice(None), *o)] = numpy.where(
                    v > best, t, indexes[(slice(None), slice(None), *o)]
                )
                best = numpy.maximum(best, v)
    return indexes


@pytest.mark.parametrize(
    "shape, ksize, stride, pad, cover_all",
    [((2, 3, 5, 4), 3, 2, 1, True), ((1, 2, 4, 4), 2, None, 0, False), ((2, 2, 5), 3, 1, 1, True)],
)
def test_max_pooling_returns_flat_tap_indexes(shape, ksize, stride, pad, cover_all):
    x = distinct_values(shape, numpy.float32)
    y, indexes = F.max_pooling_nd(x, ksize, stride, pad, cover_all, return_indices=True)
    ndim = len(shape) - 2
    k = (ksize,) * ndim
    s = k if stride is None else (stride,) * ndim
    expected = _reference_indexes(x, k, s, (pad,) * ndim, cover_all)
    assert isinstance(indexes, numpy.ndarray)
    numpy.testing.assert_array_equal(indexes, expected)
    assert indexes.shape == y.shape


def test_max_pooling_ties_take_the_first_maximum():
    x = numpy.zeros((1, 1, 2, 2), numpy.float32)
    _, indexes = F.max_pooling_2d(x, 2, return_indices=True)
    assert indexes.item() == 0


def test_max_pooling_gradient_goes_to_the_maximum_only():
    x = chainer.Variable(numpy.array([[[[1.0, 4.0], [3.0, 2.0]]]], numpy.float32))
    y = F.max_pooling_2d(x, 2)
    y.grad = numpy.full(y.shape, 7.0, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[[[0, 7], [0, 0]]]])


def test_max_pooling_overlapping_windows_accumulate_gradients():
    x = chainer.Variable(numpy.array([[[0.0, 5.0, 1.0]]], numpy.float32))
    y = F.max_pooling_1d(x, 2, 1, cover_all=False)
    y.grad = numpy.ones(y.shape, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[[0, 2, 0]]])


@pytest.mark.parametrize(
    "func, shape, ndim",
    [
        (F.max_pooling_1d, (1, 1, 4, 4), 1),
        (F.max_pooling_2d, (1, 1, 4), 2),
        (F.max_pooling_3d, (1, 1, 4, 4), 3),
    ],
)
def test_max_pooling_fixed_ndim_rejects_other_shapes(func, shape, ndim):
    with pytest.raises(ValueError, match=rf"should be {ndim}\. But the actual ndim was"):
        func(numpy.zeros(shape, numpy.float32), 2)


def test_max_pooling_rejects_integer_input():
    with pytest.raises(type_check.InvalidType, match=r"x\.dtype\.kind == f"):
        F.max_pooling_2d(numpy.zeros((1, 1, 4, 4), numpy.int32), 2)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"ksize": 0}, r"ksize must be positive integers, got \(0, 0\)"),
        ({"ksize": 2, "stride": (1, 0)}, r"stride must be positive integers, got \(1, 0\)"),
        ({"ksize": 2, "pad": -1}, r"pad must be non-negative integers, got \(-1, -1\)"),
        ({"ksize": (2, 2, 2)}, r"expected 2 values"),
    ],
)
def test_max_pooling_rejects_bad_geometry(kwargs, message):
    with pytest.raises(ValueError, match=message):
        F.max_pooling_2d(numpy.zeros((1, 1, 4, 4), numpy.float32), **kwargs)


def test_max_pooling_rejects_kernel_larger_than_padded_input():
    with pytest.raises(ValueError, match=r"too small for ksize \(5, 5\).*output would have"):
        F.max_pooling_2d(numpy.zeros((1, 1, 2, 2), numpy.float32), 5, 1, cover_all=False)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("cover_all", [True, False])
def test_chainerx_inputs_are_pooled_natively(monkeypatch, dtype, cover_all):
    forbid_fallback(monkeypatch, MaxPoolingND)
    x = distinct_values((2, 3, 5, 4), dtype)
    y = F.max_pooling_2d(*to_chainerx(x), 3, 2, 1, cover_all=cover_all)
    assert y.dtype == dtype
    expected = reference_pooling(x, (3, 3), (2, 2), (1, 1), cover_all, _max)
    numpy.testing.assert_array_equal(to_numpy(y), expected.astype(dtype))


def test_chainerx_return_indices_falls_back_for_the_indexes():
    (x,) = to_chainerx(distinct_values((1, 1, 4, 4), numpy.float32))
    assert MaxPoolingND(2, 2, return_indices=True).forward_chainerx((x,)) is chainer.Fallback
    y, indexes = F.max_pooling_2d(x, 2, return_indices=True)
    assert indexes.shape == y.shape
