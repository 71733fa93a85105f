"""unpooling_1d/2d/3d/nd: values, output sizes, gradients and errors."""

import itertools

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.pooling.unpooling_nd import UnpoolingND
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from ..chainerx_native import forbid_fallback, to_chainerx, to_numpy
from .conftest import FLOAT_DTYPES, loosen_for_float16


def _deconv_size(o, k, s, p, cover_all):
    return s * (o - 1) + k - 2 * p - (s - 1 if cover_all else 0)


def _reference_unpooling(x, ksize, stride, pad, outsize):
    """Add every input element to each pixel of its window that lies inside the output."""
    y = numpy.zeros(x.shape[:2] + tuple(outsize))
    for o in itertools.product(*map(range, x.shape[2:])):
        for tap in itertools.product(*map(range, ksize)):
            pos = [oi * s - p + t for oi, s, p, t in zip(o, stride, pad, tap)]
            if all(0 <= q < d for q, d in zip(pos, outsize)):
                y[(slice(None), slice(None), *pos)] += x[(slice(None), slice(None), *o)]
    return y


_CASES = [
    # in_shape, ksize, stride, pad, outsize
    ((2, 3, 2, 3), 2, None, 0, None),
    ((2, 3, 3, 2), 3, 2, 1, None),
    ((1, 2, 3, 3), (2, 3), (1, 2), (1, 0), None),
    ((1, 1, 2, 2), 2, None, 0, "given"),
    ((2, 2, 3), 3, 2, 1, None),
    ((1, 2, 2, 3, 2), 2, 1, 0, None),
]


@testing.parameterize(
    *testing.product({"case": _CASES, "cover_all": [True, False], "dtype": FLOAT_DTYPES})
)
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestUnpoolingND(testing.FunctionTestCase):
    def setUp(self):
        shape, ksize, stride, pad, outsize = self.case
        ndim = len(shape) - 2
        self.ksize = (ksize,) * ndim if isinstance(ksize, int) else ksize
        stride = self.ksize if stride is None else stride
        self.stride = (stride,) * ndim if isinstance(stride, int) else stride
        self.pad = (pad,) * ndim if isinstance(pad, int) else pad
        if outsize is None:
            outsize = tuple(
                _deconv_size(o, k, s, p, self.cover_all)
                for o, k, s, p in zip(shape[2:], self.ksize, self.stride, self.pad)
            )
        else:  # sizes other than the default that still pool back to (2, 2)
            outsize = (3, 4) if self.cover_all else (5, 4)
        self.outsize = outsize
        loosen_for_float16(self)

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.case[0]).astype(self.dtype),)

    def forward(self, inputs, device):
        _, ksize, stride, pad, outsize = self.case
        outsize = None if outsize is None else self.outsize
        func = F.unpooling_2d if len(self.case[0]) == 4 else F.unpooling_nd
        return (func(inputs[0], ksize, stride, pad, outsize, self.cover_all),)

    def forward_expected(self, inputs):
        y = _reference_unpooling(inputs[0], self.ksize, self.stride, self.pad, self.outsize)
        return (y.astype(self.dtype),)


def test_unpooling_1d_and_3d_wrap_nd():
    x = numpy.array([[[1.0, 2.0]]], numpy.float32)
    numpy.testing.assert_array_equal(F.unpooling_1d(x, 2, cover_all=False).array, [[[1, 1, 2, 2]]])
    x3 = numpy.ones((1, 1, 1, 1, 1), numpy.float32)
    assert F.unpooling_3d(x3, 2, cover_all=False).shape == (1, 1, 2, 2, 2)


def test_unpooling_cover_all_cuts_the_last_window():
    x = numpy.array([[[1.0, 2.0]]], numpy.float32)
    numpy.testing.assert_array_equal(F.unpooling_1d(x, 2).array, [[[1, 1, 2]]])


def test_unpooling_rejects_outsize_that_does_not_pool_back():
    x = numpy.zeros((1, 1, 2, 2), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"Unpooling2D[\s\S]*x\.shape\[2\] == 3"):
        F.unpooling_2d(x, 2, outsize=(6, 6), cover_all=False)


@pytest.mark.parametrize(
    "func, shape, ndim",
    [
        (F.unpooling_1d, (1, 1, 2, 2), 1),
        (F.unpooling_2d, (1, 1, 2), 2),
        (F.unpooling_3d, (1, 1, 2), 3),
    ],
)
def test_unpooling_fixed_ndim_rejects_other_shapes(func, shape, ndim):
    with pytest.raises(ValueError, match=rf"should be {ndim}\. But the actual ndim was"):
        func(numpy.zeros(shape, numpy.float32), 2)


def test_unpooling_rejects_negative_outsize():
    with pytest.raises(ValueError, match=r"outsize must be non-negative integers, got \(-1, 2\)"):
        F.unpooling_2d(numpy.zeros((1, 1, 1, 1), numpy.float32), 2, outsize=(-1, 2))


def test_unpooling_into_an_empty_axis_gives_an_empty_image():
    # ksize 1 and pad 1 crop a 2-pixel axis down to nothing, as in Chainer.
    x = chainer.Variable(numpy.ones((1, 1, 3, 2), numpy.float32))
    y = F.unpooling_2d(x, 1, stride=1, pad=1)
    assert y.shape == (1, 1, 1, 0)
    y.grad = numpy.zeros(y.shape, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, numpy.zeros((1, 1, 3, 2)))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("cover_all", [True, False])
def test_chainerx_inputs_are_unpooled_natively(monkeypatch, dtype, cover_all):
    forbid_fallback(monkeypatch, UnpoolingND)
    x = numpy.random.uniform(-1, 1, (2, 3, 3, 2)).astype(dtype)
    y = F.unpooling_2d(*to_chainerx(x), 3, 2, 1, cover_all=cover_all)
    outsize = tuple(_deconv_size(o, 3, 2, 1, cover_all) for o in (3, 2))
    assert y.dtype == dtype and y.shape == (2, 3, *outsize)
    tol = 5e-3 if dtype == numpy.float16 else 1e-6
    expected = _reference_unpooling(x, (3, 3), (2, 2), (1, 1), outsize)
    numpy.testing.assert_allclose(to_numpy(y), expected, rtol=tol, atol=tol)


def test_chainerx_empty_output_falls_back():
    (x,) = to_chainerx(numpy.ones((1, 1, 2), numpy.float32))
    assert UnpoolingND(1, 2, outsize=(0,)).forward_chainerx((x,)) is chainer.Fallback
