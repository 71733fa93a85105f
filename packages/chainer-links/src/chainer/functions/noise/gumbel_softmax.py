"""Gumbel-softmax: a differentiable relaxation of sampling from a categorical distribution."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer.backends._chainerx import ChainerxDevice
from chainer.functions.activation.softmax import softmax
from chainer.variable import Variable, as_variable


def gumbel_softmax(log_pi, tau: float = 0.1, axis: int = 1) -> Variable:
    """Gumbel-Softmax sampling function: :math:`y = \\mathrm{softmax}((\\log \\pi + g) / \\tau)`.

    :math:`g` is standard Gumbel noise drawn afresh on each call (Jang et al., 2017); as the
    temperature :math:`\\tau` approaches zero the samples approach one-hot vectors.

    Args:
        log_pi: Unnormalized log-probabilities, floating-point; the categories lie along
            ``axis``.
        tau: The positive temperature :math:`\\tau`.
        axis: The axis of the categories.

    Returns:
        A variable of ``log_pi``'s shape and dtype whose entries along ``axis`` sum to one.
        A 0-d ``log_pi`` has one category, so the result is ``1``.

    Raises:
        ValueError: ``tau`` is not positive.

    Example:
        >>> log_pi = numpy.log(numpy.array([[0.2, 0.8]], numpy.float32))
        >>> y = F.gumbel_softmax(log_pi, tau=0.5)
        >>> round(float(y.array.sum()), 6)
        1.0
    """
    if not tau > 0:
        raise ValueError(f"tau (the temperature) must be positive, got {tau!r}")
    log_pi = as_variable(log_pi)
    device = backend.get_device_from_array(log_pi.array)
    if log_pi.ndim == 0:
        return Variable(device.send(numpy.ones((), log_pi.dtype)), requires_grad=False)
    # ChainerX has no Gumbel sampler: there the noise comes from NumPy's (CuPy's) generator.
    sampler = device.fallback_device if isinstance(device, ChainerxDevice) else device
    noise = device.send(sampler.xp.random.gumbel(size=log_pi.shape).astype(log_pi.dtype))
    return softmax((log_pi + noise) * (1.0 / tau), axis=axis)
