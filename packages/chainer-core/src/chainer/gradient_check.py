"""Numerical gradient checks: ``numerical_grad``, ``check_backward``, ``check_double_backward``.

``check_backward`` compares the gradients computed by backprop with a finite-difference estimate
along one random direction of all inputs (and parameters) at once: cheap (two extra forward
passes), and it still catches any wrong component with probability one.
"""

from __future__ import annotations

import math
from typing import Any

import numpy

from chainer import backend, configuration, function_node
from chainer.variable import Variable

__all__ = ["NondifferentiableError", "check_backward", "check_double_backward", "numerical_grad"]


class NondifferentiableError(Exception):
    """The function is not differentiable at the point where the gradient was checked."""


def _xp(arrays):
    from chainer import backend

    return backend.get_array_module(*arrays) if arrays else numpy


def _as_tuple(value) -> tuple:
    if value is None:
        return ()
    if isinstance(value, (tuple, list)):
        return tuple(value)
    return (value,)


def _to_float64(array):
    return array.astype(numpy.float64) if hasattr(array, "astype") else numpy.float64(array)


def _copied(outputs: tuple) -> tuple:
    return tuple([y.copy() if hasattr(y, "copy") else y for y in outputs])


def _weighted_sum(outputs, grad_outputs) -> float:
    total = 0.0
    for y, gy in zip(outputs, grad_outputs):
        if y is None or gy is None:
            continue
        total += float((_to_float64(y) * _to_float64(gy)).sum())
    return total


def numerical_grad(
    f,
    inputs,
    grad_outputs,
    eps=1e-3,
    detect_nondifferentiable=False,
    diff_atol=0,
    diff_rtol=1e-2,
    center_outputs=None,
):
    """Gradients of ``sum(f() * grad_outputs)`` w.r.t. ``inputs`` by central differences.

    Args:
        f: A function of no arguments returning a tuple of arrays computed from ``inputs``.
        inputs: Arrays that ``f`` reads; they are perturbed in place and restored.
        grad_outputs: Weights of each output (``None`` to ignore an output).
        eps: Step of the finite differences.
        detect_nondifferentiable: Raise :class:`NondifferentiableError` when the function has
            a kink within ``eps`` of the point: it is then sampled at five points across
            ``[x - eps, x + eps]`` and an output that changes finiteness or does not follow a
            quadratic fit (as in v7) is reported.
        diff_atol, diff_rtol: Tolerances of that detection, against the fit's residual and
            the output's range over the samples.
        center_outputs: Outputs of ``f`` at the unperturbed point, if already known.

    Returns:
        A tuple of gradient arrays, one per input, with the input's dtype.
    """
    if eps <= 0:
        raise AssertionError(f"eps must be positive, got {eps}")  # v7's error type
    inputs = tuple(inputs)
    grad_outputs = tuple(grad_outputs)
    # Scalars (a 0 standing for an output without gradient, as v7's tests pass) go anywhere.
    modules = {
        backend.get_array_module(a)
        for a in inputs + grad_outputs
        if a is not None and not numpy.isscalar(a)
    }
    if len(modules) > 1:  # v7's error type
        names = ", ".join(sorted(m.__name__ for m in modules))
        raise RuntimeError(
            f"numerical_grad: inputs and grad_outputs must be arrays of one backend, got {names}"
        )
    steps = _DETECTION_STEPS if detect_nondifferentiable else (-1.0, 1.0)
    # Outputs may share memory with the inputs (f returning x itself): each sample is summed,
    # and copied where detection needs it, before the next perturbation changes it.
    center = None
    if center_outputs is not None:
        center = _copied(_as_tuple(center_outputs))
    grads = []
    for x in inputs:
        if x is None:
            grads.append(None)
            continue
        gx = numpy.zeros(x.shape, dtype=numpy.float64)
        host = x if isinstance(x, numpy.ndarray) else None
        for index in numpy.ndindex(*x.shape):
            original = x[index].copy() if host is None else host[index]
            samples = []
            sums = []
            for step in steps:
                if step == 0 and center is not None:
                    outputs = center
                else:
                    x[index] = original + step * eps
                    outputs = _as_tuple(f())
                sums.append(_weighted_sum(outputs, grad_outputs))
                if detect_nondifferentiable:
                    samples.append(_copied(outputs))
            x[index] = original
            if detect_nondifferentiable:
                _check_differentiable(samples, diff_atol, diff_rtol, f"input index {index}")
            gx[index] = (sums[-1] - sums[0]) / (2 * eps)
        grads.append(_xp([x]).asarray(gx.astype(x.dtype)) if host is None else gx.astype(x.dtype))
    return tuple(grads)


