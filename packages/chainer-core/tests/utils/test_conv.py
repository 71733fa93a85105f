"""chainer.utils.conv: output sizes and 2-D im2col / col2im."""

import itertools

import numpy
import pytest

from chainer.utils import conv

from . import _im2col_reference as ref

# (kernel, stride, pad, dilation, cover_all) along each axis.
_GEOMETRIES = [
    ((3, 3), (1, 1), (1, 1), (1, 1), False),
    ((3, 2), (2, 1), (0, 1), (1, 1), False),
    ((2, 3), (3, 2), (1, 0), (1, 1), True),
    ((3, 3), (2, 2), (1, 2), (2, 1), False),
    ((2, 2), (2, 3), (0, 0), (2, 2), True),
    ((1, 1), (1, 1), (0, 0), (1, 1), False),
    ((4, 3), (1, 2), (3, 1), (1, 3), True),
]


@pytest.mark.parametrize(
    ("size", "k", "s", "p", "d", "cover_all"),
    [
        (size, k, s, p, d, cover_all)
        for size, k, s, p, d, cover_all in itertools.product(
            (4, 5, 7), (1, 2, 3), (1, 2, 3), (0, 1, 2), (1, 2), (False, True)
        )
        if size + 2 * p >= (k - 1) * d + 1  # the kernel fits in the padded input
    ],
)
def test_get_conv_outsize_counts_windows(size, k, s, p, d, cover_all):
    assert conv.get_conv_outsize(size, k, s, p, cover_all, d) == ref.conv_outsize(
        size, k, s, p, cover_all, d
    )


def test_get_conv_outsize_examples():
    assert conv.get_conv_outsize(5, 3, 1, 1) == 5
    assert conv.get_conv_outsize(6, 3, 2, 0) == 2
    assert conv.get_conv_outsize(6, 3, 2, 0, cover_all=True) == 3
    assert conv.get_conv_outsize(7, 3, 1, 0, d=2) == 3


@pytest.mark.parametrize(
    ("size", "k", "s", "p", "d", "cover_all"),
    [
        args
        for args in itertools.product(
            (1, 3, 4), (1, 2, 3), (1, 2, 3), (0, 1), (1, 2), (False, True)
        )
        if conv.get_deconv_outsize(*args) > 1
    ],
)
def test_get_deconv_outsize_is_the_smallest_conv_input(size, k, s, p, d, cover_all):
    out = conv.get_deconv_outsize(size, k, s, p, cover_all, d)
    assert ref.conv_outsize(out, k, s, p, cover_all, d) == size
    assert ref.conv_outsize(out - 1, k, s, p, cover_all, d) < size


def test_get_deconv_outsize_examples():
    assert conv.get_deconv_outsize(5, 3, 1, 1) == 5
    assert conv.get_deconv_outsize(2, 3, 2, 0) == 5
    assert conv.get_deconv_outsize(3, 3, 2, 0, cover_all=True) == 6
    assert conv.get_deconv_outsize(3, 3, 1, 0, d=2) == 7


@pytest.mark.parametrize(("ksize", "stride", "pad", "dilate", "cover_all"), _GEOMETRIES)
@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64])
def test_im2col_cpu_matches_reference(ksize, stride, pad, dilate, cover_all, dtype):
    img = numpy.random.default_rng(0).standard_normal((2, 3, 7, 6)).astype(dtype)
    outs = tuple(
        ref.conv_outsize(n, k, s, p, cover_all, d)
        for n, k, s, p, d in zip(img.shape[2:], ksize, stride, pad, dilate)
    )
    col = conv.im2col_cpu(
        img, *ksize, *stride, *pad, cover_all=cover_all, dy=dilate[0], dx=dilate[1]
    )
    assert col.dtype == dtype
    numpy.testing.assert_array_equal(col, ref.im2col(img, ksize, stride, pad, dilate, outs))


def test_im2col_cpu_pad_value_and_explicit_output_size():
    img = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
    col = conv.im2col_cpu(img, 3, 3, 2, 2, 1, 1, pval=-1, out_h=3, out_w=2)
    assert col.shape == (1, 1, 3, 3, 3, 2)
    numpy.testing.assert_array_equal(
        col, ref.im2col(img, (3, 3), (2, 2), (1, 1), (1, 1), (3, 2), pval=-1)
    )


