"""Optimizer bases: ``Hyperparameter``, ``UpdateRule``, ``Optimizer`` and ``GradientMethod``.

A :class:`GradientMethod` gives every parameter of its target link an :class:`UpdateRule` (made
by :meth:`GradientMethod.create_update_rule`); ``Parameter.update()`` then runs that rule. Each
rule's :class:`Hyperparameter` falls back to the optimizer's, so setting ``optimizer.lr`` changes
every rule that does not override it. Concrete optimizers (``chainer.optimizers``) ship in the
chainer-training distribution.

Example:
    >>> class SGDRule(UpdateRule):
    ...     def update_core_cpu(self, param):
    ...         param.array -= self.hyperparam.lr * param.grad
    >>> class SGD(GradientMethod):
    ...     lr = HyperparameterProxy('lr')
    ...     def __init__(self, lr=0.01):
    ...         super().__init__()
    ...         self.hyperparam.lr = lr
    ...     def create_update_rule(self):
    ...         return SGDRule(self.hyperparam)
    >>> model = L.Linear(2, 1, initialW=numpy.ones((1, 2), numpy.float32))
    >>> optimizer = SGD(lr=0.1).setup(model)
    >>> def lossfun(x, t):
    ...     return F.mean_squared_error(model(x), t)
    >>> x, t = numpy.ones((1, 2), numpy.float32), numpy.zeros((1, 1), numpy.float32)
    >>> optimizer.update(lossfun, x, t)  # cleargrads, forward, backward, update
    >>> model.W.array  # the loss (W @ x - t) ** 2 = 4 had the gradient 4 for each weight
    array([[0.6, 0.6]], dtype=float32)
"""

from __future__ import annotations

import functools
import math
import numbers
import warnings
from collections.abc import Callable, Iterable
from typing import Any, cast

import numpy

from chainer._grouped_update import update_params
from chainer._update_rule import (
    Hyperparameter,
    HyperparameterProxy,
    UpdateRule,
    _register_hook,
    _unregister_hook,
)
from chainer.variable import Parameter

__all__ = [
    "GradientMethod",
    "Hyperparameter",
    "HyperparameterProxy",
    "Optimizer",
    "UpdateRule",
]

# The largest float16 value: a larger loss scale overflows any float16 loss of magnitude >= 1.
_LOSS_SCALE_MAX = 65504.0


