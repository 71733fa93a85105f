"""Default contexts and devices: the setters that keep their context alive, and ``with`` scopes.

The default device and the default context are per thread; the global default context is what a
thread uses until it sets its own.
"""

import threading
from types import TracebackType

from chainerx import _core
from chainerx._core import (
    Context,
    ContextError,
    Device,
    get_default_device,
    get_device,
    set_default_device,
)

# The C++ core refers to the default contexts without owning them: these references keep the
# Python objects (and so the contexts) alive while they are a default.
_global_context_ref: list[Context | None] = [None]
_thread_context_refs = threading.local()


def set_global_default_context(context: Context | None) -> None:
    """Sets the process-wide default context (``None``: no default; routines then need one)."""
    _global_context_ref[0] = context
    _core.set_global_default_context(context)


def set_default_context(context: Context | None) -> None:
    """Sets this thread's default context (``None``: the global one); resets its default device."""
    _thread_context_refs.context = context
    _core.set_default_context(context)


class _ContextScope:
    """Makes a context this thread's default between ``__enter__`` and ``__exit__``."""

    def __init__(self, context: Context) -> None:
        self.context = context
        self._previous: list[tuple[Context | None, Device | None]] = []

    def __enter__(self) -> Context:
        try:
            device = get_default_device()
        except ContextError:  # neither a thread nor a global default context
            device = None
        self._previous.append((getattr(_thread_context_refs, "context", None), device))
        set_default_context(self.context)
        return self.context

    def __exit__(
        self,
        exc_type: type[BaseException] | None = None,
        exc_value: BaseException | None = None,
        traceback: TracebackType | None = None,
    ) -> None:
        context, device = self._previous.pop()
        set_default_context(context)
        if device is not None:
            set_default_device(device)


def context_scope(context: Context) -> _ContextScope:
    """A scope that makes ``context`` this thread's default context inside the ``with`` block.

    The thread's default context and device are restored on exit. The scope takes effect when
    entered, not when created.
    """
    if not isinstance(context, Context):
        raise TypeError(f"context_scope expects a chainerx.Context, got {type(context).__name__}")
    return _ContextScope(context)


class DeviceScope:
    """Makes a device this thread's default device between ``__enter__`` and ``__exit__``.

    ``__exit__`` restores the device that was the default when the scope was entered. It takes
    the usual exception arguments, all optional, so a scope can also be closed by hand.
    """

    def __init__(self, device: Device) -> None:
        self.device = device
        self._previous: list[Device] = []

    def __enter__(self) -> "DeviceScope":
        self._previous.append(get_default_device())
        set_default_device(self.device)
        return self  # as v7: ``with using_device(d) as scope: scope.device``

    def __exit__(
        self,
        exc_type: type[BaseException] | None = None,
        exc_value: BaseException | None = None,
        traceback: TracebackType | None = None,
    ) -> None:
        if not self._previous:
            raise RuntimeError(f"DeviceScope({self.device}) exited without being entered")
        set_default_device(self._previous.pop())

    def __repr__(self) -> str:
        return f"DeviceScope({self.device})"


def using_device(device: Device | str, index: int | None = None) -> DeviceScope:
    """A scope that makes ``device`` this thread's default device inside the ``with`` block.

    Args:
        device: A :class:`chainerx.Device`, a specifier such as ``'native:1'``, or a backend
            name used with ``index``.
        index: The device index when ``device`` is a backend name.

    Example:
        >>> with chainerx.using_device('native:1'):
        ...     chainerx.zeros((2,)).device
        native:1
    """
    return DeviceScope(get_device(device) if index is None else get_device(device, index))
