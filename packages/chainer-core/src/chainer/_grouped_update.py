"""Grouped ("foreach") parameter updates: one driver call for many parameters of one kind.

``GradientMethod.update`` updates every parameter through :func:`update_params`. A rule that
runs UpdateRule's update machinery (not overridden by its class or the instance), on a
parameter that runs Parameter's, may return a *group key* from ``UpdateRule._group_key``
where its update is plain enough for a grouped driver; parameters with equal keys are updated
by one call of the driver (the first item of the key), which computes the
hyperparameter-derived scalars once and skips the per-parameter dispatch. The driver must
leave parameters, states and ``t`` exactly as ``param.update()`` would. Every other parameter
is updated by ``param.update()`` in its place in the order, after the pending groups are
flushed, so the effects any hook can observe happen in the same order as without grouping.
"""

from __future__ import annotations

from collections.abc import Iterable

from chainer._update_rule import UpdateRule
from chainer.variable import Parameter

# UpdateRule's machinery between ``param.update()`` and ``update_core_cpu``.
_BASE_METHODS = ("update", "_prepare", "_run_hooks_and_core", "update_core")
# What a driver replaces or calls once for a whole group: set on one rule, it sends that rule
# down the per-parameter path.
_INSTANCE_OVERRIDES = frozenset(
    (*_BASE_METHODS, "update_core_cpu", "update_core_chainerx", "_kernel_call")
)


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


def _runs_parameter_machinery(cls: type[Parameter]) -> bool:
    # ``update`` and ``grad`` as Parameter has them: the key may read the gradient directly.
    return cls.update is Parameter.update and cls.grad is Parameter.grad


def _runs_base_machinery(cls: type) -> bool:
    # Also false for what is no UpdateRule at all, such as a mock.
    return all(getattr(cls, name, None) is getattr(UpdateRule, name) for name in _BASE_METHODS)


def _flush(pending: dict[tuple, list[Parameter]]) -> None:
    for key, group in pending.items():
        key[0](group)
    pending.clear()
