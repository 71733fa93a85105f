"""Tests of ``FunctionNode._backward_fast``: the same gradients as ``backward`` itself.

Backprop skips a node's ``backward`` for its ``_backward_fast`` only while no function hook is
registered; :func:`gradients_both_ways` runs one backward each way and hands both results to
the test, which compares them bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from chainer.function_hook import FunctionHook
from chainer.variable import Variable


class _GenericBackward(FunctionHook):
    """A hook that does nothing: while registered, backprop calls every ``backward``."""

    name = "GenericBackward"


def gradients_both_ways(
    build: Callable[[], Variable], leaves: Sequence[Variable], fast_classes: Sequence[type]
) -> tuple[list, list]:
    """Backprop ``build()`` on the fast path, then on ``backward`` itself.

    Args:
        build: Makes the graph and returns its output (a fresh graph per call).
        leaves: The variables whose gradients are compared (cleared before each run).
        fast_classes: Function classes whose ``backward`` the fast run must not call (it
            raises ``AssertionError`` if one does), and the generic run must call.

    Returns:
        Two lists (fast, generic) of ``(grad, grad_var.requires_grad)`` per leaf, ``(None,
        None)`` for a leaf without a gradient.
    """
    calls: list[type] = []
    originals = {cls: cls.__dict__["backward"] for cls in fast_classes}

    def spy(cls: type, original: Callable) -> Callable:
        def backward(self, indexes, grad_outputs):
            calls.append(cls)
            return original(self, indexes, grad_outputs)

        return backward

    results = []
    try:
        for cls, original in originals.items():
            setattr(cls, "backward", spy(cls, original))  # noqa: B010
        for generic in (False, True):
            calls.clear()
            for leaf in leaves:
                leaf.cleargrad()
            y = build()
            if generic:
                with _GenericBackward():
                    y.backward()
            else:
                y.backward()
            missing = set(fast_classes) - set(calls)
            if generic and missing:
                raise AssertionError(f"backward of {sorted(c.__name__ for c in missing)} not run")
            if not generic and calls:
                raise AssertionError(f"the fast path called backward of {calls[0].__name__}")
            results.append([_gradient(leaf) for leaf in leaves])
    finally:
        for cls, original in originals.items():
            setattr(cls, "backward", original)  # noqa: B010
    return results[0], results[1]


def assert_same_gradients(fast: list, generic: list) -> None:
    """Both runs gave bitwise the same gradients (dtype, shape, bytes, ``requires_grad``)."""
    assert len(fast) == len(generic)
    for i, ((a, a_rg), (b, b_rg)) in enumerate(zip(fast, generic)):
        if a is None or b is None:
            assert a is None and b is None, f"leaf {i}: a gradient on one path only"
            continue
        assert type(a) is type(b), f"leaf {i}: {type(a)} != {type(b)}"
        assert a.dtype == b.dtype and a.shape == b.shape, f"leaf {i}: {a.dtype}{a.shape}"
        assert a.tobytes() == b.tobytes(), f"leaf {i}: values differ:\n{a}\n{b}"
        assert a_rg == b_rg, f"leaf {i}: requires_grad {a_rg} != {b_rg}"


def _gradient(leaf: Variable) -> tuple:
    gv = leaf.grad_var
    return (None, None) if gv is None else (gv.array, gv.requires_grad)
