"""``forget``: run a function without keeping its intermediate results; redo it in backward."""

from __future__ import annotations

from collections.abc import Callable

import chainer
from chainer._ops.array_ops import Identity
from chainer.configuration import config, using_config
from chainer.function import force_backprop_mode, no_backprop_mode
from chainer.function_node import FunctionNode
from chainer.variable import Variable


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class Forget(FunctionNode):
    """Calls ``func`` in forward without recording its graph, and again in backward to
    backpropagate through a fresh one.

    Args:
        func: A function of variables returning a variable or a tuple of variables.
    """

    def __init__(self, func: Callable) -> None:
        if not callable(func):
            raise TypeError(f"func must be callable, got {type(func).__name__}: {func!r}")
        self.func = func

    def _call_func(self, xs: tuple) -> tuple:
        outs = self.func(*xs)
        if isinstance(outs, Variable):
            return (outs,)
        if not isinstance(outs, tuple):
            raise RuntimeError(
                "forget: func must return a Variable or a tuple of Variables, but it returned "
                f"a {type(outs).__name__}"
            )
        for n, out in enumerate(outs, 1):
            if not isinstance(out, Variable):
                raise RuntimeError(
                    f"forget: the {_ordinal(n)} element of the tuple returned by func is not a "
                    f"Variable but a {type(out).__name__}"
                )
        return outs

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs(tuple(range(len(inputs))))
        # Links that update state (batch renormalization) keep what the recomputation needs.
        with no_backprop_mode(), using_config("_will_recompute", True):
            outs = self._call_func(tuple(Variable(x) for x in inputs))
        return tuple(out.array for out in outs)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        if config.enable_backprop:
            raise RuntimeError(
                "double backpropagation through functions.forget is not supported: "
                "backward is recomputed without recording a graph of the gradients"
            )
        inputs = self.get_retained_inputs()
        # Fresh leaves: the recomputed graph ends here, and their grad is what we return.
        leaves = tuple(Variable(x.array, requires_grad=x.dtype.kind == "f") for x in inputs)
        with force_backprop_mode(), using_config("in_recomputing", True):
            outs = self._call_func(leaves)
            # An output may be an input itself; Identity gives every output a creator.
            outs = Identity().apply(outs)
        if len(outs) != len(grad_outputs):
            raise RuntimeError(
                f"forget: func returned {len(outs)} outputs when recomputed but "
                f"{len(grad_outputs)} in forward"
            )
        pairs = [(y, gy.array) for y, gy in zip(outs, grad_outputs) if gy is not None]
        # Plain backward (not chainer.grad): parameters used inside func accumulate their
        # gradients, exactly as without forget.
        chainer.backward([y for y, _ in pairs], [gy for _, gy in pairs])
        return tuple(leaves[i].grad_var for i in indexes)


def forget(func: Callable, *xs) -> Variable | tuple:
    """Calls a function without storing intermediate results.

    In forward, ``func(*xs)`` runs without recording a graph, so its intermediate results are
    freed at once. In backward it runs again, with ``chainer.config.in_recomputing`` set to
    True, and the gradient flows through the recomputed graph. This trades computation for
    memory. ``func`` must compute the same thing both times (no randomness unless seeded), and
    links it calls should not update their state while ``in_recomputing``.

    Gradients of parameters used inside ``func`` accumulate as usual; double backpropagation
    through ``forget`` is not supported.

    Args:
        func: A function of variables returning a variable or a tuple of variables.
        xs: The input variables (or arrays) of ``func``.

    Returns:
        A variable, or a tuple of variables when ``func`` returns a tuple of two or more.

    Raises:
        TypeError: ``func`` is not callable.
        RuntimeError: ``func`` does not return variables.

    Example:
        >>> x = chainer.Variable(numpy.ones(3, numpy.float32))
        >>> y = F.forget(lambda v: F.sigmoid(v) * 2, x)
        >>> y.grad = numpy.ones(3, numpy.float32)
        >>> y.backward()
        >>> x.grad.shape
        (3,)
    """
    ys = Forget(func).apply(xs)
    return ys[0] if len(ys) == 1 else ys
