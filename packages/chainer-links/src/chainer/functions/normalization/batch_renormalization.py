"""Batch renormalization: batch normalization corrected towards the running statistics."""

from __future__ import annotations

import warnings

from chainer import backend
from chainer._ops.array_ops import cast
from chainer.function_node import Fallback, FunctionNode
from chainer.functions.normalization import _stats
from chainer.functions.normalization.batch_normalization import (
    BatchNormalizationGrad,
    fixed_batch_normalization,
)
from chainer.variable import Variable


class BatchRenormalizationFunction(FunctionNode):
    """``y = gamma * (x_hat * r + d) + beta`` with the batch-normalized ``x_hat``.

    ``r = clip(sigma_batch / sigma_running, 1 / rmax, rmax)`` and
    ``d = clip((mu_batch - mu_running) / sigma_running, -dmax, dmax)`` are treated as
    constants by the gradient, as the method prescribes.
    """

    def __init__(
        self, eps=2e-5, mean=None, var=None, decay=0.9, rmax=1, dmax=0, update_statistics=False
    ) -> None:
        self.eps = eps
        self.running_mean = mean
        self.running_var = var
        self.decay = decay
        self.rmax = rmax
        self.dmax = dmax
        self.update_statistics = update_statistics
        self._statistics_updated = False
        self._statistics_used = None  # ChainerX: the running statistics that r and d took

    def check_type_forward(self, in_types) -> None:
        _stats.check_params(in_types, ("x", "gamma", "beta"), None)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        x, gamma, beta = inputs
        xp = backend.get_array_module(x)
        self.axes = axes = _stats.reduced_axes(x.ndim, gamma.ndim, None)
        expand = _stats.keepdims_shape(x.shape, axes)
        dtype = _stats.compute_dtype(x.dtype, gamma.dtype)
        eps = dtype.type(self.eps)
        mean = x.mean(axis=axes, dtype=dtype)
        var = x.var(axis=axes, dtype=dtype)
        inv_std = xp.reciprocal(xp.sqrt(var + eps))
        # Without running statistics, renormalize towards the standard normal.
        running_mean = xp.zeros_like(mean) if self.running_mean is None else self.running_mean
        running_var = xp.ones_like(var) if self.running_var is None else self.running_var
        running_std = xp.sqrt(running_var + eps)
        self.r = xp.clip(xp.sqrt(var + eps) / running_std, 1.0 / self.rmax, self.rmax)
        self.d = xp.clip((mean - running_mean) / running_std, -self.dmax, self.dmax)
        self.mean = mean
        self.inv_std = inv_std
        scale = gamma * self.r * inv_std
        shift = beta + gamma * self.d - mean * scale
        y = x * scale.reshape(expand)
        y += shift.reshape(expand)
        if self.update_statistics:
            self._update(mean, var, x.size // max(gamma.size, 1))
        return (y.astype(x.dtype, copy=False),)

    def forward_chainerx(self, inputs: tuple):
        x, gamma, beta = inputs
        running = (self.running_mean, self.running_var)
        if any(r is not None and not isinstance(r, type(x)) for r in running):
            return Fallback  # statistics outside ChainerX are updated by the NumPy forward
        import chainerx

        axes = _stats.reduced_axes(x.ndim, gamma.ndim, None)
        expand = _stats.keepdims_shape(x.shape, axes)
        dtype = _stats.compute_dtype(x.dtype, gamma.dtype)
        x_c = x.astype(dtype, copy=False)
        mean, var = x_c.mean(axis=axes), x_c.var(axis=axes)
        std = chainerx.sqrt(var + self.eps)
        # r and d are constants of the gradient (the method's definition): computed from the
        # statistics' values only.
        mean_value, var_value = mean.as_grad_stopped(), var.as_grad_stopped()
        if self._statistics_used is None:
            # Copies: a recomputation of this forward (for a backward) sees them as they were.
            self._statistics_used = tuple(
                chainerx.full(gamma.shape, fill, dtype, x.device) if r is None else r.astype(dtype)
                for r, fill in zip(running, (0, 1))
            )
        running_mean, running_var = self._statistics_used
        running_std = chainerx.sqrt(running_var + self.eps)
        r = chainerx.clip(
            chainerx.sqrt(var_value + self.eps) / running_std, 1 / self.rmax, self.rmax
        )
        d = chainerx.clip((mean_value - running_mean) / running_std, -self.dmax, self.dmax)
        x_hat = (x_c - mean.reshape(expand)) / std.reshape(expand)
        scaled = x_hat * r.reshape(expand) + d.reshape(expand)
        gamma_c, beta_c = (a.astype(dtype, copy=False).reshape(expand) for a in (gamma, beta))
        y = gamma_c * scaled + beta_c
        if self.update_statistics and not self._statistics_updated:
            self._update(mean_value, var_value, x.size // max(gamma.size, 1))
        self._statistics_updated = True  # once: a recomputation adds nothing
        return (y.astype(x.dtype, copy=False),)

    def _update(self, mean, var, m: int) -> None:
        if self.running_mean is None or self.running_var is None:
            raise ValueError("update_statistics=True needs running_mean and running_var arrays")
        self.running_mean *= self.decay
        self.running_mean += ((1 - self.decay) * mean).astype(self.running_mean.dtype)
        self.running_var *= self.decay
        adjust = (1 - self.decay) * (m / max(m - 1.0, 1.0))
        self.running_var += (adjust * var).astype(self.running_var.dtype)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x, gamma = self.get_retained_inputs()
        # With gamma * r as the scale, batch normalization's gradient gives gx directly and
        # sum(gy * x_hat), from which the scale's own gradient follows.
        gamma_r = gamma * self.r.astype(gamma.dtype)
        grad = BatchNormalizationGrad(self.axes, self.mean, self.inv_std)
        gx, sum_gy_xhat, gbeta = grad.apply((x, gamma_r, grad_outputs[0]))
        r = self.r.astype(gamma.dtype)
        d = self.d.astype(gamma.dtype)
        ggamma = sum_gy_xhat * r + gbeta * d
        return gx, cast(ggamma, gamma.dtype), gbeta


def batch_renormalization(
    x,
    gamma,
    beta,
    rmax,
    dmax,
    eps=2e-5,
    running_mean=None,
    running_var=None,
    decay=0.9,
    update_statistics: bool = False,
) -> Variable:
    """Batch renormalization function.

    Batch normalization whose output is corrected towards the running statistics, so that
    training with small or non-i.i.d. batches matches inference with the running statistics:
    :math:`y = \\gamma (\\hat{x} r + d) + \\beta`, where :math:`\\hat{x}` is ``x`` normalized
    with the batch statistics, :math:`r = \\mathrm{clip}(\\sigma_B / \\sigma, 1/r_{max},
    r_{max})` and :math:`d = \\mathrm{clip}((\\mu_B - \\mu) / \\sigma, -d_{max}, d_{max})`
    (:math:`\\mu, \\sigma^2` the running statistics, plus ``eps``). ``r`` and ``d`` are
    constants for the gradient.

    Args:
        x: Input of floating-point dtype, ``(n, c, ...)``.
        gamma: Scale, of shape ``x.shape[1:1 + gamma.ndim]``.
        beta: Shift, like ``gamma``.
        rmax: Upper bound of ``r`` (at least 1).
        dmax: Bound of ``|d|`` (at least 0).
        eps: Added to the variances for stability.
        running_mean: Running mean (array); ``None`` means zeros.
        running_var: Running variance (array); ``None`` means ones.
        decay: Decay rate of the running statistics.
        update_statistics: If True, update ``running_mean`` and ``running_var`` in place as
            :func:`batch_normalization` does.

    Returns:
        A variable of the shape and dtype of ``x``.

    Example:
        >>> x = numpy.array([[1.0], [3.0]], numpy.float32)
        >>> one, zero = numpy.ones(1, numpy.float32), numpy.zeros(1, numpy.float32)
        >>> F.batch_renormalization(x, one, zero, rmax=1, dmax=0).array.round(3)
        array([[-1.],
               [ 1.]], dtype=float32)
    """
    node = BatchRenormalizationFunction(
        eps, running_mean, running_var, decay, rmax, dmax, update_statistics
    )
    return node.apply((x, gamma, beta))[0]


def fixed_batch_renormalization(x, gamma, beta, mean, var, eps=2e-5) -> Variable:
    """Batch renormalization at inference time: :func:`fixed_batch_normalization`.

    With the running statistics in place of the batch ones, ``r = 1`` and ``d = 0``.
    Deprecated, as in Chainer: it warns and calls :func:`fixed_batch_normalization`.
    """
    warnings.warn(
        "fixed_batch_renormalization is deprecated. Use fixed_batch_normalization instead.",
        DeprecationWarning,
        stacklevel=2,
    )
    return fixed_batch_normalization(x, gamma, beta, mean, var, eps)