class Optimizer:
    """Base class of all numerical optimizers.

    Call :meth:`setup` with the link to optimize, then :meth:`update` once per step.

    Attributes:
        target: The link being optimized (``None`` before :meth:`setup`).
        t (int): Number of update steps done.
        epoch (int): Current epoch, advanced by :meth:`new_epoch`.
        use_auto_new_epoch (bool): Set by updaters that call ``new_epoch(auto=True)`` at each
            epoch end; calling ``new_epoch()`` by hand is then an error.
    """

    target: Any = None  # a Link, or anything with params() and namedparams()
    t = 0
    epoch = 0
    use_auto_new_epoch = False
    # Created by setup(); every method that uses them checks that setup() ran.
    _pre_update_hooks: dict[str, Callable] = None  # type: ignore[assignment]
    _post_update_hooks: dict[str, Callable] = None  # type: ignore[assignment]
    _loss_scale: float | None = None
    _loss_scaling_is_dynamic = False
    _loss_scaling_isnan = False
    _loss_scaling_isnan_ever = False
    _loss_scaling_multiplier = 2.0

    def setup(self, link) -> Optimizer:
        """Make ``link`` the target, reset ``t``, ``epoch`` and the hooks, and return ``self``."""
        if not (
            callable(getattr(link, "params", None))
            and callable(getattr(link, "namedparams", None))
        ):
            raise TypeError(
                "optimization target must be a link (something with params() and namedparams()),"
                f" got {type(link).__name__}"
            )
        self.target = link
        self.t = 0
        self.epoch = 0
        self._pre_update_hooks = {}
        self._post_update_hooks = {}
        return self

    def _check_set_up(self, method: str) -> None:
        if self.target is None:
            raise RuntimeError(
                f"{type(self).__name__}.{method}() needs a target: "
                "call optimizer.setup(link) first"
            )

    def update(self, lossfun: Callable | None = None, *args, **kwds) -> None:
        """Do one update step; ``lossfun(*args, **kwds)``, if given, computes the loss first."""
        raise NotImplementedError(f"{type(self).__name__} does not implement update")

    def new_epoch(self, auto: bool = False) -> None:
        """Advance :attr:`epoch` by one.

        Args:
            auto: ``True`` when an updater calls it; must equal :attr:`use_auto_new_epoch`, so an
                epoch is never counted both by hand and by the updater.
        """
        if self.use_auto_new_epoch and not auto:
            raise RuntimeError(
                "new_epoch() was called by hand, but an updater counts this optimizer's epochs "
                "(use_auto_new_epoch is True): remove the call, or create the updater with "
                "auto_new_epoch=False"
            )
        if auto and not self.use_auto_new_epoch:
            raise RuntimeError(
                "new_epoch(auto=True) is for updaters, and this optimizer's use_auto_new_epoch "
                "is False: set it to True or call new_epoch() without auto"
            )
        self.epoch += 1

    def add_hook(self, hook: Callable, name: str | None = None, timing: str = "auto") -> None:
        """Register ``hook(optimizer)``, called before or after each update step.

        A hook whose ``call_for_each_param`` attribute is true is called as
        ``hook(update_rule, param)`` for every parameter instead (gradient methods).

        Args:
            hook: The callable.
            name: Its name; defaults to ``hook.name``, then ``hook.__name__``.
            timing: ``'pre'`` (after gradients are computed, before the update), ``'post'``
                (after the update), or ``'auto'`` (``hook.timing`` if present, else ``'pre'``).
        """
        self._check_set_up("add_hook")
        _register_hook(self._pre_update_hooks, self._post_update_hooks, hook, name, timing)

    def remove_hook(self, name: str) -> None:
        """Remove the hook registered as ``name`` (:class:`KeyError` if there is none)."""
        self._check_set_up("remove_hook")
        _unregister_hook(self._pre_update_hooks, self._post_update_hooks, name)

    def call_hooks(self, timing: str = "pre") -> None:
        """Call the hooks of ``timing`` (``'pre'`` or ``'post'``) in registration order."""
        if timing not in ("pre", "post"):
            raise ValueError(f"timing must be 'pre' or 'post', got {timing!r}")
        self._check_set_up("call_hooks")
        hooks = self._pre_update_hooks if timing == "pre" else self._post_update_hooks
        for hook in tuple(hooks.values()):
            self.call_hook(hook)

    def call_hook(self, hook: Callable) -> None:
        """Call one optimizer hook: ``hook(self)``, or, when ``hook.call_for_each_param`` is
        true, ``hook(update_rule, param)`` for each initialized parameter (its rule may be
        ``None``, as in v7)."""
        if getattr(hook, "call_for_each_param", False):
            for param in self.target.params(include_uninit=False):
                hook(getattr(param, "update_rule", None), param)
        else:
            hook(self)

    def serialize(self, serializer) -> None:
        """Save or load ``t``, ``epoch`` and each parameter's update rule (under its path)."""
        self._check_set_up("serialize")
        self.t = serializer("t", self.t)
        self.epoch = serializer("epoch", self.epoch)
        for name, param in self.target.namedparams():
            rule = getattr(param, "update_rule", None)
            if rule is not None:
                rule.serialize(serializer[name])

    # -- loss scaling (mixed precision) ------------------------------------------------------

    def loss_scaling(self, interval: int = 1000, scale: float | None = None) -> None:
        """Turn on loss scaling: the loss is multiplied before backprop, gradients divided after.

        Args:
            interval: Dynamic scaling only: after an overflow has been seen, the scale doubles
                over this many successful steps (it grows by ``2 ** (1 / interval)`` per step;
                before the first overflow it doubles every step, starting from 1).
            scale: A fixed scale (static scaling); ``None`` selects dynamic scaling, where a
                step whose gradients hold inf or NaN is skipped and the scale is halved.
        """
        if scale is None:
            if (
                isinstance(interval, bool)
                or not isinstance(interval, numbers.Integral)
                or int(interval) < 1
            ):
                raise ValueError(f"interval must be an integer >= 1, got {interval!r}")
            self._loss_scaling_is_dynamic = True
            self._loss_scale = 1.0
            self._loss_scaling_multiplier = math.pow(2.0, 1.0 / interval)
            self._loss_scaling_isnan_ever = False
        else:
            self._set_static_loss_scale(scale)

    def set_loss_scale(self, loss_scale: float | None) -> None:
        """Use a fixed loss scale, or turn loss scaling off with ``None``."""
        if loss_scale is None:
            self._loss_scale = None
            self._loss_scaling_is_dynamic = False
        else:
            self._set_static_loss_scale(loss_scale)

    def _set_static_loss_scale(self, scale) -> None:
        if isinstance(scale, bool) or not isinstance(scale, numbers.Real) or not float(scale) > 0:
            raise ValueError(f"loss scale must be a positive number, got {scale!r}")
        self._loss_scale = float(scale)
        self._loss_scaling_is_dynamic = False

    def check_nan_in_grads(self) -> bool:
        """Return whether any gradient holds inf or NaN, and remember it for this step."""
        self._check_set_up("check_nan_in_grads")
        found = False
        for param in self.target.params(include_uninit=False):
            grad = param.grad
            if grad is not None and not bool(param.xp.isfinite(grad).all()):
                found = True
                break
        self._loss_scaling_isnan = found
        self._loss_scaling_isnan_ever |= found
        return found

    def is_safe_to_update(self) -> bool:
        """Whether the last :meth:`check_nan_in_grads` found only finite gradients."""
        return not self._loss_scaling_isnan

    def update_loss_scale(self) -> None:
        """Adjust a dynamic loss scale after a step (halve after an overflow, else grow)."""
        if not self._loss_scaling_is_dynamic:
            return
        if self._loss_scaling_isnan:
            multiplier = 0.5
        elif self._loss_scaling_isnan_ever:
            multiplier = self._loss_scaling_multiplier
        else:
            multiplier = 2.0
        self._loss_scale = min(
            max(cast(float, self._loss_scale) * multiplier, 1.0), _LOSS_SCALE_MAX
        )


