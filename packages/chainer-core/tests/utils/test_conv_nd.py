"""chainer.utils.conv_nd: N-d im2col / col2im."""

import numpy
import pytest

from chainer.utils import conv, conv_nd

from . import _im2col_reference as ref

# (image spatial shape, kernel, stride, pad, dilation, cover_all)
_GEOMETRIES = [
    ((7,), (3,), (2,), (1,), (1,), False),
    ((6,), (2,), (3,), (0,), (2,), True),
    ((4, 5, 6), (2, 3, 1), (1, 2, 3), (1, 0, 2), (1, 1, 2), False),
    ((5, 4, 3), (3, 2, 2), (2, 1, 2), (0, 1, 1), (2, 1, 1), True),
    ((3, 3, 3, 3), (2, 2, 2, 2), (1, 2, 1, 2), (0, 1, 0, 1), (1, 1, 2, 1), False),
]


def _outs(dims, ksize, stride, pad, dilate, cover_all):
    return tuple(map(ref.conv_outsize, dims, ksize, stride, pad, (cover_all,) * len(dims), dilate))


@pytest.mark.parametrize(("dims", "ksize", "stride", "pad", "dilate", "cover_all"), _GEOMETRIES)
def test_im2col_nd_cpu_matches_reference(dims, ksize, stride, pad, dilate, cover_all):
    img = numpy.random.default_rng(0).standard_normal((2, 3, *dims)).astype(numpy.float32)
    col = conv_nd.im2col_nd_cpu(img, ksize, stride, pad, cover_all=cover_all, dilate=dilate)
    outs = _outs(dims, ksize, stride, pad, dilate, cover_all)
    numpy.testing.assert_array_equal(col, ref.im2col(img, ksize, stride, pad, dilate, outs))


@pytest.mark.parametrize(("dims", "ksize", "stride", "pad", "dilate", "cover_all"), _GEOMETRIES)
def test_col2im_nd_cpu_matches_reference(dims, ksize, stride, pad, dilate, cover_all):
    outs = _outs(dims, ksize, stride, pad, dilate, cover_all)
    col = numpy.random.default_rng(1).standard_normal((2, 3, *ksize, *outs))
    img = conv_nd.col2im_nd_cpu(col, stride, pad, dims, dilate=dilate)
    numpy.testing.assert_allclose(img, ref.col2im(col, stride, pad, dims, dilate))


def test_scalars_apply_to_every_axis_and_agree_with_2d():
    img = numpy.random.default_rng(2).standard_normal((1, 2, 5, 6))
    col = conv_nd.im2col_nd_cpu(img, 3, 2, 1, cover_all=True, dilate=2)
    expected = conv.im2col_cpu(img, 3, 3, 2, 2, 1, 1, cover_all=True, dy=2, dx=2)
    numpy.testing.assert_array_equal(col, expected)
    numpy.testing.assert_array_equal(
        conv_nd.col2im_nd_cpu(col, 2, 1, (5, 6), dilate=2),
        conv.col2im_cpu(col, 2, 2, 1, 1, 5, 6, dy=2, dx=2),
    )


def test_as_tuple():
    assert conv_nd.as_tuple(3, 2) == (3, 3)
    assert conv_nd.as_tuple([1, 2], 2) == (1, 2)
    assert conv_nd.as_tuple(numpy.array([1, 2, 3]), 3) == (1, 2, 3)
    with pytest.raises(
        ValueError,
        match=r"expected 3 values \(one per spatial axis\), "
        r"got \(1, 2\)",
    ):
        conv_nd.as_tuple((1, 2), 3)
    with pytest.raises(AssertionError):  # what v7 raised (it asserted)
        conv_nd.as_tuple((1,), 2)


def test_bad_shapes_are_reported():
    with pytest.raises(ValueError, match=r"img must be \(n, c, \*spatial\) with a spatial axis"):
        conv_nd.im2col_nd_cpu(numpy.zeros((2, 3)), 1, 1, 0)
    with pytest.raises(ValueError, match=r"output size \(0,\) must be positive"):
        conv_nd.im2col_nd_cpu(numpy.zeros((1, 1, 2)), 3, 1, 0)
    with pytest.raises(
        ValueError,
        match=r"col must be \(n, c, \*ksize, \*outs\) for 2 spatial "
        r"axes, got shape \(1, 1, 2, 2\)",
    ):
        conv_nd.col2im_nd_cpu(numpy.zeros((1, 1, 2, 2)), 1, 0, (3, 3))


@pytest.mark.gpu
@pytest.mark.parametrize(("dims", "ksize", "stride", "pad", "dilate", "cover_all"), _GEOMETRIES)
def test_gpu_versions_match_cpu(dims, ksize, stride, pad, dilate, cover_all):
    cupy = pytest.importorskip("cupy")
    if not cupy.is_available():
        pytest.skip("no CUDA device")
    img = numpy.random.default_rng(3).standard_normal((2, 3, *dims)).astype(numpy.float32)
    expected = conv_nd.im2col_nd_cpu(img, ksize, stride, pad, cover_all, dilate)
    col = conv_nd.im2col_nd_gpu(cupy.asarray(img), ksize, stride, pad, cover_all, dilate)
    numpy.testing.assert_array_equal(col.get(), expected)
    back = conv_nd.col2im_nd_gpu(col, stride, pad, dims, dilate)
    numpy.testing.assert_allclose(
        back.get(), conv_nd.col2im_nd_cpu(expected, stride, pad, dims, dilate), rtol=1e-6
    )


def test_im2col_nd_and_col2im_nd_dispatch_numpy_arrays_to_the_cpu_versions():
    img = numpy.random.default_rng(5).standard_normal((1, 2, 5, 4, 3))
    numpy.testing.assert_array_equal(
        conv_nd.im2col_nd(img, (2, 3, 1), 1, (1, 0, 1), cover_all=True, dilate=(1, 1, 2)),
        conv_nd.im2col_nd_cpu(img, (2, 3, 1), 1, (1, 0, 1), cover_all=True, dilate=(1, 1, 2)),
    )
    col = numpy.random.default_rng(6).standard_normal((1, 2, 2, 2, 4, 3))
    numpy.testing.assert_array_equal(
        conv_nd.col2im_nd(col, 1, 0, (5, 4)), conv_nd.col2im_nd_cpu(col, 1, 0, (5, 4))
    )