# Where detection samples the function: five points across [x - eps, x + eps] (as v7).
_DETECTION_STEPS = (-1.0, -0.5, 0.0, 0.5, 1.0)


def _check_differentiable(samples: list, atol: float, rtol: float, where: str) -> None:
    """Raise :class:`NondifferentiableError` when the sampled outputs show a kink.

    ``samples`` holds the outputs at :data:`_DETECTION_STEPS`. An output element whose
    finiteness changes across the samples is a kink; otherwise, when every sample is
    finite, an element whose quadratic fit leaves a residual (root mean square) above
    ``atol + rtol * (its range)`` is one. Constant elements never are.
    """
    outputs: list[list[Any]] = [
        [None if y is None else _to_float64(_to_host(y)) for y in sample] for sample in samples
    ]
    stacks = [
        numpy.stack([sample[i] for sample in outputs]).reshape(len(outputs), -1)
        for i in range(len(outputs[0]))
        if outputs[0][i] is not None
    ]
    all_finite = True
    for i, stack in enumerate(stacks):
        finite = numpy.isfinite(stack)
        if (finite != finite[0]).any():
            raise NondifferentiableError(
                f"Tried to compute the numeric gradient on a non-differentiable point: output "
                f"{i} is finite on one side of {where} and not on the other"
            )
        all_finite = all_finite and bool(finite.all())
    if not all_finite:
        return  # non-finite all around (e.g. log left of 0): not a kink
    for i, stack in enumerate(stacks):
        if stack.shape[1] == 0:
            continue
        fit = numpy.polynomial.polynomial.polyfit(
            numpy.arange(len(stack)), stack, deg=2, full=True
        )
        residuals = fit[1][0]
        if residuals.size == 0:
            continue  # an exact fit
        rms = numpy.sqrt(residuals / len(stack))
        spread = stack.max(axis=0) - stack.min(axis=0)
        kinked = (rms > atol + rtol * spread) & (spread != 0)
        if kinked.any():
            raise NondifferentiableError(
                f"Tried to compute the numeric gradient on a non-differentiable point: output "
                f"{i} (element {int(numpy.argmax(kinked))}) does not follow a smooth curve "
                f"around {where} (fit residual {float(rms[kinked][0])!r})"
            )


def _prepare_inputs(x_data, no_grads):
    xs = _as_tuple(x_data)
    if no_grads is None:
        no_grads = [x.dtype.kind != "f" for x in xs]
    elif len(no_grads) != len(xs):
        raise ValueError(f"no_grads has {len(no_grads)} entries but there are {len(xs)} inputs")
    for x, no_grad in zip(xs, no_grads):
        if not no_grad and x.dtype.kind != "f":
            raise ValueError(
                f"an input of dtype {x.dtype} cannot have a gradient; set no_grads for it"
            )
    return xs, tuple(no_grads)


def _call(func, xs):
    ys = func(*xs)
    if isinstance(ys, Variable):
        return (ys,)
    ys = tuple(ys)
    for y in ys:
        if y is not None and not isinstance(y, Variable):
            raise TypeError(
                f"the function under test must return Variables, got {type(y).__name__}"
            )
    return ys


