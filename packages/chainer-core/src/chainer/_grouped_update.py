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

from collections.abc import Hashable, Iterable

import numpy

from chainer._update_rule import UpdateRule
from chainer.variable import Parameter

_BASE_METHODS = ("_prepare", "_run_hooks_and_core", "update_core")


def update_params(params: Iterable[Parameter]) -> None:
    """Update each parameter with its rule, grouping the parameters whose rules allow it."""
    pending: dict[Hashable, list[Parameter]] = {}
    for param in params:
        rule = param.update_rule
        if _runs_base_update(rule, param):
            if rule is None or not rule.enabled:
                continue  # the update would do nothing
            key = None if param.grad is None else rule._group_key(param)
            if key is not None:
                pending.setdefault(key, []).append(param)
                continue
        if pending:
            _flush(pending)
        param.update()
    if pending:
        _flush(pending)


def _runs_base_update(rule, param: Parameter) -> bool:
    # ``param.update()`` is Parameter's, calling UpdateRule's ``rule.update(param)`` if any
    # (no override, no mock).
    if type(param).update is not Parameter.update or "update" in param.__dict__:
        return False
    return rule is None or (
        getattr(type(rule), "update", None) is UpdateRule.update and "update" not in rule.__dict__
    )


def _flush(pending: dict[Hashable, list[Parameter]]) -> None:
    for key, group in pending.items():
        key[0](group)
    pending.clear()


def runs_plain_cpu_update(rule: UpdateRule, param: Parameter) -> bool:
    """Whether ``rule.update(param)`` would only unscale, prepare and run ``update_core_cpu``.

    That is (``rule.update`` itself being UpdateRule's, checked by :func:`update_params`): no
    hooks, no float32 master copy, the base class's update machinery (neither the class nor
    the instance overrides it), and NumPy arrays for the parameter, its gradient and every
    state entry.
    """
    if rule._pre_update_hooks or rule._post_update_hooks:
        return False
    if rule._use_fp32_update and param.dtype == numpy.float16:
        return False
    if type(param._array) is not numpy.ndarray or type(param.grad) is not numpy.ndarray:
        return False
    cls = type(rule)
    own = rule.__dict__
    for name in _BASE_METHODS:
        if getattr(cls, name) is not getattr(UpdateRule, name) or name in own:
            return False
    if "update_core_cpu" in own:
        return False
    state = rule._state
    if state is not None:
        for value in state.values():
            if type(value) is not numpy.ndarray:
                return False
    return True
