"""check_backward and check_double_backward: ChainerX gradients against finite differences."""

from collections.abc import Callable, Sequence

import numpy

from chainerx._core import BackpropId, ChainerxError, array, grad, ndarray, to_numpy, zeros_like

Function = Callable[[tuple[ndarray, ...]], Sequence[ndarray]]


class GradientCheckError(ChainerxError):
    """Raised by :func:`check_backward` when a gradient differs from its numerical estimate."""


def _gradients(
    outputs: Sequence[ndarray],
    inputs: Sequence[ndarray],
    grad_outputs: Sequence[ndarray],
    backprop_id: BackpropId | None,
    double_backprop: bool,
) -> list[ndarray | None]:
    """Gradients of the outputs in the graph (seeded with their grad_outputs) w.r.t. inputs."""
    in_graph = [i for i, y in enumerate(outputs) if y.is_grad_required(backprop_id)]
    if not in_graph:
        return [None] * len(inputs)
    return grad(
        [outputs[i] for i in in_graph],
        list(inputs),
        backprop_id,
        enable_double_backprop=double_backprop,
        grad_outputs=[grad_outputs[i] for i in in_graph],
    )


def _numerical_gradients(
    func: Function,
    inputs: Sequence[ndarray],
    grad_outputs: Sequence[ndarray],
    eps: Sequence[ndarray],
) -> list[numpy.ndarray]:
    """Central differences of ``sum(func(inputs)[k] * grad_outputs[k])``, one step per element."""
    values = [to_numpy(x).astype(numpy.float64) for x in inputs]
    weights = [to_numpy(g).astype(numpy.float64) for g in grad_outputs]

    def weighted_sum(shifted: list[numpy.ndarray]) -> float:
        args = tuple(
            array(v.astype(x.dtype), device=x.device) for v, x in zip(shifted, inputs, strict=True)
        )
        outputs = func(args)
        return sum(
            float((to_numpy(y).astype(numpy.float64) * w).sum())
            for y, w in zip(outputs, weights, strict=True)
        )

    result = []
    for i, step in enumerate(eps):
        step_values = to_numpy(step).astype(numpy.float64)
        g = numpy.zeros_like(values[i])
        for index in numpy.ndindex(values[i].shape):
            totals = []
            for sign in (1, -1):
                shifted = [v.copy() for v in values]
                shifted[i][index] += sign * step_values[index]
                totals.append(weighted_sum(shifted))
            g[index] = (totals[0] - totals[1]) / (2 * step_values[index])
        result.append(g)
    return result


def check_backward(
    func: Function,
    inputs: Sequence[ndarray],
    grad_outputs: Sequence[ndarray],
    eps: Sequence[ndarray],
    atol: float = 1e-5,
    rtol: float = 1e-4,
    backprop_id: BackpropId | None = None,
) -> None:
    """Checks the gradients of ``func`` against central differences.

    Args:
        func: Takes a tuple of arrays (one per input) and returns a tuple of output arrays.
        inputs: Where to check.
        grad_outputs: The gradient of each output the check backpropagates.
        eps: One array of step sizes per input, of its shape.
        atol, rtol: Tolerances, as in ``numpy.allclose``.
        backprop_id: The graph to differentiate in (default: the default graph).

    Raises:
        GradientCheckError: An analytic gradient differs from the numerical one.
    """
    if not len(inputs) == len(eps):
        raise ValueError(f"check_backward: {len(inputs)} inputs but {len(eps)} eps arrays")
    leaves = tuple(x.as_grad_stopped().require_grad(backprop_id) for x in inputs)
    outputs = tuple(func(leaves))
    if len(outputs) != len(grad_outputs):
        raise ValueError(
            f"check_backward: func returned {len(outputs)} outputs but {len(grad_outputs)} "
            "grad_outputs were given"
        )
    analytic = _gradients(outputs, leaves, grad_outputs, backprop_id, False)
    numerical = _numerical_gradients(func, inputs, grad_outputs, eps)
    for i, (a, n) in enumerate(zip(analytic, numerical, strict=True)):
        got = numpy.zeros_like(n) if a is None else to_numpy(a).astype(numpy.float64)
        if not numpy.allclose(got, n, rtol=rtol, atol=atol):
            raise GradientCheckError(
                f"the gradient of input {i} differs from its numerical estimate "
                f"(atol={atol}, rtol={rtol}):\nanalytic:\n{got}\nnumerical:\n{n}"
            )


def check_double_backward(
    func: Function,
    inputs: Sequence[ndarray],
    grad_outputs: Sequence[ndarray],
    grad_grad_inputs: Sequence[ndarray],
    eps: Sequence[ndarray],
    atol: float = 1e-5,
    rtol: float = 1e-4,
    backprop_id: BackpropId | None = None,
) -> None:
    """Checks the second-order gradients of ``func``: :func:`check_backward` of its backward.

    The function checked maps ``inputs + grad_outputs`` to the gradients of ``func`` w.r.t.
    ``inputs``; ``grad_grad_inputs`` are the gradients backpropagated from those, and ``eps``
    holds one step array per input and per grad_output.

    Raises:
        GradientCheckError: A second-order gradient differs from the numerical one.
    """
    n_inputs = len(inputs)

    def first_order(args: tuple[ndarray, ...]) -> tuple[ndarray, ...]:
        xs, gys = args[:n_inputs], args[n_inputs:]
        leaves = tuple(
            x if x.is_grad_required(backprop_id) else x.as_grad_stopped().require_grad(backprop_id)
            for x in xs
        )
        grads = _gradients(tuple(func(leaves)), leaves, gys, backprop_id, True)
        return tuple(zeros_like(x) if g is None else g for g, x in zip(grads, leaves, strict=True))

    check_backward(
        first_order,
        tuple(inputs) + tuple(grad_outputs),
        grad_grad_inputs,
        eps,
        atol,
        rtol,
        backprop_id,
    )