def check_backward(
    func,
    x_data,
    y_grad,
    params=(),
    eps=1e-3,
    atol=1e-5,
    rtol=1e-4,
    no_grads=None,
    dtype=None,
    detect_nondifferentiable=False,
):
    """Check that backprop through ``func`` matches a numerical derivative.

    Args:
        func: A function taking input variables and returning a variable or a tuple of them.
        x_data: An input array or a tuple of input arrays.
        y_grad: The output gradient array(s); ``None`` (all outputs single-element: they
            start from 1), or a ``None`` entry for an output that gets no gradient.
        params: Parameters (variables) used by ``func`` whose gradients are checked too; a
            single variable stands for a one-element tuple.
        eps: Step of the finite differences.
        atol, rtol: Tolerances of the comparison.
        no_grads: Per input, ``True`` when no gradient is expected (default: non-float ones).
        dtype: Compute the numerical derivative in this dtype (e.g. ``numpy.float64``) for
            better precision: the inputs and ``params`` are cast to it, and, as in v7, that
            evaluation runs without type checks, so that arrays ``func`` holds in their own
            dtype (a link's other parameters) meet the cast inputs. ``None`` uses the inputs'
            dtypes.
        detect_nondifferentiable: Fail clearly when the point is a kink of the function.

    Raises:
        AssertionError: The gradients do not match, with both values and the inputs.
    """
    xs, no_grads = _prepare_inputs(x_data, no_grads)
    params = _as_tuple(params)
    y_grads = _as_tuple(y_grad)
    # Float inputs listed in no_grads still take part in backprop, so that a gradient computed
    # for them is caught (v7).
    x_vars = [Variable(x, requires_grad=x.dtype.kind == "f") for x in xs]

    # Analytical gradients by backprop.
    ys = _call(func, x_vars)
    if y_grads and len(y_grads) != len(ys):
        raise ValueError(f"y_grad has {len(y_grads)} arrays but func returned {len(ys)} outputs")
    targets = [v for v, ng in zip(x_vars, no_grads) if not ng] + list(params)
    unchecked = [
        (i, v) for i, (v, ng) in enumerate(zip(x_vars, no_grads)) if ng and v.requires_grad
    ]
    if y_grads:  # a None entry: that output gets no gradient (v7's convention)
        grad_outputs = list(y_grads)
    else:
        for i, y in enumerate(ys):
            if y is not None and y.array.size != 1:
                raise ValueError(
                    f"y_grad is needed: output {i} has shape {y.shape}, and only "
                    "single-element outputs start from 1 when y_grad is None"
                )
        grad_outputs = [None if y is None else y.xp.ones_like(y.array) for y in ys]
    usable = [(y, gy) for y, gy in zip(ys, grad_outputs) if y is not None and gy is not None]
    if usable:
        probed = targets + [v for _, v in unchecked]
        analytic = function_node.grad([y for y, _ in usable], probed, [gy for _, gy in usable])
        for (i, _), g in zip(unchecked, analytic[len(targets) :]):
            if g is not None:
                raise RuntimeError(
                    f"input {i} is listed in no_grads, but backward computed a gradient for it"
                )
        analytic = analytic[: len(targets)]
    else:
        analytic = [None] * len(targets)
    if not targets:
        return
    for target, g in zip(targets, analytic):
        if g is not None and (g.shape != target.shape or g.dtype != target.dtype):
            raise AssertionError(
                f"backward returned a gradient of shape {g.shape} and dtype {g.dtype} for an "
                f"input of shape {target.shape} and dtype {target.dtype}"
            )

    # Numerical directional derivative along a random unit direction.
    xp = _xp(list(xs))
    rng = numpy.random
    directions = [rng.normal(size=t.shape) for t in targets]
    norm = numpy.sqrt(sum(float((d * d).sum()) for d in directions)) or 1.0
    directions = [d / norm for d in directions]
    target_arrays = [t.array for t in targets]
    compute_dtype = dtype

    def evaluate(step: float) -> tuple:
        shifted = []
        for array, direction in zip(target_arrays, directions):
            base = array.astype(compute_dtype) if compute_dtype is not None else array
            shifted.append(xp.asarray(base + xp.asarray(direction * step).astype(base.dtype)))
        n_x = sum(1 for ng in no_grads if not ng)
        shifted_x = iter(shifted[:n_x])
        inputs = []
        for x, ng in zip(xs, no_grads):
            if ng:
                if compute_dtype is not None and x.dtype.kind == "f":
                    x = x.astype(compute_dtype)
                inputs.append(Variable(x, requires_grad=False))
            else:
                # Graph-enabled: the function may itself differentiate (double backward).
                inputs.append(Variable(next(shifted_x)))
        saved = [p.array for p in params]
        try:
            for p, new in zip(params, shifted[n_x:]):
                p.array = new
            outs = _call(func, inputs)
        finally:
            for p, old in zip(params, saved):
                p.array = old
        return tuple(None if y is None else y.array for y in outs)

    steps = _DETECTION_STEPS if detect_nondifferentiable else (-1.0, 1.0)
    # As in v7, without type checks: in ``dtype`` the inputs may meet arrays that ``func``
    # holds in their own dtype (a link's parameters), which NumPy promotes.
    with configuration.using_config("type_check", False):
        samples = [evaluate(step * eps) for step in steps]
    if detect_nondifferentiable:
        _check_differentiable(samples, 0, 1e-2, "the checked point")
    plus = _weighted_sum(samples[-1], grad_outputs)
    minus = _weighted_sum(samples[0], grad_outputs)
    numerical = (plus - minus) / (2 * eps)
    analytical = 0.0
    for g, d in zip(analytic, directions):
        if g is not None:
            analytical += float((_to_float64(_to_host(g.array)) * d).sum())
    if not _matches(numerical, analytical, atol, rtol):
        details = "\n".join(
            f"  input {i}: shape={t.shape} dtype={t.dtype}" for i, t in enumerate(targets)
        )
        raise AssertionError(
            "check_backward failed: the directional derivative by backprop does not match "
            "the numerical one.\n"
            f"  numerical:  {numerical!r}\n  analytical: {analytical!r}\n"
            f"  difference: {abs(numerical - analytical)!r} > atol + rtol*|numerical| = "
            f"{atol + rtol * abs(numerical)!r} (eps={eps}, atol={atol}, rtol={rtol})\n"
            f"{details}"
        )


