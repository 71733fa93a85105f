"""Gradients of ``forward_chainerx`` computed by ChainerX's own autograd.

A :class:`~chainer.FunctionNode` whose ``forward_chainerx`` computes its outputs (rather than
returning ``chainer.Fallback``) is differentiated here, whether or not it has a ``backward`` of
its own (that one serves the NumPy/CuPy ``forward``): its forward runs on
fresh ChainerX graph leaves, and its backward is another such node, whose forward recomputes
the function and asks ChainerX for the vector-Jacobian product. Both are recorded in Chainer's
graph like any node, so gradients of every order work.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from chainer.function_node import FunctionNode

if TYPE_CHECKING:  # chainerx is optional: imported where arrays of it are at hand
    import chainerx


def _leaf(array: chainerx.ndarray) -> chainerx.ndarray:
    """A view of ``array`` that starts a new graph if it can carry gradients (floats)."""
    view = array.as_grad_stopped()
    return view.require_grad() if view.dtype.kind == "f" else view


class _VectorJacobianProduct(FunctionNode):
    """Inputs ``xs + gys``; outputs the gradients of ``forward(xs)`` for inputs ``indexes``."""

    def __init__(self, forward: Callable[[tuple], tuple], n_inputs: int, indexes: Sequence[int]):
        self._forward = forward
        self._n_inputs = n_inputs
        self._indexes = tuple(indexes)

    def forward_chainerx(self, arrays: tuple) -> tuple:
        import chainerx

        # Inputs in a graph: this node is being recorded, so its outputs must be differentiable.
        recorded = any(a.is_grad_required() for a in arrays)
        leaves = [a if a.is_grad_required() else _leaf(a) for a in arrays]
        xs, gys = tuple(leaves[: self._n_inputs]), leaves[self._n_inputs :]
        ys = self._forward(xs)
        used = [(y, gy) for y, gy in zip(ys, gys, strict=True) if y.is_grad_required()]
        targets = [xs[i] for i in self._indexes]
        grads = [None] * len(targets)
        if used:
            grads = chainerx.grad(
                [y for y, _ in used],
                targets,
                enable_double_backprop=recorded,
                grad_outputs=[gy for _, gy in used],
            )
        return tuple(
            chainerx.zeros_like(x) if g is None else g for g, x in zip(grads, targets, strict=True)
        )


def record_forward(node: FunctionNode, in_data: tuple):
    """Run ``node.forward_chainerx`` on graph leaves and keep what backward needs on the node.

    Returns the outputs (out of ChainerX's graph), or what ``forward_chainerx`` returned if
    that is not a tuple (``chainer.Fallback``).
    """
    outputs = node.forward_chainerx(tuple(_leaf(x) for x in in_data))
    if not isinstance(outputs, tuple):
        return outputs
    node._chainerx_outputs = tuple((y.shape, y.dtype, y.device) for y in outputs)
    node.retain_inputs(tuple(range(len(in_data))))
    # The node's own backward (if any) differentiates its NumPy forward, not this one.
    node.backward = functools.partial(backward, node)
    node._overrides_backward_accumulate = False
    return tuple(y.as_grad_stopped() for y in outputs)


def backward(node: FunctionNode, target_input_indexes: tuple, grad_outputs: tuple) -> tuple:
    """The gradients of ``node``'s inputs, computed by a node of Chainer's graph."""
    import chainerx

    gys = tuple(
        chainerx.zeros(shape, dtype, device) if gy is None else gy
        for gy, (shape, dtype, device) in zip(grad_outputs, node._chainerx_outputs, strict=True)
    )
    xs = node.get_retained_inputs()
    vjp = _VectorJacobianProduct(node.forward_chainerx, len(xs), target_input_indexes)
    return vjp.apply(xs + gys)
