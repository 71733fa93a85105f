"""Batch normalization, with the batch's statistics or with fixed ones."""

from __future__ import annotations

import warnings

import numpy

from chainer import backend
from chainer._ops.array_ops import broadcast_to, cast, reshape
from chainer._ops.array_ops import sum as _sum
from chainer.function_node import Fallback, FunctionNode
from chainer.functions.normalization import _stats
from chainer.utils import argument
from chainer.variable import Variable


class BatchNormalization(FunctionNode):
    """Normalize ``x`` with the mean and variance over the reduced axes, then scale and shift.

    ``running_mean`` / ``running_var`` (arrays or None) are updated in place with the batch's
    statistics: ``running = decay * running + (1 - decay) * batch`` (the variance unbiased).
    """

    def __init__(self, eps=2e-5, mean=None, var=None, decay=0.9, axis=None) -> None:
        self.running_mean = mean
        self.running_var = var
        self.eps = eps
        self.decay = decay
        self.axis = axis
        self.mean = None
        self.inv_std = None
        self._statistics_updated = False

    def check_type_forward(self, in_types) -> None:
        _stats.check_params(in_types, ("x", "gamma", "beta"), self.axis)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        x, gamma, beta = inputs
        xp = backend.get_array_module(x)
        self.axes = axes = _stats.reduced_axes(x.ndim, gamma.ndim, self.axis)
        _warn_if_one_sample(x, gamma, axes)
        expand = _stats.keepdims_shape(x.shape, axes)
        dtype = _stats.compute_dtype(x.dtype, gamma.dtype)
        mean = x.mean(axis=axes, dtype=dtype)
        var = x.var(axis=axes, dtype=dtype)
        self.mean = mean
        self.inv_std = inv_std = xp.reciprocal(xp.sqrt(var + dtype.type(self.eps)))
        scale = gamma * inv_std
        shift = beta - mean * scale
        y = x * scale.reshape(expand)
        y += shift.reshape(expand)
        self._update_statistics(mean, var, x.size // max(gamma.size, 1))
        return (y.astype(x.dtype, copy=False),)

    def forward_chainerx(self, inputs: tuple):
        x, gamma, beta = inputs
        running = (self.running_mean, self.running_var)
        if any(r is not None and not isinstance(r, type(x)) for r in running):
            return Fallback  # statistics outside ChainerX are updated by the NumPy forward
        import chainerx

        axes = _stats.reduced_axes(x.ndim, gamma.ndim, self.axis)
        _warn_if_one_sample(x, gamma, axes)
        for name, r in zip(("running_mean", "running_var"), running):
            if r is not None:
                _check_statistic(name, r, gamma.shape)
        # As the NumPy forward: statistics in the compute dtype, the output in x's dtype.
        dtype = _stats.compute_dtype(x.dtype, gamma.dtype)
        if self._statistics_updated:
            # A recomputation of this forward (for a backward): the statistics took this batch.
            running = (None, None)
        self._statistics_updated = True
        stats = [
            chainerx.zeros(gamma.shape, dtype, x.device) if r is None else r.astype(dtype)
            for r in running
        ]
        x_c, gamma_c, beta_c = (a.astype(dtype, copy=False) for a in inputs)
        y = chainerx.batch_norm(x_c, gamma_c, beta_c, *stats, self.eps, self.decay, axes)
        for r, updated in zip(running, stats):
            if r is not None:
                r[...] = updated
        return (y.astype(x.dtype, copy=False),)

    def _update_statistics(self, mean, var, m: int) -> None:
        decay = self.decay
        if self.running_mean is not None:
            _check_statistic("running_mean", self.running_mean, mean.shape)
            self.running_mean *= decay
            self.running_mean += (1 - decay) * mean
        if self.running_var is not None:
            _check_statistic("running_var", self.running_var, var.shape)
            # The running variance estimates the population's: use the unbiased estimate.
            adjust = m / max(m - 1.0, 1.0)
            self.running_var *= decay
            self.running_var += (1 - decay) * adjust * var

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x, gamma = self.get_retained_inputs()
        grad = BatchNormalizationGrad(self.axes, self.mean, self.inv_std)
        return grad.apply((x, gamma, grad_outputs[0]))


def _warn_if_one_sample(x, gamma, axes: tuple) -> None:
    if x.size <= gamma.size:
        warnings.warn(
            "A batch with no more than one sample has been given. F.batch_normalization "
            "requires more than one sample in the training mode to compute the batch "
            f"statistics (x.shape={x.shape}, reduced axes {axes}).",
            UserWarning,
            stacklevel=4,
        )


def _check_statistic(name: str, array, shape: tuple) -> None:
    if array.shape != shape:
        raise ValueError(f"{name} must have the shape of gamma {shape}, got {array.shape}")


class BatchNormalizationGrad(FunctionNode):
    """Gradients ``(gx, ggamma, gbeta)`` of batch normalization from ``(x, gamma, gy)``.

    With ``x_hat = (x - mean) * inv_std`` and ``m`` elements per statistic:
    ``gbeta = sum(gy)``, ``ggamma = sum(gy * x_hat)`` and
    ``gx = gamma * inv_std * (gy - (gbeta + x_hat * ggamma) / m)``.
    """

    def __init__(self, axes: tuple, mean, inv_std) -> None:
        self.axes = axes
        self.mean = mean
        self.inv_std = inv_std

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1, 2))
        x, gamma, gy = inputs
        axes = self.axes
        expand = _stats.keepdims_shape(x.shape, axes)
        dtype = self.inv_std.dtype
        x_hat = x - self.mean.reshape(expand)
        x_hat *= self.inv_std.reshape(expand)
        gbeta = gy.sum(axis=axes, dtype=dtype)
        ggamma = (gy * x_hat).sum(axis=axes, dtype=dtype)
        m = x.size // max(gamma.size, 1)
        coeff = gamma * self.inv_std
        gx = gy * coeff.reshape(expand)
        # gx = coeff * gy - x_hat * (coeff * ggamma / m) - coeff * gbeta / m, per channel.
        x_hat *= (coeff * ggamma / m).reshape(expand)
        gx -= x_hat
        gx -= (coeff * gbeta / m).reshape(expand)
        return (
            gx.astype(x.dtype, copy=False),
            ggamma.astype(gamma.dtype, copy=False),
            gbeta.astype(gamma.dtype, copy=False),
        )

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        # The batch statistics enter as constants here: exact second derivatives, while third
        # ones would miss the statistics' own dependence on x.
        x, gamma, gy = self.get_retained_inputs()
        ggx, gggamma, ggbeta = grad_outputs
        dtype = x.dtype
        axes = self.axes
        expand = _stats.keepdims_shape(x.shape, axes)
        m = x.size // max(gamma.size, 1)
        inv_std = self.inv_std.reshape(expand).astype(dtype)
        x_hat = ((x.array - self.mean.reshape(expand)) * inv_std).astype(dtype)
        gamma_x = reshape(cast(gamma, dtype), expand)

        def total(v):
            return _sum(v, axis=axes, keepdims=True)

        def normalized_grad(v):
            # Vector-Jacobian product of x_hat(x) with v (the Jacobian is symmetric).
            return inv_std * (v - total(v) / m - x_hat * (total(v * x_hat) / m))

        def per_channel(v):
            return None if v is None else reshape(cast(v, dtype), expand)

        a, b, c = ggx, per_channel(gggamma), per_channel(ggbeta)
        g_x = g_gamma = g_gy = None
        if a is not None:
            dgy = normalized_grad(gy)
            da = normalized_grad(a)
            q = total(a * x_hat)
            sum_gy_xhat = total(gy * x_hat)
            spread = total(gy * (a - total(a) / m))
            g_x = -(inv_std * inv_std * x_hat / m) * gamma_x * (spread - sum_gy_xhat * q / m)
            g_x = g_x - (inv_std * gamma_x / m) * (q * dgy + sum_gy_xhat * da)
            g_gamma = total(gy * da)
            g_gy = gamma_x * da
        if b is not None:
            g_x = _accumulate(g_x, b * normalized_grad(gy))
            g_gy = _accumulate(g_gy, b * x_hat)
        if c is not None:
            g_gy = _accumulate(g_gy, c)
        if g_gy is not None and g_gy.shape != x.shape:
            g_gy = broadcast_to(g_gy, x.shape)
        if g_gamma is not None:
            g_gamma = cast(reshape(g_gamma, gamma.shape), gamma.dtype)
        return g_x, g_gamma, g_gy


