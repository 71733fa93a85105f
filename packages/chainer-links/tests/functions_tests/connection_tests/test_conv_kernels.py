"""The two CPU layouts of the convolution kernels, checked directly against direct loops.

Which layout a call uses depends on the shapes, so the function tests may not reach both for
every geometry; here each layout runs every geometry. The per-sample layout is also the one
CuPy arrays use (with the CUDA im2col), tested on a GPU by ``test_cupy_matches_numpy``.
"""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.connection import _conv_batch_last, _conv_kernels, _conv_nchw

from .conftest import conv_reference, deconv_reference, uniform

# (dims, ksize, stride, pad, dilate, groups, outs): outs larger than the plain output size
# are what cover_all gives.
GEOMETRIES = [
    ((5, 6), (3, 2), (2, 1), (1, 0), (1, 2), 2, (3, 4)),
    ((4, 4), (1, 1), (1, 1), (0, 0), (1, 1), 1, (4, 4)),
    ((7,), (3,), (2,), (1,), (1,), 1, (4,)),
    ((3, 4, 3), (2, 2, 1), (1, 2, 1), (0, 1, 0), (1, 1, 2), 3, (2, 3, 3)),
]
LAYOUTS = [_conv_nchw, _conv_batch_last]


def _conv_with_outs(x, W, b, stride, pad, dilate, groups, outs):
    plain = conv_reference(x, W, b, stride, pad, dilate, groups, cover_all=False)
    if plain.shape[2:] == tuple(outs):
        return plain
    return conv_reference(x, W, b, stride, pad, dilate, groups, cover_all=True)


