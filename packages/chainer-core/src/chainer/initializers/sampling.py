"""Initializers that make convolution kernels resample images (linear interpolation)."""

from __future__ import annotations

from typing import Any

import numpy

from chainer.initializer import Initializer
from chainer.initializers._arrays import assign

_INTERPOLATIONS = ("linear",)


def _linear_kernel_1d(size: int) -> numpy.ndarray:
    # The triangle (tent) filter of linear interpolation for a stride of ceil(size / 2): it
    # peaks at the kernel centre and falls by 1 / stride per tap.
    stride = (size + 1) // 2
    centre = stride - 1 if size % 2 == 1 else stride - 0.5
    return 1.0 - numpy.abs(numpy.arange(size) - centre) / stride


class _SamplingFilter(Initializer):
    # Fills each channel's kernel with the separable linear-interpolation filter and leaves
    # all weights between different channels at zero.

    def __init__(self, normalize: bool, interpolation: str, dtype: Any | None) -> None:
        if interpolation not in _INTERPOLATIONS:
            raise ValueError(
                f"interpolation must be one of {', '.join(map(repr, _INTERPOLATIONS))}, "
                f"got {interpolation!r}"
            )
        self._normalize = normalize
        self.interpolation = interpolation
        super().__init__(dtype)

    def __call__(self, array: Any) -> None:
        self._check_dtype(array)
        shape = array.shape
        name = type(self).__name__
        if len(shape) < 3:
            raise ValueError(
                f"{name} initializes convolution kernels (channels, channels, *ksize), "
                f"got shape {shape}"
            )
        channels, per_channel = shape[:2]
        if per_channel not in (channels, 1):
            raise ValueError(
                f"{name} needs kernels of shape (c, c, *ksize) or (c, 1, *ksize) (one filter "
                f"per channel), got shape {shape}"
            )
        kernel = numpy.ones(())
        for size in shape[2:]:
            kernel = numpy.multiply.outer(kernel, _linear_kernel_1d(size))
        if self._normalize and kernel.size:  # an empty kernel has nothing to normalize
            kernel /= kernel.sum()
        weights = numpy.zeros(shape)
        channel = numpy.arange(channels)
        # (c, 1) kernels belong to grouped (depthwise) convolutions: channel i is in group i.
        weights[channel, channel if per_channel == channels else 0] = kernel
        assign(array, weights)


class UpsamplingDeconvFilter(_SamplingFilter):
    """Initializes array with upsampling filter.

    Each channel gets the kernel of linear (bilinear in 2-D) interpolation, which makes a
    :class:`~chainer.links.Deconvolution2D` with ``stride=s``, ``ksize=2 * s - s % 2`` and
    ``pad=ceil((s - 1) / 2)`` upsample every channel by the factor ``s``. The weight shape is
    ``(c, c, k, k)`` (channel ``i`` to channel ``i`` only) or ``(c, 1, k, k)`` for grouped
    deconvolution with ``groups=c``; kernels of any number of spatial axes are supported.

    Args:
        interpolation: Interpolation method; only ``'linear'`` is supported.
        dtype: Dtype the arrays to fill must have (``None`` accepts any).

    Example:
        >>> w = numpy.empty((3, 3, 4, 4), numpy.float32)
        >>> chainer.initializers.UpsamplingDeconvFilter()(w)  # for stride 2
    """

    def __init__(self, interpolation: str = "linear", dtype: Any | None = None) -> None:
        super().__init__(False, interpolation, dtype)


class DownsamplingConvFilter(_SamplingFilter):
    """Initializes array with downsampling filter.

    Each channel gets the linear interpolation kernel of :class:`UpsamplingDeconvFilter`
    normalized to sum to 1, which makes a :class:`~chainer.links.Convolution2D` with
    ``stride=s``, ``ksize=2 * s - s % 2`` and ``pad=ceil((s - 1) / 2)`` an averaging
    downsampler by the factor ``s``. The weight shape is ``(c, c, k, k)`` or ``(c, 1, k, k)``
    for grouped convolution with ``groups=c``.

    Args:
        interpolation: Interpolation method; only ``'linear'`` is supported.
        dtype: Dtype the arrays to fill must have (``None`` accepts any).
    """

    def __init__(self, interpolation: str = "linear", dtype: Any | None = None) -> None:
        super().__init__(True, interpolation, dtype)
