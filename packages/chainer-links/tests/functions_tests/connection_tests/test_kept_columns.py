"""The weight gradient reading back the forward's im2col columns (``_scratch.Kept``): bitwise
the gradient built from ``x`` again, used only while the columns are still there."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions import _scratch
from chainer.functions.connection import _conv_batch_last, _conv_kernels, _conv_nchw

from .conftest import FLOAT_DTYPES, uniform

# (n, dims, ksize, stride, pad, dilate, groups, cover_all): padded, strided, dilated,
# grouped, cover_all, 1-D and 3-D.
GEOMETRIES = [
    (3, (9, 8), (3, 2), (1, 1), (1, 0), (1, 1), 1, False),
    (2, (11, 9), (3, 3), (2, 1), (1, 2), (1, 2), 2, True),
    (1, (7, 8), (2, 3), (1, 2), (1, 1), (2, 1), 3, False),
    (4, (10,), (3,), (2,), (1,), (1,), 1, True),
    (2, (5, 6, 4), (2, 3, 2), (1, 2, 1), (1, 0, 1), (1, 1, 2), 1, False),
]
LAYOUTS = [_conv_nchw, _conv_batch_last]


def _bits(a):
    return a.view(numpy.dtype(f"u{a.dtype.itemsize}"))


def _outs(dims, ksize, stride, pad, dilate, cover_all):
    return tuple(
        chainer.utils.conv.get_conv_outsize(d, k, s, p, cover_all, dl)
        for d, k, s, p, dl in zip(dims, ksize, stride, pad, dilate)
    )


def _arrays(geometry, dtype):
    n, dims, ksize, stride, pad, dilate, groups, cover_all = geometry
    outs = _outs(dims, ksize, stride, pad, dilate, cover_all)
    x = uniform((n, 2 * groups, *dims), dtype)
    x.reshape(-1)[::5] = -0.0
    W = uniform((3 * groups, 2, *ksize), dtype)
    gy = uniform((n, 3 * groups, *outs), dtype)
    return x, W, gy, outs


class _Spy(_scratch.Kept):
    """A Kept that records whether its columns were read back."""

    __slots__ = ("hits",)

    def __init__(self):
        super().__init__()
        self.hits = []

    def reclaim(self):
        got = super().reclaim()
        self.hits.append(got is not None)
        return got


@pytest.mark.parametrize("layout", LAYOUTS, ids=["per_sample", "batch_last"])
@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("geometry", GEOMETRIES)
def test_kept_columns_give_the_weight_gradient_bitwise(layout, dtype, geometry):
    _, _, ksize, stride, pad, dilate, groups, _ = geometry
    x, W, gy, outs = _arrays(geometry, dtype)
    geo = (stride, pad, dilate, groups)
    expected = layout.conv_weight_grad(x, gy, ksize, *geo)

    keep = _scratch.Kept()
    y = layout.conv(x, W, None, *geo, outs, keep=keep)
    numpy.testing.assert_array_equal(_bits(y), _bits(layout.conv(x, W, None, *geo, outs)))
    # That second forward took the slot: the columns are built again.
    assert keep.reclaim() is None

    keep = _Spy()
    layout.conv(x, W, None, *geo, outs, keep=keep)
    got = layout.conv_weight_grad(x, gy, ksize, *geo, kept=keep)
    numpy.testing.assert_array_equal(_bits(got), _bits(expected))
    # The per-sample layout keeps the columns of a single sample only (they are in the
    # weight gradient's order then); the batch-last layout always.
    assert keep.hits == [layout is _conv_batch_last or x.shape[0] == 1]


def _spy_on_kept(monkeypatch):
    spies = []

    def make():
        spies.append(_Spy())
        return spies[-1]

    monkeypatch.setattr(_scratch, "Kept", make)
    return spies


def _gradients(x, W, b, geometry, gy, double=False):
    _, _, _, stride, pad, dilate, groups, cover_all = geometry
    xv, Wv, bv = (chainer.Variable(a.copy()) for a in (x, W, b))
    y = F.convolution_nd(xv, Wv, bv, stride, pad, cover_all, dilate, groups)
    y.grad = gy
    y.backward(enable_double_backprop=double)
    return y.array, xv.grad, Wv.grad, bv.grad


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("geometry", GEOMETRIES)
@pytest.mark.parametrize("double", [False, True])
def test_convolution_gradients_are_bitwise_those_without_kept_columns(
    geometry, dtype, double, monkeypatch
):
    x, W, gy, _ = _arrays(geometry, dtype)
    b = uniform((W.shape[0],), dtype)
    without = []
    with monkeypatch.context() as patch:
        patch.setattr(_scratch.Kept, "reclaim", lambda self: None)
        without = _gradients(x, W, b, geometry, gy, double)
    spies = _spy_on_kept(monkeypatch)
    got = _gradients(x, W, b, geometry, gy, double)
    for a, e in zip(got, without):
        numpy.testing.assert_array_equal(_bits(a), _bits(e))
    # The convolution is the last of the forward: its weight gradient reads them back
    # wherever the kernel held them.
    held = (
        x.shape[0] == 1
        or _conv_kernels._layout(x, x.shape[1], W.shape[0], W.shape[2:], gy.shape[-1])
        is _conv_batch_last
    )
    assert [s.hits for s in spies] == [[held]]


def test_only_the_last_convolution_of_a_forward_reads_its_columns_back(monkeypatch):
    spies = _spy_on_kept(monkeypatch)
    x = chainer.Variable(uniform((8, 3, 10, 10), numpy.float32))
    W1 = chainer.Variable(uniform((8, 3, 3, 3), numpy.float32))
    W2 = chainer.Variable(uniform((8, 8, 3, 3), numpy.float32))
    h = F.convolution_2d(F.relu(F.convolution_2d(x, W1)), W2)
    F.sum(h * h).backward()
    assert [s.hits for s in spies] == [[False], [True]]
    assert _conv_kernels._layout(h.array, 8, 8, (3, 3), 6) is _conv_batch_last


def test_the_columns_are_not_kept_without_backprop_or_for_another_input(monkeypatch):
    spies = _spy_on_kept(monkeypatch)
    x = uniform((4, 3, 6, 6), numpy.float32)
    W = chainer.Variable(uniform((5, 3, 3, 3), numpy.float32))
    with chainer.no_backprop_mode():
        F.convolution_2d(x, W)
    assert spies == []

    y = F.convolution_2d(x, W)
    node = y.creator
    other = x.copy()  # the weight gradient of another input builds its own columns
    gy = uniform(y.shape, numpy.float32)
    grad_w = chainer.functions.connection.convolution_nd.ConvolutionNDGradW(node, W.shape, W.dtype)
    got = grad_w.apply((other, gy))[0].array
    assert spies[0].hits == []
    numpy.testing.assert_array_equal(
        _bits(got), _bits(_conv_kernels.conv_weight_grad(x, gy, (3, 3), (1, 1), (0, 0), (1, 1), 1))
    )
    # The original input may still take them (they are gone: that gradient's im2col used the
    # slot since), once.
    assert node._kept_columns is not None
    y.grad = gy
    y.backward()
    assert spies[0].hits == [False]
    assert node._kept_columns is None
    numpy.testing.assert_array_equal(_bits(W.grad), _bits(got))