@pytest.mark.parametrize(("ksize", "stride", "pad", "dilate", "cover_all"), _GEOMETRIES)
def test_col2im_cpu_matches_reference(ksize, stride, pad, dilate, cover_all):
    h, w = 7, 6
    outs = tuple(
        ref.conv_outsize(n, k, s, p, cover_all, d)
        for n, k, s, p, d in zip((h, w), ksize, stride, pad, dilate)
    )
    col = numpy.random.default_rng(1).standard_normal((2, 3, *ksize, *outs))
    img = conv.col2im_cpu(col, *stride, *pad, h, w, dy=dilate[0], dx=dilate[1])
    numpy.testing.assert_allclose(img, ref.col2im(col, stride, pad, (h, w), dilate))


def test_col2im_is_the_adjoint_of_im2col():
    rng = numpy.random.default_rng(2)
    img = rng.standard_normal((2, 2, 6, 5))
    col = conv.im2col_cpu(img, 3, 2, 2, 1, 1, 1, cover_all=True, dy=2)
    other = rng.standard_normal(col.shape)
    back = conv.col2im_cpu(other, 2, 1, 1, 1, 6, 5, dy=2)
    numpy.testing.assert_allclose(numpy.vdot(col, other), numpy.vdot(img, back))


def test_output_size_must_be_positive():
    with pytest.raises(
        ValueError,
        match=r"output size \(0, 1\) must be positive; the input "
        r"spatial size \(2, 3\)",
    ):
        conv.im2col_cpu(numpy.zeros((1, 1, 2, 3)), 3, 3, 1, 1, 0, 0)


def test_rank_is_checked():
    with pytest.raises(ValueError, match=r"img must be a 4-D array, got shape \(2, 3\)"):
        conv.im2col_cpu(numpy.zeros((2, 3)), 1, 1, 1, 1, 0, 0)
    with pytest.raises(ValueError, match=r"col must be a 6-D array, got shape \(1, 1, 1, 1\)"):
        conv.col2im_cpu(numpy.zeros((1, 1, 1, 1)), 1, 1, 0, 0, 2, 2)


@pytest.mark.gpu
@pytest.mark.parametrize(("ksize", "stride", "pad", "dilate", "cover_all"), _GEOMETRIES)
def test_gpu_versions_match_cpu(ksize, stride, pad, dilate, cover_all):
    cupy = pytest.importorskip("cupy")
    if not cupy.is_available():
        pytest.skip("no CUDA device")
    img = numpy.random.default_rng(3).standard_normal((2, 3, 7, 6)).astype(numpy.float32)
    kwargs = {"dy": dilate[0], "dx": dilate[1]}
    expected = conv.im2col_cpu(img, *ksize, *stride, *pad, cover_all=cover_all, **kwargs)
    col = conv.im2col_gpu(cupy.asarray(img), *ksize, *stride, *pad, cover_all=cover_all, **kwargs)
    numpy.testing.assert_array_equal(col.get(), expected)
    back = conv.col2im_gpu(col, *stride, *pad, 7, 6, **kwargs)
    numpy.testing.assert_allclose(
        back.get(), conv.col2im_cpu(expected, *stride, *pad, 7, 6, **kwargs), rtol=1e-6
    )


def test_im2col_and_col2im_dispatch_numpy_arrays_to_the_cpu_versions():
    img = numpy.random.default_rng(3).standard_normal((2, 3, 7, 6))
    numpy.testing.assert_array_equal(
        conv.im2col(img, 3, 2, 2, 1, 1, 0, pval=-1, dy=2),
        conv.im2col_cpu(img, 3, 2, 2, 1, 1, 0, pval=-1, dy=2),
    )
    col = numpy.random.default_rng(4).standard_normal((2, 3, 3, 2, 3, 5))
    numpy.testing.assert_array_equal(
        conv.col2im(col, 2, 1, 1, 0, 7, 6, dy=2), conv.col2im_cpu(col, 2, 1, 1, 0, 7, 6, dy=2)
    )
