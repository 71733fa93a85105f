"""Grouped updates of ChainerX parameters: one driver call for the parameters of one group.

The per-parameter path of a ChainerX parameter goes through ``UpdateRule.update``, ``_prepare``
(the device of every state entry), ``update_core`` (the device dispatch) and
``ElementwiseRule.update_core_chainerx`` (the kernel and its scalars) before it runs the
ChainerX twin of the CPU kernel. :func:`chainerx_group_key` checks once per step what that
path would find, and :func:`update_group` computes the kernel and its scalars once for the
group and runs the twin on each parameter with exactly the arrays and scalars the
per-parameter path gives it, so the results are the same.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

import numpy

from chainer._update_rule import UpdateRule

#: ChainerX twins of CPU kernels, keyed by the CPU kernel (``chainerx_kernel_for``).
CHAINERX_KERNELS: dict[Callable[..., None], Callable[..., None]] = {}
#: Dtypes updated by a ChainerX twin; float16 runs the CPU kernel, which computes in float32.
CHAINERX_KERNEL_DTYPES = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))


def chainerx_group_key(rule, param, group_of: Hashable) -> Hashable | None:
    """The group key of a rule updating a ChainerX parameter, or ``None``.

    ``group_of`` identifies the rules whose kernel scalars are equal (class, ``t``,
    hyperparameters); the key adds the device. The caller has checked what does not depend
    on the arrays (the rule's machinery, hyperparameters and hooks). Grouped are parameters
    of a twin's dtype, with a gradient, and every state entry a ChainerX array on the
    parameter's device, the default device (no device context to enter).
    """
    array = param._array
    if not array.is_grad_required() or array.dtype not in CHAINERX_KERNEL_DTYPES:
        return None
    device = array.device
    if array.grad is None or device is not _default_device():
        return None
    state = rule._state
    if state is not None:
        array_type = type(array)
        for value in state.values():
            if type(value) is not array_type or value.device is not device:
                return None
    return (update_group, group_of)


#: ``chainerx.get_default_device``, looked up once a ChainerX parameter is seen.
_get_default_device = None


def _default_device():
    global _get_default_device
    if _get_default_device is None:
        import chainerx  # a ChainerX array is at hand: it is installed

        _get_default_device = chainerx.get_default_device
    return _get_default_device()


def update_group(params: list) -> None:
    """Update ChainerX parameters of one group, as ``param.update()`` would each."""
    rules = [param.update_rule for param in params]
    if len({id(rule) for rule in rules}) != len(rules):
        for param in params:  # listed twice: updated twice, each at its own ``t``
            param.update()
        return
    for rule, param in zip(rules, params):
        rule.t += 1
        param._loss_scale = None  # ChainerX's backward returned unscaled gradients
        if rule._state is None:
            rule._prepare(param)
    cpu_kernel, keys, _, scalars = rules[0]._kernel_call()
    kernel = CHAINERX_KERNELS.get(cpu_kernel)
    if kernel is None:
        for rule, param in zip(rules, params):
            UpdateRule.update_core_chainerx(rule, param)  # the NumPy-view path
        return
    for rule, param in zip(rules, params):
        grad = param._array.grad
        if grad.is_grad_required():
            grad = grad.as_grad_stopped()
        state = rule._state
        # ``param.array`` is the parameter's array out of the graph.
        kernel(param.array, grad, *[state[key] for key in keys], *scalars)
