"""v7 compatibility: v7's private module of one backward step, which its tests call directly.

Backprop itself lives in :mod:`chainer._backprop`; these two functions expose one step of it
in v7's shape (gradients gathered per input node in lists).
"""

from __future__ import annotations

from chainer import _backprop
from chainer import _function_hooks_registry as _hooks
from chainer.configuration import config


def backprop_step(
    func, target_input_indexes: tuple, grad_outputs: tuple, grad_inputs: dict, is_debug: bool
) -> None:
    """Run ``func``'s backward and add the gradients into ``grad_inputs`` (input node -> list
    of gradient variables, changed in place). Unless ``lazy_grad_sum`` is configured, each
    list is summed to one entry; ``is_debug`` checks the new gradients for NaN."""
    in_nodes = func.inputs
    targets = [in_nodes[i] for i in target_input_indexes]
    if func._overrides_backward_accumulate:
        gathered = tuple([_reduce(grad_inputs[x]) for x in targets])
        gxs = _backprop._call_backward(func, target_input_indexes, grad_outputs, False, gathered)
        for x, gx in zip(targets, gxs):
            grad_inputs[x][:] = [] if gx is None else [gx]
    else:
        gxs = _backprop._call_backward(func, target_input_indexes, grad_outputs, False)
        for x, gx in zip(targets, gxs):
            if gx is not None:
                grads = grad_inputs[x]
                grads.append(gx)
                if not config.lazy_grad_sum:
                    grads[:] = [_reduce(grads)]
    if is_debug:
        _hooks.check_nan_in_backward(func, gxs, tuple([x.data for x in in_nodes]))


def _reduce(grads: list):
    """The sum of a list of gradient variables (``None`` for an empty list)."""
    return _backprop._sum(grads) if grads else None
