"""Numerical gradient checks for ChainerX routines (used by the package's own tests)."""

from collections.abc import Callable, Sequence

import numpy

import chainerx


def numerical_grad(
    func: Callable[..., chainerx.ndarray],
    inputs: Sequence[numpy.ndarray],
    grad_output: numpy.ndarray,
    eps: float = 1e-6,
) -> list[numpy.ndarray]:
    """Central differences of ``sum(func(*inputs) * grad_output)`` for float64 NumPy inputs."""
    grads = []
    for i, x in enumerate(inputs):
        g = numpy.zeros_like(x)
        for index in numpy.ndindex(x.shape):
            values = []
            for delta in (eps, -eps):
                shifted = [a.copy() for a in inputs]
                shifted[i][index] += delta
                y = func(*[chainerx.array(a) for a in shifted])
                values.append(float((chainerx.to_numpy(y) * grad_output).sum()))
            g[index] = (values[0] - values[1]) / (2 * eps)
        grads.append(g)
    return grads


def check_backward(
    func: Callable[..., chainerx.ndarray],
    inputs: Sequence[numpy.ndarray],
    *,
    eps: float = 1e-6,
    atol: float = 1e-6,
    rtol: float = 1e-5,
    double_backprop: bool = False,
) -> None:
    """Asserts that backward of func agrees with central differences at float64 inputs.

    With ``double_backprop`` the first-order gradients are themselves checked the same way,
    which exercises the backward of every routine the backward functions use.
    """
    inputs = [numpy.asarray(x, numpy.float64) for x in inputs]
    xs = [chainerx.array(x).require_grad() for x in inputs]
    y = func(*xs)
    rng = numpy.random.default_rng(0)
    gy = rng.uniform(0.5, 1.5, y.shape)
    if y.is_grad_required():
        analytic = chainerx.grad(
            [y], xs, grad_outputs=[chainerx.array(gy)], enable_double_backprop=double_backprop
        )
    else:  # y does not depend on the inputs (e.g. the gradient of a linear function)
        analytic = [None] * len(xs)
    expected = numerical_grad(func, inputs, gy, eps)
    for a, e in zip(analytic, expected, strict=True):
        got = numpy.zeros_like(e) if a is None else chainerx.to_numpy(a)
        numpy.testing.assert_allclose(got, e, atol=atol, rtol=rtol)
    if double_backprop:

        def first_order(*args: chainerx.ndarray) -> chainerx.ndarray:
            # The analytic pass gives arrays in the graph; numerical passes give fresh ones.
            leaves = [a if a.is_grad_required() else a.copy().require_grad() for a in args]
            gs = chainerx.grad(
                [func(*leaves)],
                leaves,
                grad_outputs=[chainerx.array(gy)],
                enable_double_backprop=True,
            )
            return chainerx.concatenate([g.reshape(-1) for g in gs if g is not None])

        check_backward(first_order, inputs, eps=eps, atol=atol * 10, rtol=rtol * 10)
