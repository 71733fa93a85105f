"""Grouped ("foreach") parameter updates: one driver call for many parameters of one kind.

``GradientMethod.update`` updates every parameter through :func:`update_params`. A rule whose
update is plain (see :func:`runs_plain_cpu_update`) and whose class offers a grouped driver
returns a *group key* from ``UpdateRule._group_key``; parameters with equal keys are updated
by one call of the driver (the first item of the key), which computes the hyperparameter-derived
scalars once and skips the per-parameter dispatch. The driver must leave parameters, states and
``t`` exactly as ``param.update()`` would. Every other parameter is updated by
``param.update()`` in its place in the order, after the pending groups are flushed, so the
effects any hook can observe happen in the same order as without grouping.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy

from chainer._update_rule import UpdateRule
from chainer.variable import Parameter

# UpdateRule's machinery between ``param.update()`` and ``update_core_cpu``.
_BASE_METHODS = ("update", "_prepare", "_run_hooks_and_core", "update_core")
_INSTANCE_OVERRIDES = frozenset((*_BASE_METHODS, "update_core_cpu"))


def update_params(params: Iterable[Parameter]) -> bool:
    """Update each parameter with its rule, grouping the parameters whose rules allow it.

    Returns whether every update ran grouped (no ``param.update()``, hence no code of a rule
    or parameter subclass and no hook, was called).
    """
    pending: dict[tuple, list[Parameter]] = {}
    plain_classes: dict[type, bool] = {}  # checked once per call
    only_grouped = True
    for param in params:
        rule = param.update_rule
        key = None
        param_class = type(param)
        plain = plain_classes.get(param_class)
        if plain is None:
            plain = plain_classes[param_class] = _runs_parameter_machinery(param_class)
        if plain and "update" not in param.__dict__:
            if rule is None:
                continue  # Parameter.update does nothing
            cls = type(rule)
            plain = plain_classes.get(cls)
            if plain is None:
                plain = plain_classes[cls] = _runs_base_machinery(cls)
            if plain and _INSTANCE_OVERRIDES.isdisjoint(rule.__dict__):
                if not rule.enabled:
                    continue  # UpdateRule.update does nothing
                key = rule._group_key(param)
        if key is not None:
            pending.setdefault(key, []).append(param)
            continue
        if pending:
            _flush(pending)
        only_grouped = False
        param.update()
    if pending:
        _flush(pending)
    return only_grouped


def _runs_parameter_machinery(cls: type) -> bool:
    # ``update`` and ``grad`` as Parameter has them: the key may read the gradient directly.
    return cls.update is Parameter.update and cls.grad is Parameter.grad


def _runs_base_machinery(cls: type) -> bool:
    # Also false for what is no UpdateRule at all, such as a mock.
    return all(getattr(cls, name, None) is getattr(UpdateRule, name) for name in _BASE_METHODS)


def _flush(pending: dict[tuple, list[Parameter]]) -> None:
    for key, group in pending.items():
        key[0](group)
    pending.clear()


def runs_plain_cpu_update(rule: UpdateRule, param: Parameter) -> bool:
    """Whether ``rule.update(param)`` would only unscale, prepare and run ``update_core_cpu``,
    given that :func:`update_params` found UpdateRule's update machinery (not overridden by
    the class or the instance).

    That is: no hooks, no float32 master copy, and NumPy arrays for the parameter, its
    gradient (``None`` is no gradient: ``update`` would do nothing) and every state entry.
    """
    if rule._pre_update_hooks or rule._post_update_hooks:
        return False
    array = param._array
    if type(array) is not numpy.ndarray:
        return False
    if rule._use_fp32_update and array.dtype == numpy.float16:
        return False
    # ``param.grad`` of a Parameter over a NumPy array.
    grad_var = param._grad_var
    if grad_var is None or type(grad_var._array) is not numpy.ndarray:
        return False
    state = rule._state
    if state is not None:
        for value in state.values():
            if type(value) is not numpy.ndarray:
                return False
    return True
