"""upsampling_2d: values at the pooled indexes, gradients and errors."""

import itertools

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.functions.pooling.upsampling_2d import Upsampling2D
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from ..chainerx_native import forbid_fallback, to_chainerx, to_numpy
from .conftest import FLOAT_DTYPES, loosen_for_float16


def _reference_upsampling(x, indexes, ksize, stride, pad, outsize):
    y = numpy.zeros(x.shape[:2] + tuple(outsize))
    for n, c, i, j in itertools.product(*map(range, x.shape)):
        ty, tx = divmod(int(indexes[n, c, i, j]), ksize[1])
        py, px = i * stride[0] - pad[0] + ty, j * stride[1] - pad[1] + tx
        if 0 <= py < outsize[0] and 0 <= px < outsize[1]:
            y[n, c, py, px] += x[n, c, i, j]
    return y


_CASES = [
    # x shape, ksize, stride, pad, cover_all, outsize (image the indexes came from)
    ((2, 3, 2, 3), (2, 2), (2, 2), (0, 0), False, (4, 6)),
    ((1, 2, 3, 3), (3, 3), (2, 2), (1, 1), True, (5, 5)),
    ((2, 1, 3, 2), (2, 3), (1, 2), (1, 0), True, (2, 4)),
]


@testing.parameterize(*testing.product({"case": _CASES, "dtype": FLOAT_DTYPES}))
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestUpsampling2D(testing.FunctionTestCase):
    def setUp(self):
        shape, self.ksize, self.stride, self.pad, self.cover_all, self.outsize = self.case
        self.indexes = numpy.random.randint(0, self.ksize[0] * self.ksize[1], shape)
        loosen_for_float16(self)

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.case[0]).astype(self.dtype),)

    def forward(self, inputs, device):
        y = F.upsampling_2d(
            inputs[0],
            self.indexes,
            self.ksize,
            self.stride,
            self.pad,
            self.outsize,
            self.cover_all,
        )
        return (y,)

    def forward_expected(self, inputs):
        y = _reference_upsampling(
            inputs[0], self.indexes, self.ksize, self.stride, self.pad, self.outsize
        )
        return (y.astype(self.dtype),)


def test_upsampling_inverts_max_pooling_at_the_maxima():
    x = numpy.random.permutation(36).reshape(1, 1, 6, 6).astype(numpy.float32)
    y, indexes = F.max_pooling_2d(x, 2, return_indices=True)
    up = F.upsampling_2d(y, indexes, 2, outsize=(6, 6)).array
    maxima = x == numpy.repeat(numpy.repeat(y.array, 2, axis=2), 2, axis=3)
    numpy.testing.assert_array_equal(up, numpy.where(maxima, x, 0))


def test_upsampling_default_outsize_is_the_smallest_image():
    y = F.upsampling_2d(numpy.ones((1, 1, 2, 2), numpy.float32), numpy.zeros((1, 1, 2, 2), int), 2)
    assert y.shape == (1, 1, 3, 3)  # cover_all=True


def test_upsampling_rejects_indexes_of_another_shape():
    x = numpy.ones((1, 1, 2, 2), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"indexes\.shape == x\.shape"):
        F.upsampling_2d(x, numpy.zeros((1, 1, 2, 3), int), 2, outsize=(4, 4))


def test_upsampling_rejects_indexes_outside_the_window():
    x = numpy.ones((1, 1, 2, 2), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"0 <= indexes < 4"):
        F.upsampling_2d(x, numpy.full((1, 1, 2, 2), 4), 2, outsize=(4, 4))


@pytest.mark.parametrize("indexes", [None, numpy.zeros((1, 1, 2, 2), numpy.float32)])
def test_upsampling_rejects_non_integer_indexes(indexes):
    with pytest.raises(TypeError, match=r"indexes must be"):
        F.upsampling_2d(numpy.ones((1, 1, 2, 2), numpy.float32), indexes, 2)


@testing.attr.gpu
def test_numpy_indexes_follow_a_gpu_input_as_in_v7():
    from chainer.backends import cuda

    x = numpy.random.default_rng(0).uniform(-1, 1, (2, 3, 4, 6)).astype(numpy.float32)
    pooled, indexes = F.max_pooling_2d(x, 2, return_indices=True)
    expected = F.upsampling_2d(pooled.array, indexes, 2, outsize=(4, 6)).array
    y = F.upsampling_2d(cuda.to_gpu(pooled.array), indexes, 2, outsize=(4, 6))
    numpy.testing.assert_array_equal(cuda.to_cpu(y.array), expected)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("case", _CASES)
@pytest.mark.parametrize("chainerx_indexes", [False, True])
def test_chainerx_inputs_are_upsampled_natively(monkeypatch, dtype, case, chainerx_indexes):
    shape, ksize, stride, pad, cover_all, outsize = case
    indexes = numpy.random.randint(0, ksize[0] * ksize[1], shape)
    x = numpy.random.uniform(-1, 1, shape).astype(dtype)
    forbid_fallback(monkeypatch, Upsampling2D)
    given = to_chainerx(indexes)[0] if chainerx_indexes else indexes
    y = F.upsampling_2d(*to_chainerx(x), given, ksize, stride, pad, outsize, cover_all)
    assert y.dtype == dtype
    expected = _reference_upsampling(x, indexes, ksize, stride, pad, outsize)
    numpy.testing.assert_allclose(to_numpy(y), expected, rtol=1e-3, atol=1e-3)
