"""The convolution nodes: N-d convolution, its weight gradient and the transposed convolution.

They live together because each one's backward is made of the others: the input gradient of
a convolution is a deconvolution, that of a deconvolution a convolution, and both weight
gradients are :class:`ConvolutionNDGradW`. The public modules ``convolution_nd``,
``deconvolution_nd`` and their 2-D counterparts export them with the wrapper functions.
"""

from __future__ import annotations

import numpy

from chainer import configuration
from chainer._ops._util import force_array
from chainer._ops.array_ops import sum as _sum
from chainer.function_node import Fallback, FunctionNode
from chainer.functions import _scratch
from chainer.functions.connection import _conv_kernels
from chainer.functions.connection._checks import (
    expect_bias,
    expect_count,
    expect_float,
    expect_ndim,
    fail,
)
from chainer.functions.connection._conv_args import ConvArgs, int_tuple
from chainer.variable import _new_variable


def _expect_inputs(in_data: tuple, ndim: int, groups: int, transposed: bool) -> None:
    """Check ``x``, ``W`` (float, rank ``ndim + 2``) and ``b`` of a convolution, or of a
    deconvolution when ``transposed``: their channel counts must fit together."""
    expect_count(in_data, 2, 3)
    x, W = in_data[0], in_data[1]
    for name, array in (("x", x), ("W", W)):
        expect_float(array, name)
        expect_ndim(array, ndim + 2, name)
    if transposed:
        in_text, n_in = "W.shape[0]", W.shape[0]
        out_text, n_out = "W.shape[1] * groups", W.shape[1] * groups
    else:
        in_text, n_in = "W.shape[1] * groups", W.shape[1] * groups
        out_text, n_out = "W.shape[0]", W.shape[0]
    if x.shape[1] != n_in:
        fail(
            f"x.shape[1] == {in_text}",
            f"{x.shape[1]} != {n_in} (x.shape={x.shape}, W.shape={W.shape}, groups={groups})",
        )
    if W.shape[0] % groups:
        fail("W.shape[0] % groups == 0", f"{W.shape[0]} % {groups} != 0")
    if len(in_data) == 3:
        expect_bias(in_data[2], x, n_out, out_text)


def _same_dtype(inputs: tuple) -> bool:
    """ChainerX's conv routines promote mixed dtypes; Chainer keeps x's (NumPy does those)."""
    return all(a.dtype == inputs[0].dtype for a in inputs[1:])


def _dilated_kernel(W, dilate: tuple):
    """``W`` (ChainerX) with ``d - 1`` zeros between its taps along each spatial axis: a
    convolution with it is the dilated convolution with ``W`` (differentiable in ``W``)."""
    import chainerx

    for i, d in enumerate(dilate):
        if d == 1:
            continue
        axis, k = i + 2, W.shape[i + 2]
        gaps = chainerx.zeros(
            (*W.shape[: axis + 1], d - 1, *W.shape[axis + 1 :]), W.dtype, W.device
        )
        spread = chainerx.concatenate((chainerx.expand_dims(W, axis + 1), gaps), axis=axis + 1)
        spread = spread.reshape((*W.shape[:axis], k * d, *W.shape[axis + 1 :]))
        W = spread[(slice(None),) * axis + (slice(0, (k - 1) * d + 1),)]
    return W


def _chainerx_conv(routine, inputs: tuple, args: ConvArgs):
    """``routine(x, W, b)`` (``chainerx.conv`` or ``conv_transpose``, both taking ``W`` split
    into groups along axis 0) with dilation and groups, composed of ChainerX routines."""
    import chainerx

    x, W = inputs[0], _dilated_kernel(inputs[1], args.dilate)
    b = inputs[2] if len(inputs) == 3 else None
    if args.groups == 1:
        return routine(x, W, b)
    g = args.groups
    bs = [None] * g if b is None else chainerx.split(b, g)
    parts = zip(chainerx.split(x, g, axis=1), chainerx.split(W, g, axis=0), bs)
    return chainerx.concatenate([routine(*part) for part in parts], axis=1)


