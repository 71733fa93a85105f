"""M-SVAG: momentum SGD whose per-element step shrinks where the gradient's sign is noisy.

Balles and Hennig, *Dissecting Adam: The Sign, Magnitude and Variance of Stochastic
Gradients* (2018). With ``t`` the update count and bias-corrected moments
``mt = m / (1 - beta**t)``, ``vt = v / (1 - beta**t)``::

    rho = (1 - beta) * (1 + beta**t) / ((1 + beta) * (1 - beta**t))
    s = (vt - mt**2) / (1 - rho)                # variance estimate
    factor = mt**2 / (mt**2 + rho * s)          # clipped to [0, 1]
    param -= eta * (lr * factor * mt + weight_decay_rate * param)

At ``t == 1`` ``rho`` is 1 and there is no variance estimate yet: as in Chainer v7 the
variance is taken as 0, so the factor is 1 and the first step is a plain momentum step. Where
``mt`` is 0 the factor is 0 (its denominator is 0 only where its numerator is).
"""

from __future__ import annotations

import math

import numpy

from chainer.backends import cuda
from chainer.optimizer import GradientMethod, Hyperparameter, HyperparameterProxy
from chainer.optimizers._elementwise import (
    ElementwiseRule,
    KernelCall,
    chainerx_kernel_for,
    default_hyperparam,
    gpu_compute_types,
    set_hyperparams,
    update_moments,
    update_moments_chainerx,
)

_default_hyperparam = default_hyperparam(lr=0.1, beta=0.9, eta=1.0, weight_decay_rate=0)


def _msvag_kernel(param, grad, m, v, factor, denominator, scratch, beta, rho, fix, lr, decay):
    update_moments(grad, m, v, scratch, 1 - beta, 1 - beta)
    if rho >= 1:  # the first step: no variance estimate, the factor is 1
        numpy.multiply(m, lr / fix, out=factor)
        if decay != 1:
            param *= decay
        param -= factor
        return
    # With mt2 = mt**2, factor = mt2 * (1 - rho) / (mt2 * (1 - 2 rho) + rho * vt): the same
    # ratio without dividing by 1 - rho, which is 0 at t == 1.
    numpy.multiply(m, m, out=factor)
    factor *= 1 / (fix * fix)
    numpy.multiply(v, rho / fix, out=denominator)
    numpy.multiply(factor, 1 - 2 * rho, out=scratch)
    denominator += scratch
    factor *= 1 - rho
    with numpy.errstate(divide="ignore", invalid="ignore"):
        factor /= denominator
    # fmax drops the NaN of 0 / 0 (no variance estimate yet): the factor is 0 there.
    numpy.fmax(factor, 0, out=factor)
    numpy.fmin(factor, 1, out=factor)
    factor *= m
    factor *= lr / fix
    if decay != 1:
        param *= decay
    param -= factor


@chainerx_kernel_for(_msvag_kernel)
def _msvag_chainerx(param, grad, m, v, beta, rho, fix, lr, decay):
    import chainerx

    update_moments_chainerx(grad, m, v, 1 - beta, 1 - beta)
    if rho >= 1:  # the first step: no variance estimate, the factor is 1
        step = m * (lr / fix)
    else:
        squared_mean = m * m * (1 / (fix * fix))
        denominator = v * (rho / fix) + squared_mean * (1 - 2 * rho)
        factor = squared_mean * (1 - rho) / denominator
        # where() drops the NaN of 0 / 0 as fmax does on NumPy: the factor is 0 there.
        factor = chainerx.minimum(chainerx.where(factor > 0, factor, 0), 1)
        step = factor * m * (lr / fix)
    if decay != 1:
        param *= decay
    param -= step