@pytest.mark.parametrize("layout", LAYOUTS, ids=["per_sample", "batch_last"])
@pytest.mark.parametrize("n", [1, 3])
@pytest.mark.parametrize("geometry", GEOMETRIES)
def test_layout_matches_the_reference(layout, n, geometry):
    dims, ksize, stride, pad, dilate, groups, outs = geometry
    c_in, c_out = 2 * groups, 3 * groups
    x = uniform((n, c_in, *dims), numpy.float64)
    W = uniform((c_out, c_in // groups, *ksize), numpy.float64)
    b = uniform((c_out,), numpy.float64)
    gy = uniform((n, c_out, *outs), numpy.float64)
    bx = uniform((c_in,), numpy.float64)
    geo = (stride, pad, dilate, groups)

    y = layout.conv(x, W, b, *geo, outs)
    numpy.testing.assert_allclose(y, _conv_with_outs(x, W, b, *geo, outs), rtol=1e-12)
    assert y.flags.c_contiguous

    # The transposed convolution with the weight read as (c_out, c_in / g) -> (c_in / g ...).
    gx = layout.conv_transpose(gy, W, bx, *geo, dims)
    expected = deconv_reference(gy, W, bx, stride, pad, dilate, groups, dims)
    numpy.testing.assert_allclose(gx, expected, rtol=1e-12, atol=1e-12)
    assert gx.flags.c_contiguous

    # The weight gradient is the adjoint: <conv(x, W), gy> == <W, grad_w(x, gy)>.
    gW = layout.conv_weight_grad(x, gy, ksize, *geo)
    assert gW.shape == W.shape
    lhs = numpy.vdot(layout.conv(x, W, None, *geo, outs), gy)
    numpy.testing.assert_allclose(numpy.vdot(W, gW), lhs, rtol=1e-12)


@pytest.mark.parametrize("layout", LAYOUTS, ids=["per_sample", "batch_last"])
@pytest.mark.parametrize("n", [1, 2, 5])
@pytest.mark.parametrize(
    "dtype, b_dtype",
    [
        (numpy.float16, numpy.float16),
        (numpy.float32, numpy.float32),
        (numpy.float32, numpy.float64),
    ],
)
def test_bias_is_added_bitwise_as_broadcast(layout, n, dtype, b_dtype):
    # The bias plane (a contiguous operand for batches) must give the sums of ``b`` broadcast.
    dims, ksize, stride, pad, dilate, groups, outs = GEOMETRIES[0]
    geo = (stride, pad, dilate, groups)
    x = uniform((n, 2 * groups, *dims), dtype)
    W = uniform((3 * groups, 2, *ksize), dtype)
    b = uniform((3 * groups,), b_dtype)
    b[0] = -0.0
    gy = uniform((n, 3 * groups, *outs), dtype)
    bx = uniform((2 * groups,), b_dtype)
    broadcast = (1, -1) + (1,) * len(dims)

    y = layout.conv(x, W, b, *geo, outs)
    expected = layout.conv(x, W, None, *geo, outs) + b.astype(dtype).reshape(broadcast)
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(y.view(numpy.uint8), expected.view(numpy.uint8))

    gx = layout.conv_transpose(gy, W, bx, *geo, dims)
    expected = layout.conv_transpose(gy, W, None, *geo, dims) + bx.astype(dtype).reshape(broadcast)
    numpy.testing.assert_array_equal(gx.view(numpy.uint8), expected.view(numpy.uint8))


def test_bias_operand_is_contiguous_for_a_numpy_batch_only():
    b = numpy.arange(3, dtype=numpy.float64)
    batch = numpy.zeros((2, 3, 4, 5), numpy.float32)
    plane = _conv_nchw.bias_operand(b, batch)
    assert plane.shape == (3, 4, 5) and plane.dtype == numpy.float32
    assert plane.flags.c_contiguous
    numpy.testing.assert_array_equal(plane, numpy.broadcast_to(b.reshape(3, 1, 1), (3, 4, 5)))
    single = _conv_nchw.bias_operand(b, batch[:1])
    assert single.shape == (1, 3, 1, 1)
    numpy.testing.assert_array_equal(single.ravel(), b)


def test_layout_choice_follows_row_length_and_channels():
    wide = numpy.empty((64, 1, 28, 28), numpy.float32)
    narrow = numpy.empty((64, 20, 12, 12), numpy.float32)
    assert _conv_kernels._layout(wide, 1, 20, (5, 5), 24) is _conv_nchw
    assert _conv_kernels._layout(narrow, 20, 50, (5, 5), 8) is _conv_batch_last
    assert _conv_kernels._layout(narrow[:1], 20, 50, (5, 5), 8) is _conv_nchw


@pytest.mark.gpu
def test_cupy_matches_numpy():
    cupy = pytest.importorskip("cupy")
    x = uniform((2, 4, 6, 5), numpy.float32)
    W = uniform((6, 2, 3, 2), numpy.float32)
    expected = F.convolution_2d(x, W, stride=2, pad=1, groups=2).array
    y = F.convolution_2d(cupy.asarray(x), cupy.asarray(W), stride=2, pad=1, groups=2)
    numpy.testing.assert_allclose(cupy.asnumpy(y.array), expected, rtol=1e-5, atol=1e-5)


def _batch_last_backward_case():
    """x, W, gy of a convolution that runs the batch-last layout (narrow maps, 2 groups)."""
    x = uniform((4, 6, 7, 7), numpy.float32)
    W = uniform((8, 3, 3, 3), numpy.float32)
    gy = uniform((4, 8, 5, 5), numpy.float32)
    assert _conv_kernels._layout(x, 6, 8, (3, 3), 5) is _conv_batch_last
    return x, W, gy


def test_shared_batch_last_copy_is_made_once_and_gives_the_same_gradients():
    x, W, gy = _batch_last_backward_case()
    geo = ((1, 1), (0, 0), (1, 1), 2)
    gx = _conv_batch_last.conv_transpose(gy, W, None, *geo, (7, 7))
    gW = _conv_batch_last.conv_weight_grad(x, gy, (3, 3), *geo)
    with _conv_kernels.sharing_output_gradient(gy):
        first = _conv_batch_last._grouped_batch_last(gy, 2)
        second = _conv_batch_last._grouped_batch_last(gy, 2)
        assert numpy.shares_memory(first, second)
        other = _conv_batch_last._grouped_batch_last(gy.copy(), 2)
        assert not numpy.shares_memory(first, other)
        shared_gx = _conv_batch_last.conv_transpose(gy, W, None, *geo, (7, 7))
        shared_gW = _conv_batch_last.conv_weight_grad(x, gy, (3, 3), *geo)
    numpy.testing.assert_array_equal(shared_gx.view(numpy.uint32), gx.view(numpy.uint32))
    numpy.testing.assert_array_equal(shared_gW.view(numpy.uint32), gW.view(numpy.uint32))
    # Outside the block every call copies again: a changed gy gives a new copy.
    gy[0] = 0
    numpy.testing.assert_array_equal(
        _conv_batch_last._grouped_batch_last(gy, 2).reshape(2, 4, 5, 5, 4)[..., 0], 0
    )


def test_convolution_backward_matches_the_kernels_bitwise():
    x, W, gy = _batch_last_backward_case()
    b = uniform((8,), numpy.float32)
    xv, Wv, bv = chainer.Variable(x), chainer.Variable(W), chainer.Variable(b)
    y = F.convolution_2d(xv, Wv, bv, groups=2)
    y.grad = gy
    y.backward()
    geo = ((1, 1), (0, 0), (1, 1), 2)
    gx = _conv_batch_last.conv_transpose(gy, W, None, *geo, (7, 7))
    gW = _conv_batch_last.conv_weight_grad(x, gy, (3, 3), *geo)
    numpy.testing.assert_array_equal(xv.grad.view(numpy.uint32), gx.view(numpy.uint32))
    numpy.testing.assert_array_equal(Wv.grad.view(numpy.uint32), gW.view(numpy.uint32))


@pytest.mark.parametrize("dtype", [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize("block_bytes", [1, 64, 10**9])
@pytest.mark.parametrize("max_blocks", [3, 64])
@pytest.mark.parametrize("with_bias", [False, True])
def test_batch_first_in_channel_blocks_is_bitwise_the_plain_transposition(
    dtype, block_bytes, max_blocks, with_bias, monkeypatch
):
    monkeypatch.setattr(_conv_batch_last, "TRANSPOSE_BLOCK_BYTES", block_bytes)
    monkeypatch.setattr(_conv_batch_last, "TRANSPOSE_MAX_BLOCKS", max_blocks)
    y = uniform((7, 3, 2, 5), dtype)  # (c, *dims, n): 7 channels of 30 numbers
    y[0, 0, 0, 0] = -0.0
    b = uniform((7,), dtype) if with_bias else None
    if with_bias:
        b[1] = -0.0
    got = _conv_batch_last._batch_first(y, b)
    expected = numpy.ascontiguousarray(y.transpose(3, 0, 1, 2))
    if with_bias:
        expected = expected + b.reshape(1, 7, 1, 1)
    assert got.flags.c_contiguous and got.dtype == dtype
    numpy.testing.assert_array_equal(got.view(numpy.uint8), expected.view(numpy.uint8))