class ConvolutionND(FunctionNode):
    """Convolution over ``ndim`` spatial axes (im2col and one GEMM per group on the CPU).

    Its backward is a deconvolution (input gradient) and :class:`ConvolutionNDGradW` (weight
    gradient), both differentiable, so gradients of any order are available. On NumPy, the
    weight gradient may read back the forward's im2col columns (see :mod:`._conv_kernels`).
    """

    #: ``(x, kept)``: the input of the last forward and the :class:`._scratch.Kept` that may
    #: hold its columns, until the weight gradient takes them.
    _kept_columns = None

    def __init__(
        self, ndim: int, stride=1, pad=0, cover_all: bool = False, dilate=1, groups: int = 1
    ) -> None:
        self.ndim = ndim
        self.args = ConvArgs(ndim, stride, pad, dilate, groups)
        self.stride = self.args.stride
        self.pad = self.args.pad
        self.dilate = self.args.dilate
        self.groups = self.args.groups
        self.cover_all = bool(cover_all)

    def _check_arrays(self, in_data: tuple) -> None:
        _expect_inputs(in_data, self.ndim, self.groups, transposed=False)
        x, W = in_data[0], in_data[1]
        dims, ksize = x.shape[2:], W.shape[2:]
        self.args.expect_positive_outs(
            self.args.conv_outs(dims, ksize, self.cover_all), dims, ksize
        )

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        x, W = inputs[0], inputs[1]
        b = inputs[2] if len(inputs) == 3 else None
        a = self.args
        outs = a.conv_outs(x.shape[2:], W.shape[2:], self.cover_all)
        keep = None
        if type(x) is numpy.ndarray and configuration.config.enable_backprop:
            keep = _scratch.Kept()
            self._kept_columns = (x, keep)
        return (_conv_kernels.conv(x, W, b, a.stride, a.pad, a.dilate, a.groups, outs, keep),)

    def forward_chainerx(self, inputs: tuple):
        if not _same_dtype(inputs):
            return Fallback
        import chainerx

        def conv(x, W, b):
            return chainerx.conv(x, W, b, self.stride, self.pad, self.cover_all)

        return (_chainerx_conv(conv, inputs, self.args),)

    def _output_shape(self, x, W) -> tuple:
        outs = self.args.conv_outs(x.shape[2:], W.shape[2:], self.cover_all)
        return (x.shape[0], W.shape[0], *outs)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x, W = self.get_retained_inputs()
        gy = grad_outputs[0]
        grads = {}
        # The weight gradient first, where it may read the forward's columns back from the
        # scratch slot that the input gradient's kernel uses. (A gradient of the wrong shape
        # goes to the input gradient first, whose checks report it, as they did.)
        order = (1, 0) if gy.shape == self._output_shape(x, W) else (0, 1)
        with _conv_kernels.sharing_output_gradient(gy.array):
            for i in order:
                if i not in indexes:
                    continue
                if i == 1:
                    grads[1] = ConvolutionNDGradW(self, W.shape, W.dtype).apply((x, gy))[0]
                else:
                    deconv = DeconvolutionND(
                        self.ndim, self.stride, self.pad, x.shape[2:], self.dilate, self.groups
                    )
                    grads[0] = deconv.apply((gy, W))[0]
        if 2 in indexes:
            grads[2] = _sum(gy, axis=(0, *range(2, gy.ndim)))
        return tuple(grads[i] for i in indexes)

    def _take_kept_columns(self, x):
        """The :class:`._scratch.Kept` of the last forward when it ran on ``x`` (taken: a
        second weight gradient builds the columns again)."""
        kept = self._kept_columns
        if kept is None or kept[0] is not x:
            return None
        self._kept_columns = None
        return kept[1]

    def _backward_fast(self, indexes: tuple, grad_outputs: tuple) -> tuple | None:
        """``backward`` on NumPy arrays of one dtype: the forwards of its gradient nodes."""
        gy = grad_outputs[0]
        g = gy._array
        x_node, w_node = self.inputs[0], self.inputs[1]
        x, W = x_node.data, w_node.data
        if type(g) is not numpy.ndarray or type(x) is not numpy.ndarray:
            return None  # CuPy, ChainerX
        if type(W) is not numpy.ndarray or not g.dtype == x.dtype == W.dtype:
            return None
        if g.shape != self._output_shape(x, W):
            return None  # a gradient of the wrong shape: backward reports it
        a = self.args
        ksize = W.shape[2:]
        g_requires_grad = gy._requires_grad
        geometry = (a.stride, a.pad, a.dilate, a.groups)
        grads = {}
        with _conv_kernels.sharing_output_gradient(g):
            if 1 in indexes:  # first, as in backward
                kept = self._take_kept_columns(x)
                gW = _conv_kernels.conv_weight_grad(x, g, ksize, *geometry, kept)
                grads[1] = _new_variable(gW, g_requires_grad or x_node._requires_grad)
            if 0 in indexes:
                gx = _conv_kernels.conv_transpose(g, W, None, *geometry, x.shape[2:])
                grads[0] = _new_variable(gx, g_requires_grad or w_node._requires_grad)
        if 2 in indexes:
            gb = force_array(g.sum(axis=(0, *range(2, g.ndim))))
            grads[2] = _new_variable(gb, g_requires_grad)
        return tuple(grads[i] for i in indexes)


