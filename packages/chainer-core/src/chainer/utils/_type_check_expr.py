"""The expression tree behind ``chainer.utils.type_check`` and the error it raises.

Import these names from :mod:`chainer.utils.type_check`; this module only holds them.
"""

from __future__ import annotations

import contextlib
import operator
import threading
from collections.abc import Callable, Iterator
from typing import Any

# Per-thread state: the function whose inputs are being checked.
_state = threading.local()


class InvalidType(Exception):
    """Raised when the inputs of a function have invalid types, shapes or counts.

    Args:
        expect: What the check required, as text (``"in_types[0].ndim == 2"``).
        actual: What it found, as text (``"3 != 2"``).
        msg: The whole message. By default it is ``"Expect: {expect}\\nActual: {actual}"``; when
            the error is raised inside :func:`get_function_check_context`, that text is prefixed
            with ``"\\nInvalid operation is performed in: {label} (Forward)\\n\\n"``.

    ``expect`` and ``actual`` stay available as attributes, so a caller can re-raise with another
    message and lose nothing: ``raise InvalidType(e.expect, e.actual, msg=new_text) from e``.
    """

    # Tracebacks name the error where users import it from.
    __module__ = "chainer.utils.type_check"

    def __init__(self, expect: str, actual: str, msg: str | None = None) -> None:
        if msg is None:
            msg = f"Expect: {expect}\nActual: {actual}"
            function = getattr(_state, "function", None)
            if function is not None:
                msg = f"\nInvalid operation is performed in: {function.label} (Forward)\n\n{msg}"
        super().__init__(msg)
        self.expect = expect
        self.actual = actual

    def __reduce__(self):
        return type(self), (self.expect, self.actual, self.args[0])


@contextlib.contextmanager
def get_function_check_context(function: Any) -> Iterator[None]:
    """Name ``function`` (anything with a ``label``) in every InvalidType raised in the block."""
    previous = getattr(_state, "function", None)
    _state.function = function
    try:
        yield
    finally:
        _state.function = previous


