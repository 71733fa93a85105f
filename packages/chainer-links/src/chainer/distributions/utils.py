"""Helpers shared by the distributions: parameter preparation, checks and masked densities."""

from __future__ import annotations

import numbers
from collections.abc import Callable

import numpy

import chainer.functions as F
from chainer import backend
from chainer._dtypes import get_dtype
from chainer.configuration import config
from chainer.variable import Variable, as_variable

__all__ = [
    "as_params",
    "as_points",
    "check_param",
    "check_sample_count",
    "modified_xlogx",
    "on_support",
    "quiet",
    "random_array",
    "times_log",
]


def _is_array(value) -> bool:
    return hasattr(value, "shape") and hasattr(value, "dtype")


def as_params(owner: str, broadcast: bool = True, **params) -> tuple[Variable, ...]:
    """Turn a distribution's parameters into variables of one float dtype.

    Arrays and variables keep their dtype (which must be a float dtype shared by all of them);
    Python numbers take that dtype (``chainer.config.dtype`` when every parameter is a number).

    Args:
        owner: Name of the distribution, for error messages.
        broadcast: Broadcast the parameters to their common shape (scalar-event families).
        params: The parameters by name, in order.

    Returns:
        The parameters as variables, in the order given.

    Raises:
        TypeError: A parameter is neither an array, a variable nor a real number, or the
            dtypes are not one float dtype.
        ValueError: The shapes do not broadcast together.
    """
    arrays = {}
    for name, value in params.items():
        if isinstance(value, Variable) or _is_array(value):
            arrays[name] = value
        elif not isinstance(value, numbers.Real) or isinstance(value, bool):
            raise TypeError(
                f"{owner}: {name} must be an array, a Variable or a real number, "
                f"got {type(value).__name__}"
            )
    dtypes = {name: numpy.dtype(value.dtype) for name, value in arrays.items()}
    if len(set(dtypes.values())) > 1 or any(dt.kind != "f" for dt in dtypes.values()):
        found = ", ".join(f"{name}: {dt}" for name, dt in dtypes.items())
        raise TypeError(f"{owner}: parameters must share one float dtype, got {found}")
    dtype = next(iter(dtypes.values())) if dtypes else get_dtype()
    xp = backend.get_array_module(*arrays.values()) if arrays else numpy
    variables = [
        as_variable(arrays[name] if name in arrays else xp.asarray(value, dtype=dtype))
        for name, value in params.items()
    ]
    shapes = [v.shape for v in variables]
    if not broadcast or len(set(shapes)) <= 1:
        return tuple(variables)
    try:
        numpy.broadcast_shapes(*shapes)
    except ValueError:
        found = ", ".join(f"{name}: {shape}" for name, shape in zip(params, shapes))
        raise ValueError(
            f"{owner}: parameter shapes do not broadcast together ({found})"
        ) from None
    return tuple(F.broadcast(*variables))


def check_param(owner: str, name: str, param: Variable, is_valid: Callable, expected: str) -> None:
    """Raise ``ValueError`` unless ``is_valid(array)`` holds for every element of ``param``.

    The check reads the values (a device synchronization on GPUs), so like Chainer's
    function type checks it is skipped when ``chainer.config.type_check`` is ``False``.

    Args:
        owner: Name of the distribution, for the message.
        name: Name of the parameter.
        param: The parameter variable.
        is_valid: Maps the array to a boolean array of valid elements.
        expected: What a valid value is, in words (``'positive'``).
    """
    if not config.type_check:
        return
    array = param.array
    valid = is_valid(array)
    if bool(valid.all()):
        return
    invalid = array[~valid]
    raise ValueError(
        f"{owner}: {name} must be {expected}, got {invalid.ravel()[0].item()!r} "
        f"({invalid.size} invalid of {array.size} values)"
    )


def check_sample_count(n) -> None:
    """Raise unless ``n`` is a non-negative int (the argument of ``sample_n``)."""
    if not isinstance(n, numbers.Integral) or isinstance(n, bool):
        raise TypeError(f"sample_n: n must be an int, got {type(n).__name__}")
    if n < 0:
        raise ValueError(f"sample_n: n must be non-negative, got {n}")


def as_points(x, dtype) -> Variable:
    """``x`` as a variable of ``dtype`` (points given as integers or scalars are cast)."""
    if isinstance(x, (numbers.Number, numpy.generic)):
        x = numpy.asarray(x)
    x = as_variable(x)
    if x.dtype == dtype:
        return x
    if x.dtype.kind not in "biuf":
        raise TypeError(f"x must be a numeric array, got dtype {x.dtype}")
    return F.cast(x, dtype)


def on_support(
    x: Variable,
    support,
    safe_value,
    formula: Callable[[Variable], Variable],
    outside: float = -numpy.inf,
) -> Variable:
    """``formula(x)`` where ``support`` holds and the constant ``outside`` elsewhere.

    Off the support the formula is evaluated at ``safe_value`` instead, so it never sees
    values where it is undefined (no NaN, no floating-point warnings), and no gradient flows
    from the constant entries. Densities use ``outside=-inf``, distribution functions ``0``.

    Args:
        x: The points.
        support: Boolean array, broadcastable with ``x``.
        safe_value: A point of the support (scalar or array broadcastable with ``x``).
        formula: The function, valid on the support.
        outside: The value off the support.
    """
    xp = backend.get_array_module(x)
    inside = F.where(support, x, xp.asarray(safe_value, dtype=x.dtype))
    value = formula(inside)
    return F.where(support, value, xp.asarray(outside, dtype=value.dtype))


def quiet(function: Callable[[Variable], Variable], x) -> Variable:
    """``function(x)`` (a logarithm) without NumPy's divide-by-zero warning.

    ``log(0) = -inf`` is the legitimate log-probability of an impossible event.
    """
    with numpy.errstate(divide="ignore"):
        return function(x)


def random_array(xp, dtype, name: str, *args, size: tuple[int, ...]):
    """An array drawn from ``xp.random.<name>`` and cast to ``dtype``.

    The global generator is used (as Chainer does), so ``chainer.testing.fix_random`` and
    ``numpy.random.seed`` make the samples reproducible.
    """
    return getattr(xp.random, name)(*args, size=size).astype(dtype, copy=False)


def times_log(coefficient, log_value: Variable) -> Variable:
    """``coefficient * log_value``, taken as 0 where ``coefficient == 0``.

    This is the convention ``0 * log(0) = 0`` of probabilities: a zero-weight term is 0 even
    when its logarithm is ``-inf``, and it passes no gradient to ``log_value``.
    """
    zero = as_variable(coefficient).array == 0
    xp = backend.get_array_module(log_value)
    return coefficient * F.where(zero, xp.zeros((), dtype=log_value.dtype), log_value)


def modified_xlogx(x) -> Variable:
    """``x * log(x)`` with the limit ``0`` at ``x = 0`` (entropies of discrete laws).

    ``x`` is a variable or an array; the gradient at ``0`` is taken as ``0``.
    """
    x = as_variable(x)
    xp = backend.get_array_module(x)
    positive = x.array > 0
    safe = F.where(positive, x, xp.ones((), dtype=x.dtype))
    return F.where(positive, safe * F.log(safe), xp.zeros((), dtype=x.dtype))


# Chainer v7's private name of the same function.
_modified_xlogx = modified_xlogx