class MSVAGRule(ElementwiseRule):
    """Update rule of M-SVAG (see the module docstring for the formula).

    The state holds the running moments ``m`` and ``v``.

    Args:
        parent_hyperparam: Hyperparameters to fall back to (the optimizer's).
        lr, beta, eta, weight_decay_rate: Values for this parameter only (see :class:`MSVAG`).
    """

    def __init__(
        self,
        parent_hyperparam: Hyperparameter | None = None,
        lr: float | None = None,
        beta: float | None = None,
        eta: float | None = None,
        weight_decay_rate: float | None = None,
    ) -> None:
        super().__init__(
            parent_hyperparam,
            _default_hyperparam,
            lr=lr,
            beta=beta,
            eta=eta,
            weight_decay_rate=weight_decay_rate,
        )

    def init_state(self, param) -> None:
        self.state["m"] = param.xp.zeros_like(param.array)
        self.state["v"] = param.xp.zeros_like(param.array)

    @property
    def rho(self) -> float:
        """The variance-adaptation constant ``rho(beta, t)`` at the current update count."""
        if self.t == 0:
            raise RuntimeError(
                "cannot determine rho of M-SVAG before its first update (t == 0): "
                "it depends on the number of updates done"
            )
        beta = self._read_hyperparam().beta
        power = math.pow(beta, self.t)
        return (1 - beta) * (1 + power) / ((1 + beta) * (1 - power))

    def _kernel_call(self) -> KernelCall:
        hp = self._read_hyperparam()
        scalars = (
            hp.beta,
            self.rho,
            1 - math.pow(hp.beta, self.t),
            hp.eta * hp.lr,
            1 - hp.eta * hp.weight_decay_rate,
        )
        return _msvag_kernel, ("m", "v"), 3, scalars

    def update_core_gpu(self, param) -> None:
        hp = self.hyperparam
        compute, types = gpu_compute_types(param.dtype)
        scalars = (hp.lr, 1 - hp.beta, 1 / (1 - math.pow(hp.beta, self.t)), self.rho)
        scalars += (hp.eta, hp.weight_decay_rate)
        cuda.elementwise(
            "T grad, {P} lr, {P} one_minus_beta, {P} inv_fix, {P} rho, {P} eta, "
            "{P} weight_decay_rate".format(**types),
            "T param, T m, T v",
            """
            {C} g = grad;
            {C} mm = ({C})m + one_minus_beta * (g - ({C})m);
            {C} vv = ({C})v + one_minus_beta * (g * g - ({C})v);
            m = mm;
            v = vv;
            {C} mt = mm * inv_fix;
            {C} mt2 = mt * mt;
            {C} denominator = mt2 * (1 - 2 * rho) + rho * vv * inv_fix;
            {C} factor = rho >= ({C})1 ? ({C})1
                : denominator == ({C})0 ? ({C})0 : mt2 * (1 - rho) / denominator;
            factor = min(({C})1, max(({C})0, factor));
            param = ({C})param - eta * (lr * factor * mt + weight_decay_rate * ({C})param);
            """.format(**types),
            "msvag_update",
        )(param.grad, *map(compute, scalars), param.array, self.state["m"], self.state["v"])


class MSVAG(GradientMethod):
    """M-SVAG optimizer.

    Args:
        lr: Learning rate.
        beta: Exponential decay rate of the first and second moments.
        eta: Schedule multiplier, applied to the step and to the weight decay alike.
        weight_decay_rate: Decoupled weight decay.
    """

    lr = HyperparameterProxy("lr")
    beta = HyperparameterProxy("beta")
    eta = HyperparameterProxy("eta")
    weight_decay_rate = HyperparameterProxy("weight_decay_rate")

    def __init__(
        self,
        lr: float = _default_hyperparam.lr,
        beta: float = _default_hyperparam.beta,
        eta: float = _default_hyperparam.eta,
        weight_decay_rate: float = _default_hyperparam.weight_decay_rate,
    ) -> None:
        super().__init__()
        set_hyperparams(
            self.hyperparam,
            "MSVAG",
            lr=lr,
            beta=beta,
            eta=eta,
            weight_decay_rate=weight_decay_rate,
        )

    def create_update_rule(self) -> MSVAGRule:
        return MSVAGRule(self.hyperparam)