def _eval_expr(value: Any) -> Any:
    if isinstance(value, Expr):
        return value.eval()
    if isinstance(value, list):
        return [_eval_expr(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_eval_expr(v) for v in value)
    return value


def _repr(value: Any) -> str:
    if isinstance(value, Expr):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(map(_repr, value)) + "]"
    if isinstance(value, tuple):
        if len(value) == 1:
            return f"({_repr(value[0])},)"
        return "(" + ", ".join(map(_repr, value)) + ")"
    return repr(value)


def _wrapped(term: Any, tighter_than: int) -> str:
    """``term`` as text, in parentheses when it binds less tightly than ``tighter_than``."""
    text = _repr(term)
    if isinstance(term, Expr) and term._priority < tighter_than:
        return f"({text})"
    return text


def _binary(symbol: str, priority: int, func: Callable, right_associative: bool = False):
    def build(self, other):
        return BinaryOperator(priority, self, other, symbol, func, right_associative)

    return build


def _reflected(symbol: str, priority: int, func: Callable, right_associative: bool = False):
    def build(self, other):
        return BinaryOperator(priority, other, self, symbol, func, right_associative)

    return build


def _unary(symbol: str, func: Callable):
    def build(self):
        return UnaryOperator(_UNARY_PRIORITY, self, symbol, func)

    return build


def _comparison(symbol: str, inverse: str, func: Callable):
    def build(self, other):
        return BoolBinaryOperator(self, other, symbol, inverse, func)

    return build


# Binding strength of Python's operators, loosest first; it decides where ``str`` puts parentheses.
_COMPARISON_PRIORITY = -1
_UNARY_PRIORITY = 6
_ATOM_PRIORITY = 8


class Expr:
    """A node of a lazily evaluated expression.

    Operators, attribute access, indexing and calls on an ``Expr`` return new ``Expr`` nodes;
    :meth:`eval` computes the value. An ``Expr`` has no truth value: write the condition inside
    :func:`expect`, or evaluate it first with :func:`eval`.

    Args:
        priority: How tightly the node binds, as Python's operator precedence.
    """

    # Make NumPy scalars and arrays on the left of an operator defer to the reflected method.
    __array_ufunc__ = None

    def __init__(self, priority: int) -> None:
        self._priority = priority

    @property
    def priority(self) -> int:
        """How tightly the node binds (Python's operator precedence order)."""
        return self._priority

    def eval(self) -> Any:
        """Compute the value of the expression."""
        raise NotImplementedError

    def __bool__(self) -> bool:
        raise RuntimeError(
            "An Expr instance cannot be evaluated as bool. "
            "Please use chainer.utils.type_check.eval() to evaluate an expression."
        )

    def __iter__(self):
        # Without this, Python would iterate through __getitem__ and never stop.
        raise TypeError(
            f"cannot iterate over the expression {self}; "
            "use chainer.utils.type_check.eval() to get its value first"
        )

    def __call__(self, *args: Any) -> Call:
        return Call(self, args)

    def __getitem__(self, key: Any) -> GetItem:
        return GetItem(self, key)

    def __getattr__(self, name: str) -> GetAttr:
        # Private and special names are never members of the checked value.
        if name.startswith("_"):
            raise AttributeError(name)
        return GetAttr(self, name)

    __eq__ = _comparison("==", "!=", operator.eq)
    __ne__ = _comparison("!=", "==", operator.ne)
    __lt__ = _comparison("<", ">=", operator.lt)
    __le__ = _comparison("<=", ">", operator.le)
    __gt__ = _comparison(">", "<=", operator.gt)
    __ge__ = _comparison(">=", "<", operator.ge)

    __add__ = _binary("+", 4, operator.add)
    __radd__ = _reflected("+", 4, operator.add)
    __sub__ = _binary("-", 4, operator.sub)
    __rsub__ = _reflected("-", 4, operator.sub)
    __mul__ = _binary("*", 5, operator.mul)
    __rmul__ = _reflected("*", 5, operator.mul)
    __truediv__ = _binary("/", 5, operator.truediv)
    __rtruediv__ = _reflected("/", 5, operator.truediv)
    __floordiv__ = _binary("//", 5, operator.floordiv)
    __rfloordiv__ = _reflected("//", 5, operator.floordiv)
    __mod__ = _binary("%", 5, operator.mod)
    __rmod__ = _reflected("%", 5, operator.mod)
    __pow__ = _binary("**", 7, operator.pow, right_associative=True)
    __rpow__ = _reflected("**", 7, operator.pow, right_associative=True)
    __lshift__ = _binary("<<", 3, operator.lshift)
    __rlshift__ = _reflected("<<", 3, operator.lshift)
    __rshift__ = _binary(">>", 3, operator.rshift)
    __rrshift__ = _reflected(">>", 3, operator.rshift)
    __and__ = _binary("&", 2, operator.and_)
    __rand__ = _reflected("&", 2, operator.and_)
    __xor__ = _binary("^", 1, operator.xor)
    __rxor__ = _reflected("^", 1, operator.xor)
    __or__ = _binary("|", 0, operator.or_)
    __ror__ = _reflected("|", 0, operator.or_)

    __neg__ = _unary("-", operator.neg)
    __pos__ = _unary("+", operator.pos)
    __invert__ = _unary("~", operator.invert)


class Atom(Expr):
    """An expression that never needs parentheses: a name, a constant, a member or a call."""

    def __init__(self) -> None:
        super().__init__(_ATOM_PRIORITY)


class Constant(Atom):
    """A literal value, printed with ``repr``."""

    def __init__(self, value: Any) -> None:
        super().__init__()
        self.value = value

    def __str__(self) -> str:
        return _repr(self.value)

    def eval(self) -> Any:
        return self.value


class Variable(Atom):
    """A value printed by name: ``Variable(self.in_size, 'in_size')``.

    Args:
        value: The value the expression evaluates to.
        name: The text that stands for it in messages.
    """

    def __init__(self, value: Any, name: str) -> None:
        super().__init__()
        self.value = value
        self.name = name

    def __str__(self) -> str:
        return self.name

    def eval(self) -> Any:
        return self.value


class GetAttr(Atom):
    """Attribute access ``obj.name``."""

    def __init__(self, obj: Any, name: Any) -> None:
        super().__init__()
        self._obj = obj
        self._name = name

    def __str__(self) -> str:
        name = self._name.value if isinstance(self._name, Constant) else self._name
        if isinstance(name, str):
            return f"{_wrapped(self._obj, _ATOM_PRIORITY)}.{name}"
        return f"getattr({_repr(self._obj)}, {_repr(self._name)})"

    def eval(self) -> Any:
        return getattr(_eval_expr(self._obj), _eval_expr(self._name))


def _subscript(key: Any) -> str:
    if key is Ellipsis:
        return "..."
    if isinstance(key, slice):
        parts = ["" if v is None else _repr(v) for v in (key.start, key.stop, key.step)]
        return ":".join(parts if key.step is not None else parts[:2])
    if isinstance(key, tuple):
        return ", ".join(map(_subscript, key))
    return _repr(key)


class GetItem(Atom):
    """Indexing ``obj[key]``."""

    def __init__(self, obj: Any, key: Any) -> None:
        super().__init__()
        self._obj = obj
        self._key = key

    def __str__(self) -> str:
        return f"{_wrapped(self._obj, _ATOM_PRIORITY)}[{_subscript(self._key)}]"

    def eval(self) -> Any:
        return _eval_expr(self._obj)[_eval_expr(self._key)]


class Call(Atom):
    """A call ``obj(*args)``; wrap functions in :class:`Variable` to call them lazily."""

    def __init__(self, obj: Any, args: tuple) -> None:
        super().__init__()
        self._obj = obj
        self._args = tuple(args)

    def __str__(self) -> str:
        args = ", ".join(map(_repr, self._args))
        return f"{_wrapped(self._obj, _ATOM_PRIORITY)}({args})"

    def eval(self) -> Any:
        return _eval_expr(self._obj)(*_eval_expr(self._args))


class UnaryOperator(Expr):
    """A prefix operator such as ``-x``."""

    def __init__(self, priority: int, term: Any, exp: str, func: Callable) -> None:
        super().__init__(priority)
        self._term = term
        self._exp = exp
        self._func = func

    def __str__(self) -> str:
        return self._exp + _wrapped(self._term, self._priority)

    def eval(self) -> Any:
        return self._func(_eval_expr(self._term))


class BinaryOperator(Expr):
    """An infix operator such as ``a * b``."""

    def __init__(
        self,
        priority: int,
        lhs: Any,
        rhs: Any,
        exp: str,
        func: Callable,
        right_associative: bool = False,
    ) -> None:
        super().__init__(priority)
        self._lhs = lhs
        self._rhs = rhs
        self._exp = exp
        self._func = func
        self._right_associative = right_associative

    def __str__(self) -> str:
        # An operand of equal priority needs parentheses on the side the operator does not
        # group towards: (a - b) - c prints bare, a - (b - c) does not.
        left = _wrapped(self._lhs, self._priority + self._right_associative)
        right = _wrapped(self._rhs, self._priority + (not self._right_associative))
        return f"{left} {self._exp} {right}"

    def eval(self) -> Any:
        return self._func(_eval_expr(self._lhs), _eval_expr(self._rhs))


class Testable:
    """A condition that :func:`expect` can test."""

    def expect(self) -> None:
        """Raise :class:`InvalidType` unless the condition holds."""
        raise NotImplementedError


class BoolBinaryOperator(BinaryOperator, Testable):
    """A comparison such as ``x.ndim == 2``; ``inv`` is the opposite operator for messages."""

    def __init__(self, lhs: Any, rhs: Any, exp: str, inv: str, func: Callable) -> None:
        super().__init__(_COMPARISON_PRIORITY, lhs, rhs, exp, func)
        self._inv = inv

    def expect(self) -> None:
        left = _eval_expr(self._lhs)
        right = _eval_expr(self._rhs)
        if not self._func(left, right):
            raise InvalidType(
                f"{self._lhs} {self._exp} {self._rhs}", f"{left} {self._inv} {right}"
            )
