"""Symbolic checks of the types, shapes and counts of function inputs.

``FunctionNode.check_type_forward`` receives a :class:`TypeInfoTuple` whose items are
:class:`Variable` expressions standing for the inputs. Arithmetic, comparisons, attribute access,
indexing and calls on expressions build a tree instead of a value, so :func:`expect` can report
the condition as written together with the values it saw::

    x_type, w_type = in_types
    type_check.expect(x_type.dtype.kind == 'f', x_type.shape[1] == w_type.shape[1])

Light mode (``with type_check.light_mode:``) is the fast path: the inputs are the arrays
themselves (see :func:`get_light_types`), every expression is an ordinary value computed at once,
and a failed check raises a bare :class:`InvalidType`. The caller then repeats the check in the
normal mode to build the message, paying for the expression trees only when a check fails.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Sequence
from typing import Any

import numpy

from chainer.utils._type_check_expr import (
    Atom,
    BinaryOperator,
    BoolBinaryOperator,
    Call,
    Constant,
    Expr,
    GetAttr,
    GetItem,
    InvalidType,
    Testable,
    UnaryOperator,
    Variable,
    _eval_expr,
    _repr,  # noqa: F401 (v7 compatibility: v7's private name, read by its tests)
    get_function_check_context,
)
from chainer.utils.array import size_of_shape

__all__ = [
    "Atom",
    "BinaryOperator",
    "BoolBinaryOperator",
    "Call",
    "Constant",
    "Expr",
    "GetAttr",
    "GetItem",
    "InvalidType",
    "LightTypeInfoTuple",
    "Testable",
    "TypeInfo",
    "TypeInfoTuple",
    "UnaryOperator",
    "Variable",
    "argname",
    "eval",
    "expect",
    "get_function_check_context",
    "get_light_types",
    "get_types",
    "in_light_mode",
    "light_mode",
    "make_variable",
    "prod",
    "same_types",
]

# Per-thread state: the light-mode nesting depth.
_state = threading.local()


class _LightMode:
    """Context manager that turns light mode on for the current thread; it may be nested."""

    def __enter__(self) -> None:
        _state.light_depth = getattr(_state, "light_depth", 0) + 1

    def __exit__(self, *exc_info) -> None:
        _state.light_depth -= 1


light_mode = _LightMode()


def in_light_mode() -> bool:
    """Return ``True`` inside ``with light_mode:`` in the current thread."""
    return getattr(_state, "light_depth", 0) > 0


class TypeInfo:
    """The shape and dtype of one array, independent of the device it lives on.

    Args:
        shape: The array's shape.
        dtype: The array's dtype (``None`` stands for a missing gradient).
    """

    def __init__(self, shape: tuple[int, ...], dtype: Any) -> None:
        self.shape = shape
        self.dtype = dtype
        self.ndim = len(shape)

    @property
    def size(self) -> int:
        """The number of elements."""
        return size_of_shape(self.shape)

    def __repr__(self) -> str:
        return f"TypeInfo(shape={self.shape}, dtype={self.dtype})"


class TypeInfoTuple(tuple):
    """The inputs seen by a type check in normal mode: a tuple of :class:`Variable` expressions.

    ``name`` is the label of the whole tuple (``'in_types'``).
    """

    name = "in_types"

    def size(self) -> Variable:
        """The number of inputs, as an expression (``in_types.size() == 2``)."""
        return Variable(len(self), f"{self.name}.size")


class LightTypeInfoTuple(tuple):
    """The inputs seen by a type check in light mode: arrays or :class:`TypeInfo` objects."""

    def size(self) -> int:
        """The number of inputs."""
        return len(self)

    def eval(self) -> LightTypeInfoTuple:
        return self


def get_types(
    data: Sequence[Any],
    name: str,
    accept_none: bool,
    shapes: Sequence[tuple[int, ...] | None] | None = None,
) -> TypeInfoTuple:
    """Describe arrays as :class:`Variable` expressions named ``name[0]``, ``name[1]``, ...

    Args:
        data: The arrays (anything with ``shape`` and ``dtype``: NumPy, CuPy, ChainerX).
        name: The label of the tuple, used in messages.
        accept_none: Whether ``None`` items (missing gradients) are allowed.
        shapes: Shapes to report instead of the arrays' own.
    """
    if not isinstance(data, (tuple, list)):
        raise TypeError(f"get_types expects a tuple of arrays, got {type(data).__name__}")
    if shapes is None:
        shapes = [None] * len(data)
    info = TypeInfoTuple(
        _type_of(array, f"{name}[{i}]", accept_none, shape)
        for i, (array, shape) in enumerate(zip(data, shapes))
    )
    info.name = name
    return info


def _type_of(array: Any, label: str, accept_none: bool, shape: tuple | None) -> Variable:
    if array is None:
        if not accept_none:
            raise TypeError(f"{label} must be an array, got None")
        return Variable(TypeInfo((), None), label)
    if not (hasattr(array, "shape") and hasattr(array, "dtype")):
        raise TypeError(
            f"{label} must be an array with shape and dtype, got {type(array).__name__}"
        )
    return Variable(TypeInfo(tuple(array.shape if shape is None else shape), array.dtype), label)


def get_light_types(
    data: Sequence[Any], shapes: Sequence[tuple[int, ...]] | None = None
) -> LightTypeInfoTuple:
    """Describe arrays for a light-mode check: the arrays themselves, or shapes with dtypes."""
    if shapes is None:
        return LightTypeInfoTuple(data)
    return LightTypeInfoTuple(TypeInfo(tuple(s), x.dtype) for x, s in zip(data, shapes))


def eval(exp: Any) -> Any:
    """Compute the value of an expression (in light mode the value is returned as is)."""
    return exp if in_light_mode() else _eval_expr(exp)


def make_variable(value: Any, name: str) -> Any:
    """A named :class:`Variable` for messages, or ``value`` itself in light mode."""
    return value if in_light_mode() else Variable(value, name)


def expect(*bool_exprs: Any) -> None:
    """Test each condition and raise :class:`InvalidType` on the first that does not hold.

    Example:
        >>> from chainer.utils import type_check
        >>> x_type, = type_check.get_types((numpy.ones(3, numpy.float32),), 'in_types', False)
        >>> type_check.expect(x_type.dtype.kind == 'f')
        >>> type_check.expect(x_type.ndim == 2)
        Traceback (most recent call last):
        ...
        chainer.utils.type_check.InvalidType: Expect: in_types[0].ndim == 2
        Actual: 1 != 2
    """
    if in_light_mode():
        # Conditions are plain bools here, unless a check wrapped a value in Variable itself.
        if not all(_eval_expr(e) for e in bool_exprs):
            raise InvalidType("", "")
        return
    for condition in bool_exprs:
        if not isinstance(condition, Testable):
            raise TypeError(
                "expect() takes comparisons of type-check expressions such as "
                f"'x_type.ndim == 2', got {type(condition).__name__}: {condition!r}"
            )
        condition.expect()


def same_types(*arrays: Any) -> bool:
    """Return ``True`` when the arrays are all NumPy arrays or all CuPy arrays."""
    if all(isinstance(x, numpy.ndarray) for x in arrays):
        return True
    # A CuPy array can exist only once cupy is imported, so there is nothing to import here.
    cupy = sys.modules.get("cupy")
    return cupy is not None and all(isinstance(x, cupy.ndarray) for x in arrays)


def _product(values: Sequence[Any]) -> Any:
    result = 1
    for v in values:
        result *= v
    return result


_prod = Variable(_product, "prod")


def prod(xs: Any) -> Any:
    """The product of the items of ``xs`` (``prod(x_type.shape)``), lazily in normal mode."""
    return _product(xs) if in_light_mode() else _prod(xs)


def argname(in_types: Sequence[Any], names: Sequence[str]) -> None:
    """Give the inputs readable names (``x`` instead of ``in_types[0]``) for messages.

    Raises:
        InvalidType: When the numbers of inputs and names differ.
    """
    if len(in_types) != len(names):
        raise InvalidType(f"{len(names)} argument(s)", f"{len(in_types)} argument(s)")
    for in_type, name in zip(in_types, names):
        if isinstance(in_type, Variable):
            in_type.name = name


# Chainer's functions call the helper by its former private name.
_argname = argname