class GradientMethod(Optimizer):
    """Base class of optimizers that update each parameter from its own gradient.

    Subclasses implement :meth:`create_update_rule`; :meth:`setup` gives every parameter of
    the target one rule, whose hyperparameters fall back to ``hyperparam``.
    """

    _use_cleargrads = True

    def __init__(self) -> None:
        self.hyperparam = Hyperparameter()
        self._use_fp32_update = False

    def setup(self, link) -> GradientMethod:
        """Set up the target and give each of its parameters a new update rule."""
        super().setup(link)
        for param in link.params():
            rule = self.create_update_rule()
            if self._use_fp32_update:
                rule.use_fp32_update()
            param.update_rule = rule
        return self

    def create_update_rule(self) -> UpdateRule:
        """Return a new update rule for one parameter (pass it ``hyperparam``)."""
        raise NotImplementedError(f"{type(self).__name__} does not implement create_update_rule")

    def reallocate_cleared_grads(self) -> None:
        """Give every initialized parameter whose gradient is ``None`` a zero gradient."""
        self._check_set_up("reallocate_cleared_grads")
        _reallocate_cleared_grads(self.target.params(include_uninit=False))

    def call_hook(self, hook: Callable) -> None:
        """Call one hook (as :meth:`Optimizer.call_hook`), then refill cleared gradients."""
        super().call_hook(hook)
        # A hook may clear gradients; the next hook and the rules expect arrays.
        self.reallocate_cleared_grads()

    def use_cleargrads(self, use: bool = True) -> None:
        """Deprecated: choose ``cleargrads()`` (default) or ``zerograds()`` in :meth:`update`."""
        warnings.warn(
            "GradientMethod.use_cleargrads is deprecated: update() calls cleargrads() already",
            DeprecationWarning,
            stacklevel=2,
        )
        self._use_cleargrads = use

    def use_fp32_update(self, flag: bool = True) -> None:
        """Update float16 parameters through float32 master copies (see ``UpdateRule``)."""
        self._use_fp32_update = flag
        if self.target is not None:
            for param in self.target.params():
                if param.update_rule is not None:
                    param.update_rule.use_fp32_update(flag)

    def update(self, lossfun: Callable | None = None, *args, **kwds) -> None:
        """Do one step: optional loss and backprop, pre hooks, every rule, post hooks.

        With ``lossfun``, the gradients are cleared, ``lossfun(*args, **kwds)`` is computed and
        backpropagated (multiplied by the loss scale, if any). Without it the gradients already
        in the parameters are used. Under dynamic loss scaling a step whose gradients hold inf
        or NaN updates nothing (``t`` stays) and only halves the scale.
        """
        self._check_set_up("update")
        if lossfun is not None:
            loss = lossfun(*args, **kwds)
            if self._use_cleargrads:
                self.target.cleargrads()
            else:
                self.target.zerograds()
            loss.backward(loss_scale=self._loss_scale)
            del loss  # free the graph before the update allocates

        if self._pre_update_hooks or self._post_update_hooks or not self._plain_step():
            self._update_with_hooks()
            return
        # No hook runs between the walks of the general path: one walk serves them all, and
        # the refill after the update is needed only where a rule's own code ran.
        params = list(self.target.params(include_uninit=False))
        _reallocate_cleared_grads(params)
        self.t += 1
        if not update_params(params):
            self.reallocate_cleared_grads()

    def _plain_step(self) -> bool:
        # The methods a step calls are GradientMethod's own, and no dynamic loss scaling.
        cls = type(self)
        return (
            not self._loss_scaling_is_dynamic
            and cls.reallocate_cleared_grads is GradientMethod.reallocate_cleared_grads
            and cls.call_hooks is Optimizer.call_hooks
            and cls.update_loss_scale is Optimizer.update_loss_scale
        )

    def _update_with_hooks(self) -> None:
        self.reallocate_cleared_grads()
        if self._loss_scaling_is_dynamic and self.check_nan_in_grads():
            self.update_loss_scale()
            return
        self.call_hooks("pre")
        self.t += 1
        update_params(self.target.params(include_uninit=False))
        self.reallocate_cleared_grads()
        self.call_hooks("post")
        self.update_loss_scale()


