"""Max pooling with 2-wide windows at stride 2: the pairwise tournament against the generic
window kernels (bitwise), and through ``F.max_pooling_nd`` (values, indexes, gradients)."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.functions.pooling import _pairwise_max, _windows
from chainer.functions.pooling.max_pooling_nd import MaxPoolingND

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, distinct_values, loosen_for_float16, reference_pooling

SHAPES = [(3, 2, 8), (2, 3, 4, 6), (2, 1, 4, 2, 6), (1, 2, 2, 2, 2, 4)]


def _window(dims):
    nd = len(dims)
    return _windows.Window.over_image(dims, (2,) * nd, (2,) * nd, (0,) * nd, True)


def _tied_values(shape, dtype):
    """Few distinct values (many ties), zeros of both signs, an infinity."""
    rng = numpy.random.default_rng(0)
    x = rng.integers(-2, 3, shape).astype(dtype)
    zeros = x == 0
    x[zeros] = numpy.where(rng.random(zeros.sum()) < 0.5, -0.0, 0.0)
    x.flat[1] = numpy.inf
    return x


def _bits(a):
    return a.view(numpy.dtype(f"u{a.dtype.itemsize}"))


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_tournament_is_bitwise_the_window_kernels(shape, dtype):
    x = _tied_values(shape, dtype)
    win = _window(shape[2:])
    assert _pairwise_max.applies(x, win)
    expected_y, expected_indexes = _windows.window_max(x, win)

    y, winners = _pairwise_max.pairwise_max(x)
    assert y.dtype == x.dtype
    numpy.testing.assert_array_equal(_bits(y), _bits(expected_y))
    indexes = winners.flat_indexes()
    assert indexes.dtype == expected_indexes.dtype
    numpy.testing.assert_array_equal(indexes, expected_indexes)

    gy = numpy.random.default_rng(1).standard_normal(y.shape).astype(dtype)
    gy.flat[0] = -numpy.inf  # inf * 0 is NaN in both, off the maximum
    with numpy.errstate(invalid="ignore"):
        expected_gx = _windows.window_scatter(gy, expected_indexes, win)
        gx = winners.scatter(gy)
    assert gx.flags.c_contiguous
    numpy.testing.assert_array_equal(_bits(gx), _bits(expected_gx))

    # The results are fresh arrays: another pooling (reusing the scratch buffers of the
    # intermediate rounds) leaves them as they are.
    kept = [a.copy() for a in (y, gx, *winners.masks)]
    _, other = _pairwise_max.pairwise_max(-x)
    with numpy.errstate(invalid="ignore"):
        other.scatter(-gy)
    for got, want in zip((y, gx, *winners.masks), kept):
        numpy.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(
    "shape, ksize, stride, pad",
    [
        ((2, 3, 5, 4), 2, 2, 0),  # odd size
        ((2, 3, 4, 4), 2, 2, 1),  # padding
        ((2, 3, 4, 4), 2, 1, 0),  # overlapping
        ((2, 3, 6, 6), 3, 3, 0),  # 3-wide
        ((2, 3, 4, 6), (2, 3), (2, 3), 0),
    ],
)
def test_other_geometries_take_the_window_kernels(shape, ksize, stride, pad):
    x = numpy.zeros(shape, numpy.float32)
    nd = len(shape) - 2
    win = _windows.Window.over_image(
        shape[2:], *_windows.Window.parse(nd, ksize, stride, pad), cover_all=True
    )
    assert not _pairwise_max.applies(x, win)


def test_indexes_are_computed_when_read():
    x = distinct_values((2, 3, 4, 6), numpy.float32) + 0.5  # no zeros
    pool = MaxPoolingND(2, 2)
    y = pool.apply((x,))[0]
    assert pool._indexes is None
    expected = reference_pooling(x, (2, 2), (2, 2), (0, 0), True, lambda v, _: v.argmax(axis=2))
    numpy.testing.assert_array_equal(pool.indexes, expected)
    assert pool.indexes is pool.indexes
    _, indexes = F.max_pooling_2d(x, 2, return_indices=True)
    numpy.testing.assert_array_equal(indexes, expected)
    upsampled = F.upsampling_2d(y, indexes, 2, outsize=(4, 6)).array
    numpy.testing.assert_array_equal(upsampled, numpy.where(upsampled != 0, x, 0))
    assert numpy.count_nonzero(upsampled == x) == y.size


@testing.parameterize(*testing.product({"shape": SHAPES, "dtype": FLOAT_DTYPES}))
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestPairwiseMaxPooling(testing.FunctionTestCase):
    """Values and first and second order gradients of pooling with 2-wide windows."""

    def setUp(self):
        loosen_for_float16(self)

    def generate_inputs(self):
        return (distinct_values(self.shape, self.dtype),)

    def forward(self, inputs, device):
        return (F.max_pooling_nd(inputs[0], 2, 2),)

    def forward_expected(self, inputs):
        nd = len(self.shape) - 2
        max_ = lambda values, _: values.max(axis=2)  # noqa: E731
        y = reference_pooling(inputs[0], (2,) * nd, (2,) * nd, (0,) * nd, True, max_)
        return (y.astype(self.dtype),)


@pytest.mark.parametrize("pair_axis", [3, 5])
def test_intermediate_rounds_keep_their_pair_halves_contiguous(pair_axis):
    shape = (2, 3, 4, 2, 5, 2, 3)
    like = numpy.zeros((), numpy.float32)
    level = _pairwise_max._level("test", 1, shape, pair_axis, like)
    assert level.shape == shape
    for half in (0, 1):
        assert _pairwise_max._pair(level, pair_axis, half).flags.c_contiguous
