"""Gradient-ready notification: tell listeners the moment a leaf's gradient is final.

A plain ``backward`` sums every leaf's gradient contributions at the very end. While a
listener is registered (:func:`add_grad_ready_hook`), the engine instead counts, before the
walk, how many backward edges reach each leaf; when the last one has run, that leaf's
gradient is accumulated into its ``grad`` at once and every listener is called with the
``Variable``. Leaves whose edges never all run (a branch that got no gradient) are notified
at the end. chainermn uses this to start communicating a gradient bucket while backward is
still running (overlap, as in PyTorch DDP / Horovod).
"""

from __future__ import annotations

from collections.abc import Callable

_hooks: list[Callable] = []


def add_grad_ready_hook(hook: Callable) -> None:
    """Call ``hook(variable)`` whenever backward has finished a leaf variable's gradient."""
    _hooks.append(hook)


def remove_grad_ready_hook(hook: Callable) -> None:
    """Stop calling ``hook`` (a no-op when it was not registered)."""
    if hook in _hooks:
        _hooks.remove(hook)


def active() -> bool:
    return bool(_hooks)


class LeafTracker:
    """Per-backward bookkeeping: edges still to run per leaf node, and who was notified."""

    def __init__(self, roots) -> None:
        self.pending: dict = {}
        seen = set()
        stack = [node.creator_node for node, _ in roots]
        while stack:
            func = stack.pop()
            if func is None or id(func) in seen:
                continue
            seen.add(id(func))
            for x in func.inputs:
                if x.creator_node is None:
                    if x._requires_grad:
                        self.pending[x] = self.pending.get(x, 0) + 1
                else:
                    stack.append(x.creator_node)

    def function_done(self, func, leaf_grads: dict, accumulate) -> None:
        """``func``'s backward ran: finish and announce the leaves it was the last edge of."""
        for x in func.inputs:
            count = self.pending.get(x)
            if count is None:
                continue
            if count > 1:
                self.pending[x] = count - 1
                continue
            del self.pending[x]
            gs = leaf_grads.pop(x, None)
            if gs is not None:
                accumulate(x, gs)
                _notify(x)

    def finish(self, notified_leaves) -> None:
        """At the end of backward: announce the leaves accumulated by the normal path."""
        for x in notified_leaves:
            _notify(x)


def _notify(node) -> None:
    var = node.get_variable_or_none()
    if var is not None:
        for hook in list(_hooks):
            hook(var)
