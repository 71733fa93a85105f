"""Decorrelated batch normalization: ZCA-whiten groups of channels over the batch."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer._ops.array_ops import cast, reshape, transpose
from chainer._ops.matmul import matmul
from chainer.function_node import FunctionNode
from chainer.functions.normalization import _stats
from chainer.utils import argument, type_check
from chainer.variable import Variable


def _check_groups(x, groups) -> tuple[int, int]:
    """Validate ``groups`` against ``x`` of shape ``(n, c, ...)``; return ``(groups, c // g)``."""
    if not isinstance(groups, (int, numpy.integer)) or groups < 1:
        raise TypeError(f"groups must be a positive int, got {groups!r}")
    if len(x.shape) < 2:
        raise type_check.InvalidType("x.ndim >= 2", f"x.shape == {tuple(x.shape)}")
    channels = x.shape[1]
    if channels % groups:
        raise ValueError(f"the number of channels {channels} is not divisible by groups={groups}")
    return int(groups), channels // groups


def _channel_axes(ndim: int) -> tuple:
    """Permutation that swaps the batch and channel axes (its own inverse)."""
    return (1, 0, *range(2, ndim))


def _to_groups(x, groups: int):
    """``(n, c, ...)`` -> ``(groups, c // groups, n * ...)``: one column per sample and pixel."""
    return x.transpose(_channel_axes(x.ndim)).reshape(groups, x.shape[1] // groups, -1)


def _from_groups(y, shape: tuple):
    swapped = (shape[1], shape[0], *shape[2:])
    return y.reshape(swapped).transpose(_channel_axes(len(shape)))


class DecorrelatedBatchNormalization(FunctionNode):
    """Whiten each channel group with the inverse square root of its covariance (ZCA)."""

    def __init__(self, groups=16, eps=2e-5, mean=None, projection=None, decay=0.9) -> None:
        self.groups = groups
        self.eps = eps
        self.running_mean = mean
        self.running_projection = projection
        self.decay = decay

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        type_check.expect(in_types[0].dtype.kind == "f", in_types[0].ndim >= 2)

    def forward(self, inputs: tuple) -> tuple:
        x = inputs[0]
        xp = backend.get_array_module(x)
        groups, size = _check_groups(x, self.groups)
        # eigh has no float16 version; float32 at least is also the precision needed.
        dtype = _stats.compute_dtype(x.dtype, x.dtype)
        xg = _to_groups(x, groups).astype(dtype)
        m = xg.shape[2]
        mean = xg.mean(axis=2)
        xc = xg - mean[:, :, None]
        cov = xc @ xc.transpose(0, 2, 1) / m + self.eps * xp.eye(size, dtype=dtype)
        eigvals, eigvecs = xp.linalg.eigh(cov)
        sqrt_eig = xp.sqrt(eigvals)
        projection = (eigvecs / sqrt_eig[:, None, :]) @ eigvecs.transpose(0, 2, 1)
        self.x_centered, self.eigvecs, self.sqrt_eig = xc, eigvecs, sqrt_eig
        self.projection = projection
        self.shape = x.shape
        self._update_statistics(mean, projection)
        y = projection @ xc
        return (_from_groups(y, x.shape).astype(x.dtype),)

    def _update_statistics(self, mean, projection) -> None:
        for name, running, value in (
            ("running_mean", self.running_mean, mean),
            ("running_projection", self.running_projection, projection),
        ):
            if running is None:
                continue
            if running.shape != value.shape:
                raise ValueError(f"{name} must have shape {value.shape}, got {running.shape}")
            running *= self.decay
            running += (1 - self.decay) * value

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return DecorrelatedBatchNormalizationGrad(self).apply(grad_outputs)


class DecorrelatedBatchNormalizationGrad(FunctionNode):
    """Gradient of the whitening, through the eigendecomposition of the covariance."""

    def __init__(self, forward_node: DecorrelatedBatchNormalization) -> None:
        self.node = forward_node

    def forward(self, inputs: tuple) -> tuple:
        gy = inputs[0]
        node = self.node
        xc, eigvecs, s, projection = (
            node.x_centered,
            node.eigvecs,
            node.sqrt_eig,
            node.projection,
        )
        groups = xc.shape[0]
        m = xc.shape[2]
        gy_g = _to_groups(gy, groups).astype(xc.dtype)
        # y = W xc with W = f(cov), f(l) = l ** -0.5 applied to the eigenvalues. For a
        # spectral function the adjoint is U (F * (U^T gW U)) U^T with
        # F_ij = (f(l_i) - f(l_j)) / (l_i - l_j) = -1 / (s_i s_j (s_i + s_j)), s = sqrt(l).
        g_proj = gy_g @ xc.transpose(0, 2, 1)
        ut = eigvecs.transpose(0, 2, 1)
        ratio = -1.0 / (s[:, :, None] * s[:, None, :] * (s[:, :, None] + s[:, None, :]))
        g_cov = eigvecs @ (ratio * (ut @ g_proj @ eigvecs)) @ ut
        g_xc = projection @ gy_g + (g_cov + g_cov.transpose(0, 2, 1)) @ xc / m
        g_xc -= g_xc.mean(axis=2, keepdims=True)
        return (_from_groups(g_xc, node.shape).astype(gy.dtype),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        raise NotImplementedError(
            "decorrelated_batch_normalization does not support double backpropagation"
        )


def decorrelated_batch_normalization(x, **kwargs) -> Variable:
    """Decorrelated batch normalization function.

    The channels are split into ``groups`` groups of ``C = c // groups`` channels; each group
    is centered and ZCA-whitened with the statistics of the batch:
    :math:`y = \\Sigma^{-1/2} (x - \\mu)` with :math:`\\Sigma` the ``C x C`` covariance over
    the batch and spatial axes plus ``eps * I``. Only first-order gradients are available.

    Args:
        x: Input of floating-point dtype and shape ``(n, c, ...)``.
        groups (int): Number of channel groups (default 16); must divide ``c``.
        eps (float): Added to the covariance's diagonal (default ``2e-5``).
        running_mean (array): If given, of shape ``(groups, C)``, updated in place:
            ``running_mean = decay * running_mean + (1 - decay) * mean``.
        running_projection (array): If given, of shape ``(groups, C, C)``, updated in place
            likewise with the whitening matrices.
        decay (float): Decay rate of the running statistics (default ``0.9``).

    Returns:
        A variable of the shape and dtype of ``x``.

    Example:
        >>> x = numpy.random.randn(64, 4).astype(numpy.float32)
        >>> y = F.decorrelated_batch_normalization(x, groups=1).array
        >>> bool(numpy.allclose(y.T @ y / 64, numpy.eye(4), atol=1e-3))
        True
    """
    groups, eps, running_mean, running_projection, decay = argument.parse_kwargs(
        kwargs,
        ("groups", 16),
        ("eps", 2e-5),
        ("running_mean", None),
        ("running_projection", None),
        ("decay", 0.9),
    )
    _check_groups(x, groups)
    node = DecorrelatedBatchNormalization(groups, eps, running_mean, running_projection, decay)
    return node.apply((x,))[0]


def fixed_decorrelated_batch_normalization(x, mean, projection, groups=16) -> Variable:
    """Decorrelated batch normalization function with fixed statistics.

    Computes :math:`y = P_g (x - \\mu_g)` for every channel group ``g`` (e.g. with the
    running statistics at inference time). Gradients flow to all inputs.

    Args:
        x: Input of floating-point dtype and shape ``(n, c, ...)``.
        mean: Means of shape ``(groups, C)`` with ``C = c // groups``, of a float dtype
            (cast to ``x``'s).
        projection: Whitening matrices of shape ``(groups, C, C)``, likewise.
        groups: Number of channel groups; must divide ``c``.

    Returns:
        A variable of the shape and dtype of ``x``.

    Example:
        >>> x = numpy.ones((2, 4), numpy.float32)
        >>> mean = numpy.ones((2, 2), numpy.float32)
        >>> proj = numpy.tile(numpy.eye(2, dtype=numpy.float32), (2, 1, 1))
        >>> F.fixed_decorrelated_batch_normalization(x, mean, proj, groups=2).array
        array([[0., 0., 0., 0.],
               [0., 0., 0., 0.]], dtype=float32)
    """
    groups, size = _check_groups(x, groups)
    statistics = []
    for name, value, shape in (
        ("mean", mean, (groups, size)),
        ("projection", projection, (groups, size, size)),
    ):
        if tuple(value.shape) != shape or value.dtype.kind != "f":
            raise type_check.InvalidType(
                f"{name}.shape == {shape} and {name}.dtype.kind == f",
                f"{name}.shape == {tuple(value.shape)}, {name}.dtype == {value.dtype}",
            )
        statistics.append(value if value.dtype == x.dtype else cast(value, x.dtype))
    mean, projection = statistics
    shape = tuple(x.shape)
    axes = _channel_axes(len(shape))
    xg = reshape(transpose(x, axes), (groups, size, -1))
    yg = matmul(projection, xg - reshape(mean, (groups, size, 1)))
    return transpose(reshape(yg, (shape[1], shape[0], *shape[2:])), axes)
