"""Final methods: methods that subclasses must not override.

A class hierarchy opts in by deriving from :func:`enable_final`; its methods decorated with
:func:`final` are then checked whenever a subclass is defined::

    class Base(chainer.utils.enable_final()):
        @chainer.utils.final
        def run(self): ...

    class Derived(Base):
        def run(self): ...   # TypeError when this class statement runs
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from chainer.utils import argument

# The attribute a final method carries: what to do when it is overridden.
_ACTION = "__chainer_final_action__"


class _FinalChecking(type):
    """Metaclass that checks a new class against the final methods of its bases."""

    def __init__(cls, name: str, bases: tuple, namespace: dict, **kwargs: Any) -> None:
        super().__init__(name, bases, namespace, **kwargs)
        for attr in namespace:
            for base in cls.__mro__[1:]:
                action = getattr(vars(base).get(attr), _ACTION, None)
                if action is not None:
                    _report(
                        action,
                        f"{cls.__qualname__}.{attr} overrides the final method "
                        f"{base.__qualname__}.{attr}",
                    )
                    break


def _report(action: type[Exception], message: str) -> None:
    if issubclass(action, Warning):
        # Point at the class statement that overrides: this frame, the metaclass, the class.
        warnings.warn(message, action, stacklevel=3)
    else:
        raise action(message)


def _as_tuple(value: Any) -> tuple:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def enable_final(base: Any = (), meta_base: Any = ()) -> type:
    """Return a base class under which :func:`final` methods are enforced.

    Args:
        base: A class or classes the returned class derives from.
        meta_base: A metaclass or metaclasses to combine with the checking one; name here every
            metaclass the hierarchy uses (e.g. ``abc.ABCMeta``) to avoid a metaclass conflict.
    """
    metas = _as_tuple(meta_base)
    meta = type("_FinalChecking", (_FinalChecking, *metas), {}) if metas else _FinalChecking
    return meta("FinalEnabled", _as_tuple(base), {})


def final(*args: Any, **kwargs: Any) -> Callable:
    """Declare a method final (use as ``@final`` or ``@final(action=...)``).

    Overriding it in a subclass of an :func:`enable_final` class triggers ``action`` when the
    subclass is defined: an exception class is raised, a warning category is warned.

    Args:
        action: ``TypeError`` by default; e.g. ``DeprecationWarning`` to only warn.
    """
    (action,) = argument.parse_kwargs(kwargs, ("action", TypeError))
    if not (isinstance(action, type) and issubclass(action, BaseException)):
        raise TypeError(f"action must be an exception or warning class, got {action!r}")

    def mark(method: Callable) -> Callable:
        setattr(method, _ACTION, action)
        return method

    if not args:
        return mark
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return mark(args[0])
    raise TypeError(
        f"final() takes a method (@final) or only the keyword action (@final(action=...)), "
        f"got {args!r}"
    )