def _reallocate_cleared_grads(params: Iterable[Parameter]) -> None:
    for param in params:
        if type(param) is Parameter and type(param._array) is numpy.ndarray:
            grad_var = param._grad_var  # what ``param.grad`` reads for a NumPy array
            if grad_var is not None and grad_var._array is not None:
                continue
        if param.grad is None:
            with param.device.create_context():
                param.grad = param.xp.zeros_like(param.array)


# v7 kept its optimizer hooks in this module too, deprecated (a warning when one is made).
_DEPRECATED_HOOKS = frozenset(
    {"GradientClipping", "GradientHardClipping", "GradientNoise", "Lasso", "WeightDecay"}
)


def __getattr__(name: str):
    if name in _DEPRECATED_HOOKS:
        return _deprecated_hook(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def _deprecated_hook(name: str) -> type:
    from chainer import optimizer_hooks

    hook = getattr(optimizer_hooks, name)

    def __init__(self, *args, **kwargs) -> None:
        warnings.warn(
            f"chainer.optimizer.{name} is deprecated (as in Chainer v7); use "
            f"chainer.optimizer_hooks.{name}",
            DeprecationWarning,
            stacklevel=2,
        )
        hook.__init__(self, *args, **kwargs)

    doc = f"Deprecated alias of :class:`chainer.optimizer_hooks.{name}`."
    return type(name, (hook,), {"__init__": __init__, "__module__": __name__, "__doc__": doc})
