"""Adam and its variants: AdamW (decoupled weight decay), AMSGrad, AdaBound and AMSBound.

One rule covers all of them. With ``t`` the update count::

    m = beta1 * m + (1 - beta1) * grad
    v = beta2 * v + (1 - beta2) * grad**2
    vhat = max(vhat, v) if amsgrad else v
    alpha_t = alpha * sqrt(1 - beta2**t) / (1 - beta1**t)
    step = alpha_t / (sqrt(vhat) + eps)
    step = clip(step, lower(t), upper(t)) if adabound
    param -= eta * (step * m + weight_decay_rate * param)

AdaBound's bounds close in on ``final_lr`` as ``t`` grows:
``lower = final_lr * (1 - 1 / (gamma * t + 1))`` and ``upper = final_lr * (1 + 1 / (gamma * t))``,
where ``final_lr`` is scaled by ``alpha / initial_alpha`` so that schedules on ``alpha`` move
the bounds too (``initial_alpha`` is ``alpha`` at the rule's first update).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable

import numpy

from chainer.backends import cuda
from chainer.optimizer import GradientMethod, Hyperparameter, HyperparameterProxy
from chainer.optimizers._elementwise import (
    ElementwiseRule,
    KernelCall,
    chainerx_kernel_for,
    check_eps_fits,
    default_hyperparam,
    gpu_compute_types,
    set_flags,
    set_hyperparams,
    update_moments,
    update_moments_chainerx,
)

_default_hyperparam = default_hyperparam(
    alpha=0.001,
    beta1=0.9,
    beta2=0.999,
    eps=1e-8,
    eta=1.0,
    weight_decay_rate=0,
    amsgrad=False,
    adabound=False,
    final_lr=0.1,
    gamma=1e-3,
)


def _learning_rate(hp: Hyperparameter, t: int) -> float:
    if t == 0:
        raise RuntimeError(
            "cannot determine the learning rate of Adam before its first update (t == 0): "
            "alpha_t depends on the number of updates done"
        )
    return hp.alpha * math.sqrt(1.0 - math.pow(hp.beta2, t)) / (1.0 - math.pow(hp.beta1, t))


def _apply_step(param, m, second_moment, scratch, eps, alpha_t, eta, decay, bounds):
    numpy.sqrt(second_moment, out=scratch)
    scratch += eps
    numpy.divide(alpha_t, scratch, out=scratch)
    if bounds is not None:
        numpy.clip(scratch, *bounds, out=scratch)
    scratch *= m
    _apply_scaled(param, scratch, eta, decay)


def _apply_scaled(param, step, eta, decay):
    # In-place operators only: shared by the NumPy and the ChainerX kernels.
    if eta != 1:
        step *= eta
    if decay != 1:
        param *= decay
    param -= step


def _adam_kernel(param, grad, m, v, scratch, c1, c2, eps, alpha_t, eta, decay, bounds):
    update_moments(grad, m, v, scratch, c1, c2)
    _apply_step(param, m, v, scratch, eps, alpha_t, eta, decay, bounds)


def _amsgrad_kernel(param, grad, m, v, vhat, scratch, c1, c2, eps, alpha_t, eta, decay, bounds):
    update_moments(grad, m, v, scratch, c1, c2)
    numpy.maximum(vhat, v, out=vhat)
    _apply_step(param, m, vhat, scratch, eps, alpha_t, eta, decay, bounds)


def _apply_step_chainerx(param, m, second_moment, eps, alpha_t, eta, decay, bounds):
    import chainerx

    step = alpha_t / (chainerx.sqrt(second_moment) + eps)
    if bounds is not None:
        step = chainerx.clip(step, *bounds)
    step *= m
    _apply_scaled(param, step, eta, decay)


@chainerx_kernel_for(_adam_kernel)
def _adam_chainerx(param, grad, m, v, c1, c2, eps, alpha_t, eta, decay, bounds):
    update_moments_chainerx(grad, m, v, c1, c2)
    _apply_step_chainerx(param, m, v, eps, alpha_t, eta, decay, bounds)


@chainerx_kernel_for(_amsgrad_kernel)
def _amsgrad_chainerx(param, grad, m, v, vhat, c1, c2, eps, alpha_t, eta, decay, bounds):
    import chainerx

    update_moments_chainerx(grad, m, v, c1, c2)
    chainerx.copyto(vhat, chainerx.maximum(vhat, v))
    _apply_step_chainerx(param, m, vhat, eps, alpha_t, eta, decay, bounds)


class AdamRule(ElementwiseRule):
    """Update rule of Adam and its variants (see the module docstring for the formula).

    The state holds ``m``, ``v`` and, with ``amsgrad``, ``vhat``.

    Args:
        parent_hyperparam: Hyperparameters to fall back to (the optimizer's).
        alpha, beta1, beta2, eps, eta, weight_decay_rate, amsgrad, adabound, final_lr,
            gamma: Values for this parameter only (see :class:`Adam`).
    """

    def __init__(
        self,
        parent_hyperparam: Hyperparameter | None = None,
        alpha: float | None = None,
        beta1: float | None = None,
        beta2: float | None = None,
        eps: float | None = None,
        eta: float | None = None,
        weight_decay_rate: float | None = None,
        amsgrad: bool | None = None,
        adabound: bool | None = None,
        final_lr: float | None = None,
        gamma: float | None = None,
    ) -> None:
        super().__init__(
            parent_hyperparam,
            _default_hyperparam,
            alpha=alpha,
            beta1=beta1,
            beta2=beta2,
            eps=eps,
            eta=eta,
            weight_decay_rate=weight_decay_rate,
            amsgrad=amsgrad,
            adabound=adabound,
            final_lr=final_lr,
            gamma=gamma,
        )
        #: ``alpha`` at the first AdaBound update; the bounds scale with ``alpha`` over it.
        self.initial_alpha: float | None = None

    def init_state(self, param) -> None:
        xp = param.xp
        self.state["m"] = xp.zeros_like(param.array)
        self.state["v"] = xp.zeros_like(param.array)
        if self.hyperparam.amsgrad:
            self.state["vhat"] = xp.zeros_like(param.array)

    @property
    def alpha_t(self) -> float:
        """The bias-corrected step size ``alpha * sqrt(1 - beta2**t) / (1 - beta1**t)``."""
        return _learning_rate(self._read_hyperparam(), self.t)

    @property
    def lr(self) -> float:
        """Deprecated alias of :attr:`alpha_t`."""
        warnings.warn(
            "AdamRule.lr is deprecated: use AdamRule.alpha_t", DeprecationWarning, stacklevel=2
        )
        return self.alpha_t

    def _bounds(self) -> tuple[float, float] | None:
        hp = self._read_hyperparam()
        if not hp.adabound:
            return None
        if self.initial_alpha is None:
            self.initial_alpha = hp.alpha
        final_lr = hp.final_lr * hp.alpha / self.initial_alpha
        lower = final_lr * (1.0 - 1.0 / (hp.gamma * self.t + 1))
        upper = final_lr * (1.0 + 1.0 / (hp.gamma * self.t))
        return lower, upper

    def _group_key(self, param) -> Hashable | None:
        # AdaBound remembers each rule's own ``initial_alpha``: only the per-parameter path.
        return None if self._read_hyperparam().adabound else super()._group_key(param)

    def _kernel_call(self) -> KernelCall:
        hp = self._read_hyperparam()
        if hp.amsgrad:
            kernel, keys = _amsgrad_kernel, ("m", "v", "vhat")
        else:
            kernel, keys = _adam_kernel, ("m", "v")
        scalars = (
            1 - hp.beta1,
            1 - hp.beta2,
            hp.eps,
            self.alpha_t,
            hp.eta,
            1 - hp.eta * hp.weight_decay_rate,
            self._bounds(),
        )
        return kernel, keys, 1, scalars

    def update_core_gpu(self, param) -> None:
        hp = self.hyperparam
        compute, types = gpu_compute_types(param.dtype)
        check_eps_fits(type(self).__name__, compute, hp.eps)
        bounds = self._bounds()
        clip = "step = min(upper, max(lower, step));" if bounds is not None else ""
        c = types["C"]
        amsgrad = f"{c} vh = max(({c})vhat, vv); vhat = vh;" if hp.amsgrad else ""
        body = f"""
            {c} g = grad;
            {c} mm = ({c})m + one_minus_beta1 * (g - ({c})m);
            {c} vv = ({c})v + one_minus_beta2 * (g * g - ({c})v);
            m = mm;
            v = vv;
            {amsgrad}
            {c} step = alpha_t / (sqrt({"vh" if hp.amsgrad else "vv"}) + eps);
            {clip}
            param = ({c})param - eta * (step * mm + weight_decay_rate * ({c})param);
        """
        outputs = "T param, T m, T v" + (", T vhat" if hp.amsgrad else "")
        state = [self.state["m"], self.state["v"]]
        if hp.amsgrad:
            state.append(self.state["vhat"])
        lower, upper = bounds if bounds is not None else (0.0, 0.0)
        scalars = (self.alpha_t, 1 - hp.beta1, 1 - hp.beta2, hp.eps, hp.eta)
        scalars += (hp.weight_decay_rate, lower, upper)
        cuda.elementwise(
            "T grad, {P} alpha_t, {P} one_minus_beta1, {P} one_minus_beta2, {P} eps, {P} eta, "
            "{P} weight_decay_rate, {P} lower, {P} upper".format(**types),
            outputs,
            body,
            f"adam_update{'_amsgrad' if hp.amsgrad else ''}{'_adabound' if bounds else ''}",
        )(param.grad, *map(compute, scalars), param.array, *state)


class Adam(GradientMethod):
    """Adam optimizer (Kingma and Ba, 2015) with the options of its later variants.

    Args:
        alpha: Coefficient of the step size.
        beta1: Exponential decay rate of the first moment.
        beta2: Exponential decay rate of the second moment.
        eps: Small value for numerical stability.
        eta: Schedule multiplier, applied to the step and to the weight decay alike.
        weight_decay_rate: Decoupled weight decay (AdamW; Loshchilov and Hutter, 2019).
        amsgrad: Use the running maximum of the second moment (AMSGrad; Reddi et al., 2018).
        adabound: Clip the step into bounds converging to ``final_lr`` (AdaBound; Luo et
            al., 2019).
        final_lr: AdaBound's final SGD learning rate.
        gamma: AdaBound's convergence speed of the bounds.
    """

    alpha = HyperparameterProxy("alpha")
    beta1 = HyperparameterProxy("beta1")
    beta2 = HyperparameterProxy("beta2")
    eps = HyperparameterProxy("eps")
    eta = HyperparameterProxy("eta")
    weight_decay_rate = HyperparameterProxy("weight_decay_rate")
    amsgrad = HyperparameterProxy("amsgrad")
    adabound = HyperparameterProxy("adabound")
    final_lr = HyperparameterProxy("final_lr")
    gamma = HyperparameterProxy("gamma")

    def __init__(
        self,
        alpha: float = _default_hyperparam.alpha,
        beta1: float = _default_hyperparam.beta1,
        beta2: float = _default_hyperparam.beta2,
        eps: float = _default_hyperparam.eps,
        eta: float = _default_hyperparam.eta,
        weight_decay_rate: float = _default_hyperparam.weight_decay_rate,
        amsgrad: bool = _default_hyperparam.amsgrad,
        adabound: bool = _default_hyperparam.adabound,
        final_lr: float = _default_hyperparam.final_lr,
        gamma: float = _default_hyperparam.gamma,
    ) -> None:
        super().__init__()
        owner = type(self).__name__
        set_hyperparams(
            self.hyperparam,
            owner,
            alpha=alpha,
            beta1=beta1,
            beta2=beta2,
            eps=eps,
            eta=eta,
            weight_decay_rate=weight_decay_rate,
            final_lr=final_lr,
            gamma=gamma,
        )
        set_flags(self.hyperparam, owner, amsgrad=amsgrad, adabound=adabound)

    def create_update_rule(self) -> AdamRule:
        return AdamRule(self.hyperparam)

    @property
    def alpha_t(self) -> float:
        """The bias-corrected step size at the optimizer's current ``t``."""
        return _learning_rate(self.hyperparam, self.t)

    @property
    def lr(self) -> float:
        """Deprecated alias of :attr:`alpha_t`."""
        warnings.warn("Adam.lr is deprecated: use Adam.alpha_t", DeprecationWarning, stacklevel=2)
        return self.alpha_t


class AdamW(Adam):
    """AdamW optimizer: :class:`Adam` with decoupled weight decay.

    Args:
        alpha, beta1, beta2, eps, eta, weight_decay_rate: See :class:`Adam`.
    """

    def __init__(
        self,
        alpha: float = _default_hyperparam.alpha,
        beta1: float = _default_hyperparam.beta1,
        beta2: float = _default_hyperparam.beta2,
        eps: float = _default_hyperparam.eps,
        eta: float = _default_hyperparam.eta,
        weight_decay_rate: float = _default_hyperparam.weight_decay_rate,
    ) -> None:
        super().__init__(alpha, beta1, beta2, eps, eta, weight_decay_rate)


class AMSGrad(Adam):
    """AMSGrad optimizer: :class:`Adam` with ``amsgrad=True``.

    Args:
        alpha, beta1, beta2, eps, eta: See :class:`Adam`.
    """

    def __init__(
        self,
        alpha: float = _default_hyperparam.alpha,
        beta1: float = _default_hyperparam.beta1,
        beta2: float = _default_hyperparam.beta2,
        eps: float = _default_hyperparam.eps,
        eta: float = _default_hyperparam.eta,
    ) -> None:
        super().__init__(alpha, beta1, beta2, eps, eta, amsgrad=True)


class _BoundedAdam(Adam):
    """:class:`Adam` with ``adabound=True``; subclasses set ``amsgrad`` by ``_amsgrad_preset``.

    Args:
        alpha, beta1, beta2, final_lr, gamma, eps, eta: See :class:`Adam`.
    """

    _amsgrad_preset = False

    def __init__(
        self,
        alpha: float = _default_hyperparam.alpha,
        beta1: float = _default_hyperparam.beta1,
        beta2: float = _default_hyperparam.beta2,
        final_lr: float = _default_hyperparam.final_lr,
        gamma: float = _default_hyperparam.gamma,
        eps: float = _default_hyperparam.eps,
        eta: float = _default_hyperparam.eta,
    ) -> None:
        super().__init__(
            alpha,
            beta1,
            beta2,
            eps,
            eta,
            amsgrad=self._amsgrad_preset,
            adabound=True,
            final_lr=final_lr,
            gamma=gamma,
        )


class AdaBound(_BoundedAdam):
    """AdaBound optimizer: :class:`Adam` with ``adabound=True``.

    Args:
        alpha, beta1, beta2, final_lr, gamma, eps, eta: See :class:`Adam`.
    """


class AMSBound(_BoundedAdam):
    """AMSBound optimizer: :class:`Adam` with ``amsgrad=True`` and ``adabound=True``.

    Args:
        alpha, beta1, beta2, final_lr, gamma, eps, eta: See :class:`Adam`.
    """

    _amsgrad_preset = True
