"""Importers of Conv, ConvTranspose and Gemm (the layers that hold most parameters)."""

from __future__ import annotations

import chainer.functions as F
from onnx_chainer.importer._registry import NodeContext, importer


def window(ctx: NodeContext, x, kernel: list[int]):
    """Strides, dilations and (begin, end) pads per spatial axis, ``auto_pad`` resolved."""
    n = len(kernel)
    strides = ctx.attr("strides", [1] * n, "ints")
    dilations = ctx.attr("dilations", [1] * n, "ints")
    pads = ctx.attr("pads", [0] * (2 * n), "ints")
    if len(strides) != n or len(dilations) != n or len(pads) != 2 * n:
        raise ctx.error(f"strides/dilations/pads do not match the {n}-d kernel {kernel}")
    auto_pad = ctx.attr("auto_pad", "NOTSET", "str")
    if auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        pads = [0] * (2 * n)
        for i in range(n):
            size, stride = x.shape[2 + i], strides[i]
            extent = (kernel[i] - 1) * dilations[i] + 1
            total = max((-(-size // stride) - 1) * stride + extent - size, 0)
            small, large = total // 2, total - total // 2
            pads[i], pads[i + n] = (small, large) if auto_pad == "SAME_UPPER" else (large, small)
    elif auto_pad == "VALID":
        pads = [0] * (2 * n)
    elif auto_pad != "NOTSET":
        raise ctx.error(
            f"auto_pad {auto_pad!r} is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID"
        )
    if min(strides + dilations, default=1) < 1:
        raise ctx.error(f"strides {strides} and dilations {dilations} must be positive")
    padded = [d + b + e for d, b, e in zip(x.shape[2:], pads[:n], pads[n:])]
    ctx.check_size(list(x.shape[:2]) + padded)
    return strides, dilations, list(zip(pads[:n], pads[n:]))


def pad_spatial(x, pads, value=0.0):
    """``x`` padded explicitly (for begin != end pads); symmetric pads returned as ``pad``."""
    if all(b == e for b, e in pads):
        return x, [b for b, _ in pads]
    return F.pad(x, [(0, 0), (0, 0)] + list(pads), "constant", constant_values=value), [0] * len(
        pads
    )


@importer("Conv")
def conv(ctx: NodeContext):
    x, w, b = ctx.input(0), ctx.input(1), ctx.input(2)
    kernel = ctx.attr("kernel_shape", list(w.shape[2:]), "ints")
    strides, dilations, pads = window(ctx, x, kernel)
    x, pad = pad_spatial(x, pads)
    groups = ctx.attr("group", 1, "int")
    return F.convolution_nd(x, w, b, strides, pad, dilate=dilations, groups=groups)


@importer("ConvTranspose")
def conv_transpose(ctx: NodeContext):
    x, w, b = ctx.input(0), ctx.input(1), ctx.input(2)
    n = x.ndim - 2
    kernel = ctx.attr("kernel_shape", list(w.shape[2:]), "ints")
    strides = ctx.attr("strides", [1] * n, "ints")
    dilations = ctx.attr("dilations", [1] * n, "ints")
    extra = ctx.attr("output_padding", [0] * n, "ints")
    groups = ctx.attr("group", 1, "int")
    full = [
        s * (x.shape[2 + i] - 1) + (kernel[i] - 1) * dilations[i] + 1 + extra[i]
        for i, s in enumerate(strides)
    ]
    if min(strides + dilations, default=1) < 1:
        raise ctx.error(f"strides {strides} and dilations {dilations} must be positive")
    ctx.check_size(list(x.shape[:1]) + [w.shape[1] * groups] + full)
    output_shape = ctx.attr("output_shape", None, "ints")
    auto_pad = ctx.attr("auto_pad", "NOTSET", "str")
    if output_shape is not None or auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        target = (
            output_shape[-n:] if output_shape else [x.shape[2 + i] * strides[i] for i in range(n)]
        )
        pads = []
        for i in range(n):
            total = full[i] - target[i]
            if auto_pad == "SAME_UPPER":
                pads.append((total // 2, total - total // 2))
            else:
                pads.append((total - total // 2, total // 2))
    else:
        flat = ctx.attr("pads", [0] * (2 * n), "ints") if auto_pad == "NOTSET" else [0] * (2 * n)
        pads = list(zip(flat[:n], flat[n:]))
    if any(p < 0 for pair in pads for p in pair):
        raise ctx.error(f"pads {pads} are negative for output size {full}")
    y = F.deconvolution_nd(
        x,
        w,
        None,
        strides,
        0,
        outsize=tuple(f - e for f, e in zip(full, extra)),
        dilate=dilations,
        groups=groups,
    )
    if any(extra):  # output_padding: rows no input reaches (the bias still applies)
        y = F.pad(y, [(0, 0), (0, 0)] + [(0, e) for e in extra], "constant")
    crop = tuple(slice(begin, f - end) for (begin, end), f in zip(pads, full))
    if any(begin or end for begin, end in pads):
        y = F.get_item(y, (slice(None), slice(None)) + crop)
    if b is not None:
        y = y + F.broadcast_to(F.reshape(b, (1, -1) + (1,) * n), y.shape)
    return y


@importer("Gemm")
def gemm(ctx: NodeContext):
    a, b, c = ctx.input(0), ctx.input(1), ctx.input(2)
    trans_a, trans_b = ctx.attr("transA", 0, "int"), ctx.attr("transB", 0, "int")
    alpha, beta = ctx.attr("alpha", 1.0, "float"), ctx.attr("beta", 1.0, "float")
    if not trans_a and trans_b and alpha == 1.0 and beta == 1.0 and (c is None or c.ndim == 1):
        if c is None or c.shape[0] == b.shape[0]:
            return F.linear(a, b, c)
    y = F.matmul(a, b, transa=bool(trans_a), transb=bool(trans_b))
    if alpha != 1.0:
        y = y * alpha
    if c is not None and beta != 0.0:
        c = c * beta if beta != 1.0 else c
        y = y + (F.broadcast_to(c, y.shape) if c.shape != y.shape else c)
    return y