def _matches(numerical: float, analytical: float, atol: float, rtol: float) -> bool:
    """Within the tolerance; NaN against NaN and an infinity against the same infinity match
    too, as in v7 (whose comparison was NumPy's ``assert_allclose``)."""
    if numerical == analytical or (math.isnan(numerical) and math.isnan(analytical)):
        return True
    return abs(numerical - analytical) <= atol + rtol * abs(numerical)


def _to_host(array):
    if isinstance(array, numpy.ndarray):
        return array
    get = getattr(array, "get", None)
    return get() if get is not None else numpy.asarray(array)


def check_double_backward(
    func,
    x_data,
    y_grad,
    x_grad_grad,
    params=(),
    params_grad_grad=(),
    eps=1e-3,
    atol=1e-4,
    rtol=1e-3,
    no_grads=None,
    dtype=None,
    detect_nondifferentiable=False,
):
    """Check the second-order gradients of ``func`` numerically.

    It differentiates the first-order gradients (of the inputs and parameters, computed with
    ``enable_double_backprop=True``) with respect to the inputs, the output gradients
    ``y_grad`` and the parameters, using :func:`check_backward`.

    Args:
        func: The function under test.
        x_data: Input array(s).
        y_grad: Output gradient array(s) (they are inputs of the first-order gradient).
        x_grad_grad: Gradient array(s) of the input gradients.
        params: Parameters used by ``func``.
        params_grad_grad: Gradient arrays of the parameter gradients.
        eps, atol, rtol, no_grads, dtype, detect_nondifferentiable: As in
            :func:`check_backward`.
    """
    xs, no_grads = _prepare_inputs(x_data, no_grads)
    y_grads = _as_tuple(y_grad)
    params = _as_tuple(params)
    n_x = len(xs)
    if all(no_grads) and not params:
        return  # nothing is differentiable (e.g. an integer function): nothing to check, as v7

    def first_order_grad(*inputs):
        x_vars = inputs[:n_x]
        gy_vars = inputs[n_x:]
        ys = _call(func, x_vars)
        targets = [v for v, ng in zip(x_vars, no_grads) if not ng] + list(params)
        pairs = [(y, gy) for y, gy in zip(ys, gy_vars or [None] * len(ys)) if y is not None]
        grads = function_node.grad(
            [y for y, _ in pairs],
            targets,
            [gy for _, gy in pairs] if gy_vars else None,
            enable_double_backprop=True,
        )
        return tuple(
            Variable(t.xp.zeros_like(t.array), requires_grad=False) if g is None else g
            for t, g in zip(targets, grads)
        )

    check_backward(
        first_order_grad,
        xs + y_grads,
        _as_tuple(x_grad_grad) + _as_tuple(params_grad_grad),
        params=params,
        eps=eps,
        atol=atol,
        rtol=rtol,
        # As for x, the gradient of an integer output's y_grad is not checked.
        no_grads=no_grads + tuple(gy is None or gy.dtype.kind != "f" for gy in y_grads),
        dtype=dtype,
        detect_nondifferentiable=detect_nondifferentiable,
    )