class ConvolutionNDGradW(FunctionNode):
    """The weight gradient of a convolution from ``(x, gy)``; differentiable in both.

    Args:
        conv: The convolution (or deconvolution) node whose ``stride``, ``pad``, ``dilate`` and
            ``groups`` it uses.
        W_shape: Shape of the weight, ``(c_out, c_in / groups, *ksize)``.
        W_dtype: Dtype of the weight (the gradient is cast to it).
    """

    def __init__(self, conv, W_shape: tuple, W_dtype) -> None:
        self._conv = conv
        self.ndim = len(W_shape) - 2
        self.args = ConvArgs(self.ndim, conv.stride, conv.pad, conv.dilate, conv.groups)
        self.ksize = tuple(W_shape[2:])
        self.W_shape = tuple(W_shape)
        self.W_dtype = numpy.dtype(W_dtype)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        x, gy = inputs
        a = self.args
        take = getattr(self._conv, "_take_kept_columns", None)  # a ConvolutionND's
        kept = None if take is None else take(x)
        gW = _conv_kernels.conv_weight_grad(
            x, gy, self.ksize, a.stride, a.pad, a.dilate, a.groups, kept
        )
        return (gW.astype(self.W_dtype, copy=False),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x, gy = self.get_retained_inputs()
        ggW = grad_outputs[0]
        a = self.args
        ret = []
        if 0 in indexes:
            deconv = DeconvolutionND(self.ndim, a.stride, a.pad, x.shape[2:], a.dilate, a.groups)
            ret.append(deconv.apply((gy, ggW))[0])
        if 1 in indexes:
            cover_all = a.covers_all(x.shape[2:], self.ksize, gy.shape[2:])
            conv = ConvolutionND(self.ndim, a.stride, a.pad, cover_all, a.dilate, a.groups)
            ret.append(conv.apply((x, ggW))[0])
        return tuple(ret)


class DeconvolutionND(FunctionNode):
    """Transposed convolution over ``ndim`` spatial axes: the adjoint of :class:`ConvolutionND`.

    Its backward is a convolution (input gradient) and ``ConvolutionNDGradW`` (weight
    gradient), so gradients of any order are available.
    """

    def __init__(
        self, ndim: int, stride=1, pad=0, outsize=None, dilate=1, groups: int = 1
    ) -> None:
        self.ndim = ndim
        self.args = ConvArgs(ndim, stride, pad, dilate, groups)
        self.stride = self.args.stride
        self.pad = self.args.pad
        self.dilate = self.args.dilate
        self.groups = self.args.groups
        self.outsize = None if outsize is None else int_tuple(outsize, ndim, "outsize")

    def _out_dims(self, x, W) -> tuple:
        if self.outsize is not None:
            return self.outsize
        return self.args.deconv_outs(x.shape[2:], W.shape[2:])

    def _check_arrays(self, in_data: tuple) -> None:
        _expect_inputs(in_data, self.ndim, self.groups, transposed=True)
        x, W = in_data[0], in_data[1]
        dims, ksize, a = x.shape[2:], W.shape[2:], self.args
        outs = self._out_dims(x, W)
        if min(outs) <= 0:
            fail(
                "positive output size",
                f"x.shape[2:]={dims}, ksize={ksize}, stride={a.stride}, pad={a.pad}, "
                f"dilate={a.dilate} give output size {outs}",
            )
        if self.outsize is not None:
            low, high = a.conv_outs(outs, ksize, False), a.conv_outs(outs, ksize, True)
            if not all(lo <= d <= hi for lo, d, hi in zip(low, dims, high)):
                fail(
                    "the convolution of an input of size outsize has the size of x: "
                    f"{low} <= x.shape[2:] <= {high}",
                    f"x.shape[2:] == {dims} (outsize={outs}, ksize={ksize}, "
                    f"stride={a.stride}, pad={a.pad}, dilate={a.dilate})",
                )

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        x, W = inputs[0], inputs[1]
        b = inputs[2] if len(inputs) == 3 else None
        a = self.args
        dims = self._out_dims(x, W)
        return (_conv_kernels.conv_transpose(x, W, b, a.stride, a.pad, a.dilate, a.groups, dims),)

    def forward_chainerx(self, inputs: tuple):
        if not _same_dtype(inputs):
            return Fallback
        import chainerx

        outsize = self._out_dims(inputs[0], inputs[1])

        def conv_transpose(x, W, b):
            return chainerx.conv_transpose(x, W, b, self.stride, self.pad, outsize)

        return (_chainerx_conv(conv_transpose, inputs, self.args),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x, W = self.get_retained_inputs()
        gy = grad_outputs[0]
        a = self.args
        ret = []
        if 0 in indexes:
            cover_all = a.covers_all(gy.shape[2:], W.shape[2:], x.shape[2:])
            conv = ConvolutionND(self.ndim, a.stride, a.pad, cover_all, a.dilate, a.groups)
            ret.append(conv.apply((gy, W))[0])
        if 1 in indexes:
            grad_w = ConvolutionNDGradW(self, W.shape, W.dtype)
            ret.append(grad_w.apply((gy, x))[0])
        if 2 in indexes:
            ret.append(_sum(gy, axis=(0, *range(2, gy.ndim))))
        return tuple(ret)
