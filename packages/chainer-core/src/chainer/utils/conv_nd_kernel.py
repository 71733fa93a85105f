"""CUDA kernels of im2col and col2im for any number of spatial axes, run through CuPy.

Each kernel is a CuPy elementwise kernel generated once per number of spatial axes. Its scalar
parameters are the geometry, one ``int32`` per axis and quantity, in the order
``dim_*`` (input size), ``out_*`` (output size), ``ksize_*``, ``stride_*``, ``pad_*``, ``dil_*``.
Nothing here imports CuPy until a kernel runs.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

_GEOMETRY = ("dim", "out", "ksize", "stride", "pad", "dil")

KernelSpec = tuple[str, str, str, str]


def _geometry_params(ndim: int) -> str:
    return ", ".join(f"int32 {quantity}_{a}" for quantity in _GEOMETRY for a in range(ndim))


def _unravel(prefix: str, size: str, ndim: int) -> list[str]:
    """Code that peels one index per axis, fastest (last) axis first, off ``rest``."""
    return [
        f"int {prefix}_{a} = rest % {size}_{a}; rest /= {size}_{a};" for a in reversed(range(ndim))
    ]


def _ravel(base: str, prefix: str, size: str, ndim: int) -> str:
    """The flat index of ``base`` (outer index) followed by one index per axis."""
    index = base
    for a in range(ndim):
        index = f"({index}) * {size}_{a} + {prefix}_{a}"
    return index


@functools.cache
def im2col_kernel(ndim: int) -> KernelSpec:
    """``(in_params, out_params, operation, name)`` of the N-d im2col kernel.

    Inputs: the contiguous image flattened to 1-D (``raw T img``), then the geometry.
    Output: ``col`` of shape ``(n, c, *ksize, *outs)``; taps outside the image read zero.
    """
    lines = ["ptrdiff_t rest = i;"]
    lines += _unravel("o", "out", ndim)
    lines += _unravel("k", "ksize", ndim)
    # What is left of ``rest`` is the flat (sample, channel) index.
    lines += [f"int x_{a} = k_{a} * dil_{a} + o_{a} * stride_{a} - pad_{a};" for a in range(ndim)]
    inside = " && ".join(f"0 <= x_{a} && x_{a} < dim_{a}" for a in range(ndim))
    lines += [
        "T value = 0;",
        f"if ({inside}) value = img[{_ravel('rest', 'x', 'dim', ndim)}];",
        "col = value;",
    ]
    return (
        f"raw T img, {_geometry_params(ndim)}",
        "T col",
        "\n".join(lines),
        f"chainer_im2col_{ndim}d",
    )


@functools.cache
def col2im_kernel(ndim: int) -> KernelSpec:
    """``(in_params, out_params, operation, name)`` of the N-d col2im kernel.

    Inputs: the contiguous columns flattened to 1-D (``raw T col``), then the geometry.
    Output: ``img`` of shape ``(n, c, *dims)``, each pixel the sum of the column entries taken
    from it.
    """
    lines = ["ptrdiff_t rest = i;"]
    lines += _unravel("x", "dim", ndim)
    lines.append("T value = 0;")
    # One loop per axis over the kernel taps that can reach this pixel. The padded offset t
    # shrinks as the tap grows, so the loop ends once it is negative.
    for a in range(ndim):
        lines += [
            f"for (int k_{a} = 0; k_{a} < ksize_{a}; ++k_{a}) {{",
            f"int t_{a} = x_{a} + pad_{a} - k_{a} * dil_{a};",
            f"if (t_{a} < 0) break;",
            f"if (t_{a} % stride_{a} != 0) continue;",
            f"int o_{a} = t_{a} / stride_{a};",
            f"if (o_{a} >= out_{a}) continue;",
        ]
    index = _ravel(_ravel("rest", "k", "ksize", ndim), "o", "out", ndim)
    lines.append(f"value = value + col[{index}];")
    lines += ["}"] * ndim
    lines.append("img = value;")
    return (
        f"raw T col, {_geometry_params(ndim)}",
        "T img",
        "\n".join(lines),
        f"chainer_col2im_{ndim}d",
    )


def im2col(
    img: Any,
    ksize: Sequence[int],
    stride: Sequence[int],
    pad: Sequence[int],
    dilate: Sequence[int],
    outs: Sequence[int],
) -> Any:
    """Run the im2col kernel on a CuPy image batch ``(n, c, *dims)`` with zero padding."""
    from chainer.backends import cuda

    n, c, *dims = img.shape
    col = cuda.cupy.empty((n, c, *ksize, *outs), dtype=img.dtype)
    kernel = cuda.elementwise(*im2col_kernel(len(dims)))
    flat = cuda.cupy.ascontiguousarray(img).reshape(-1)
    kernel(flat, *dims, *outs, *ksize, *stride, *pad, *dilate, col)
    return col


def col2im(
    col: Any,
    stride: Sequence[int],
    pad: Sequence[int],
    dims: Sequence[int],
    dilate: Sequence[int],
) -> Any:
    """Run the col2im kernel on CuPy columns ``(n, c, *ksize, *outs)`` into ``(n, c, *dims)``."""
    from chainer.backends import cuda

    ndim = len(dims)
    n, c = col.shape[:2]
    ksize = col.shape[2 : 2 + ndim]
    outs = col.shape[2 + ndim :]
    img = cuda.cupy.empty((n, c, *dims), dtype=col.dtype)
    kernel = cuda.elementwise(*col2im_kernel(ndim))
    flat = cuda.cupy.ascontiguousarray(col).reshape(-1)
    kernel(flat, *dims, *outs, *ksize, *stride, *pad, *dilate, img)
    return img