def _accumulate(total, term):
    return term if total is None else total + term


class FixedBatchNormalization(FunctionNode):
    """Normalize ``x`` with given statistics ``(mean, var)``; every input is differentiable."""

    def __init__(self, eps=2e-5, axis=None) -> None:
        self.eps = eps
        self.axis = axis

    def check_type_forward(self, in_types) -> None:
        # As in Chainer v7, beta and the statistics may differ from gamma's float dtype (their
        # gradients keep each one's own dtype).
        _stats.check_params(
            in_types, ("x", "gamma", "beta", "mean", "var"), self.axis, same_param_dtype=False
        )

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1, 3, 4))
        x, gamma, beta, mean, var = inputs
        xp = backend.get_array_module(x)
        self.param_dtypes = (gamma.dtype, beta.dtype, mean.dtype, var.dtype)
        self.axes = _stats.reduced_axes(x.ndim, gamma.ndim, self.axis)
        expand = _stats.keepdims_shape(x.shape, self.axes)
        inv_std = xp.reciprocal(xp.sqrt(var + var.dtype.type(self.eps)))
        scale = gamma * inv_std
        shift = beta - mean * scale
        y = x * scale.reshape(expand)
        y += shift.reshape(expand)
        return (y.astype(x.dtype, copy=False),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        x = inputs[0]
        axes = _stats.reduced_axes(x.ndim, inputs[1].ndim, self.axis)
        # As the NumPy forward: computed in the promoted dtype, the output in x's dtype.
        dtype = numpy.result_type(*(a.dtype for a in inputs))
        same = tuple(a.astype(dtype, copy=False) for a in inputs)
        y = chainerx.fixed_batch_norm(*same, self.eps, axes)
        return (y.astype(x.dtype, copy=False),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x, gamma, mean, var = self.get_retained_inputs()
        gy = grad_outputs[0]
        dtype = x.dtype
        axes = self.axes
        expand = _stats.keepdims_shape(x.shape, axes)

        def channel(v):
            return reshape(cast(v, dtype), expand)

        def to_param(v, index):
            return cast(reshape(v, gamma.shape), self.param_dtypes[index - 1])

        dtype_of_gamma = self.param_dtypes[0]
        inv_std = cast((var + var.dtype.type(self.eps)) ** -0.5, dtype_of_gamma)
        scale = gamma * inv_std
        ret = []
        sum_gy = sum_gy_xhat = None
        for i in indexes:
            if i == 0:
                ret.append(gy * channel(scale))
            elif i in (1, 4):
                if sum_gy_xhat is None:
                    x_hat = (x - channel(mean)) * channel(inv_std)
                    sum_gy_xhat = to_param(_sum(gy * x_hat, axis=axes), 1)
                g = sum_gy_xhat if i == 1 else -0.5 * scale * inv_std * sum_gy_xhat
                ret.append(to_param(g, i))
            else:
                if sum_gy is None:
                    sum_gy = reshape(_sum(gy, axis=axes), gamma.shape)  # in x's dtype
                ret.append(to_param(sum_gy if i == 2 else -scale * to_param(sum_gy, 1), i))
        return tuple(ret)


def batch_normalization(x, gamma, beta, **kwargs) -> Variable:
    """Batch normalization function.

    Normalizes ``x`` with the mean and variance of the batch over the reduced axes, then
    scales by ``gamma`` and shifts by ``beta``:
    :math:`y = \\gamma (x - \\mu) / \\sqrt{\\sigma^2 + \\epsilon} + \\beta`. The batch
    statistics are used whatever ``chainer.config.train`` says; use
    :func:`fixed_batch_normalization` for inference with running statistics.

    Args:
        x: Input of floating-point dtype, e.g. ``(n, c)`` or ``(n, c, h, w)``.
        gamma: Scale, of the shape of ``x`` without the reduced axes (e.g. ``(c,)``).
        beta: Shift, of the shape and dtype of ``gamma``.
        eps (float): Added to the variance for stability (default ``2e-5``).
        running_mean (array): If given, updated in place:
            ``running_mean = decay * running_mean + (1 - decay) * mean``.
        running_var (array): If given, updated in place likewise with the unbiased variance.
        decay (float): Decay rate of the running statistics (default ``0.9``).
        axis (int or tuple of int): Axes to reduce over, in ascending order. By default the
            batch axis and every axis after those of ``gamma``: ``(0, 2, 3)`` for images
            with ``gamma`` of shape ``(c,)``.

    Returns:
        A variable of the shape and dtype of ``x``.

    Raises:
        ValueError: ``train`` is given (use ``chainer.using_config('train', ...)``), or
            ``axis`` is out of range or not ascending.
        TypeError: An unknown keyword argument is given.

    Example:
        >>> x = numpy.array([[1.0], [3.0]], numpy.float32)
        >>> gamma, beta = numpy.ones(1, numpy.float32), numpy.zeros(1, numpy.float32)
        >>> F.batch_normalization(x, gamma, beta).array.round(3)
        array([[-1.],
               [ 1.]], dtype=float32)
    """
    eps, running_mean, running_var, decay, axis = argument.parse_kwargs(
        kwargs,
        ("eps", 2e-5),
        ("running_mean", None),
        ("running_var", None),
        ("decay", 0.9),
        ("axis", None),
        train="train argument is not supported anymore. Use chainer.using_config",
    )
    node = BatchNormalization(eps, running_mean, running_var, decay, axis)
    return node.apply((x, gamma, beta))[0]


def fixed_batch_normalization(x, gamma, beta, mean, var, eps=2e-5, axis=None) -> Variable:
    """Batch normalization function with fixed statistics.

    Computes :math:`y = \\gamma (x - \\mu) / \\sqrt{\\sigma^2 + \\epsilon} + \\beta` with the
    given mean and variance (e.g. running averages at inference time). Gradients flow to every
    input, the statistics included.

    Args:
        x: Input of floating-point dtype.
        gamma: Scale, of the shape of ``x`` without the reduced axes.
        beta: Shift.
        mean: Mean to subtract.
        var: Variance to divide by (after adding ``eps``).
        eps: Added to ``var`` for stability.
        axis: Axes that the statistics were computed over; see :func:`batch_normalization`.

    Returns:
        A variable of the shape and dtype of ``x``.

    Example:
        >>> x = numpy.array([[1.0, 2.0]], numpy.float32)
        >>> one, zero = numpy.ones(2, numpy.float32), numpy.zeros(2, numpy.float32)
        >>> F.fixed_batch_normalization(x, one, zero, zero, one, eps=0).array
        array([[1., 2.]], dtype=float32)
    """
    return FixedBatchNormalization(eps, axis).apply((x, gamma, beta, mean, var))[0]
