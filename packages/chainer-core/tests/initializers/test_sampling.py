import math

import numpy
import pytest

from chainer import initializers

DTYPES = [numpy.float16, numpy.float32, numpy.float64]


def _tent(size):
    # Linear interpolation weights for a kernel of this size: 1 at the centre (k - 1) / 2,
    # falling by 1 / ceil(k / 2) per tap.
    centre = (size - 1) / 2
    return [1 - abs(i - centre) / math.ceil(size / 2) for i in range(size)]


def _bilinear(kh, kw):
    rows, cols = _tent(kh), _tent(kw)
    return numpy.array([[rows[i] * cols[j] for j in range(kw)] for i in range(kh)])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ksize", [1, 2, 3, 4, 5, 6])
def test_upsampling_full_kernel(dtype, ksize):
    channels = 3
    array = numpy.full((channels, channels, ksize, ksize), 7, dtype)
    assert initializers.UpsamplingDeconvFilter(dtype=dtype)(array) is None
    kernel = _bilinear(ksize, ksize)
    for i in range(channels):
        for j in range(channels):
            expected = kernel if i == j else numpy.zeros_like(kernel)
            numpy.testing.assert_array_equal(array[i, j], expected.astype(dtype))


def test_upsampling_known_stride_two_kernel():
    array = numpy.empty((1, 1, 4, 4))
    initializers.UpsamplingDeconvFilter()(array)
    tent = numpy.array([0.25, 0.75, 0.75, 0.25])
    numpy.testing.assert_array_equal(array[0, 0], numpy.outer(tent, tent))


@pytest.mark.parametrize(
    "cls", [initializers.UpsamplingDeconvFilter, initializers.DownsamplingConvFilter]
)
def test_grouped_kernel_shape(cls):
    array = numpy.full((4, 1, 3, 3), 7.0)
    cls()(array)
    kernel = _bilinear(3, 3)
    if cls is initializers.DownsamplingConvFilter:
        kernel = kernel / kernel.sum()
    for i in range(4):
        numpy.testing.assert_allclose(array[i, 0], kernel, rtol=1e-15)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("ksize", [2, 3, 4, 5])
def test_downsampling_is_normalized_kernel(dtype, ksize):
    array = numpy.full((2, 2, ksize, ksize), 7, dtype)
    initializers.DownsamplingConvFilter(dtype=dtype)(array)
    kernel = _bilinear(ksize, ksize)
    kernel /= kernel.sum()
    rtol = {numpy.float16: 1e-3, numpy.float32: 1e-6, numpy.float64: 1e-15}[dtype]
    numpy.testing.assert_allclose(array[0, 0], kernel, rtol=rtol)
    numpy.testing.assert_allclose(array[1, 1], kernel, rtol=rtol)
    numpy.testing.assert_array_equal(array[0, 1], 0)
    numpy.testing.assert_array_equal(array[1, 0], 0)


def test_rectangular_and_3d_kernels_are_separable():
    array = numpy.empty((1, 1, 2, 4))
    initializers.UpsamplingDeconvFilter()(array)
    numpy.testing.assert_allclose(array[0, 0], _bilinear(2, 4), rtol=1e-15)
    volume = numpy.empty((2, 2, 3, 4, 2))
    initializers.UpsamplingDeconvFilter()(volume)
    expected = numpy.einsum("i,j,k->ijk", _tent(3), _tent(4), _tent(2))
    numpy.testing.assert_allclose(volume[1, 1], expected, rtol=1e-15)


@pytest.mark.parametrize("stride", [2, 3, 4])
def test_upsampling_deconvolution_interpolates_linearly(stride):
    # A 1-D transposed convolution with the documented ksize and pad upsamples a ramp x[i] = i
    # to samples of the same ramp at (o + 0.5) / stride - 0.5 (away from the borders).
    ksize, pad = 2 * stride - stride % 2, math.ceil((stride - 1) / 2)
    weights = numpy.empty((1, 1, ksize))
    initializers.UpsamplingDeconvFilter()(weights)
    x = numpy.arange(8.0)
    out = numpy.zeros((len(x) - 1) * stride + ksize)
    for i, value in enumerate(x):
        out[i * stride : i * stride + ksize] += value * weights[0, 0]
    out = out[pad : len(out) - pad]
    positions = (numpy.arange(len(out)) + 0.5) / stride - 0.5
    numpy.testing.assert_allclose(out[stride:-stride], positions[stride:-stride], atol=1e-12)


@pytest.mark.parametrize("stride", [2, 3])
def test_downsampling_convolution_keeps_constant_images(stride):
    ksize, pad = 2 * stride - stride % 2, math.ceil((stride - 1) / 2)
    weights = numpy.empty((1, 1, ksize, ksize))
    initializers.DownsamplingConvFilter()(weights)
    image = numpy.pad(numpy.full((12, 12), 3.0), pad)
    out = [
        [(image[r : r + ksize, c : c + ksize] * weights[0, 0]).sum() for c in range(1, 4)]
        for r in range(1, 4)
    ]
    numpy.testing.assert_allclose(out, 3.0, rtol=1e-12)


@pytest.mark.parametrize(
    ("shape", "message"),
    [
        ((3, 3), r"convolution kernels \(channels, channels, \*ksize\), got shape \(3, 3\)"),
        ((3, 2, 4, 4), r"\(c, c, \*ksize\) or \(c, 1, \*ksize\).*got shape \(3, 2, 4, 4\)"),
    ],
)
def test_bad_shapes(shape, message):
    with pytest.raises(ValueError, match="UpsamplingDeconvFilter .*" + message):
        initializers.UpsamplingDeconvFilter()(numpy.empty(shape))


@pytest.mark.parametrize(
    "cls", [initializers.UpsamplingDeconvFilter, initializers.DownsamplingConvFilter]
)
def test_unsupported_interpolation(cls):
    with pytest.raises(ValueError, match="interpolation must be one of 'linear', got 'cubic'"):
        cls(interpolation="cubic")


def test_attributes_and_dtype_mismatch():
    upsampling = initializers.UpsamplingDeconvFilter()
    assert (upsampling.interpolation, upsampling.dtype) == ("linear", None)
    with pytest.raises(ValueError, match="created for dtype float32.*has dtype float64"):
        initializers.DownsamplingConvFilter(dtype=numpy.float32)(numpy.empty((1, 1, 2, 2)))


def test_empty_kernel_is_left_empty():
    array = numpy.empty((2, 2, 0, 0))
    initializers.DownsamplingConvFilter()(array)
    assert array.shape == (2, 2, 0, 0)
