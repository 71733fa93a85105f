"""Gradients of any order for a function node whose backward is fast but not differentiable.

A node can compute its first-order gradient on arrays (fast) and, when the gradient itself is
to be differentiated, hand over to :func:`differentiate`: it recomputes the node's function
from differentiable operations and backpropagates through that. The result is the output of a
:class:`Recompute` node, whose own backward does the same one order higher.
"""

from __future__ import annotations

from collections.abc import Callable

from chainer.function import force_backprop_mode, no_backprop_mode
from chainer.function_node import FunctionNode, grad
from chainer.variable import Variable


class Recompute(FunctionNode):
    """``fn(*inputs)`` evaluated without a graph; differentiated by evaluating it again.

    Args:
        fn: A function of variables, made of differentiable operations, returning a tuple of
            variables.
    """

    def __init__(self, fn: Callable[..., tuple]) -> None:
        self.fn = fn

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs(tuple(range(len(inputs))))
        with no_backprop_mode():
            ys = self.fn(*(Variable(x) for x in inputs))
        return tuple(y.array for y in ys)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        return differentiate(self.fn, self.get_retained_inputs(), indexes, grad_outputs)


class GradientNode(Recompute):
    """The gradient of an RNN cell as a node of its own (Chainer's ``LSTMGrad``, ...).

    Subclasses pass the gradient function to ``__init__`` and take no arguments. Calling an
    instance applies a fresh node, as Chainer's old-style gradient functions were callable.
    """

    def __call__(self, *inputs) -> tuple:
        return type(self)().apply(inputs)


def differentiate(fn: Callable[..., tuple], inputs: tuple, indexes: tuple, grad_outputs: tuple):
    """Gradients of ``fn(*inputs)`` with respect to ``inputs[i]`` for ``i`` in ``indexes``.

    Args:
        fn: A function of variables, made of differentiable operations, returning a tuple of
            variables.
        inputs: The variables to evaluate ``fn`` at (connected to the graph).
        indexes: Which inputs to differentiate with respect to.
        grad_outputs: Gradients of ``fn``'s outputs (``None`` for zero).

    Returns:
        A tuple of variables, one per index, differentiable with respect to ``inputs`` and
        ``grad_outputs``.
    """
    given = [k for k, g in enumerate(grad_outputs) if g is not None]
    n_inputs = len(inputs)

    def vector_jacobian_product(*args) -> tuple:
        # Inside Recompute.forward, args are fresh leaves: chainer.grad stops at them instead
        # of walking the graph that produced the real inputs.
        xs = args[:n_inputs]
        with force_backprop_mode():
            ys = fn(*xs)
            gxs = grad(
                [ys[k] for k in given],
                [xs[i] for i in indexes],
                list(args[n_inputs:]),
                enable_double_backprop=True,
            )
        return tuple(
            Variable(xs[i].xp.zeros_like(xs[i].array), requires_grad=False) if g is None else g
            for i, g in zip(indexes, gxs)
        )

    return Recompute(vector_jacobian_product).apply((*inputs, *(grad_outputs[k] for k in given)))
