"""``using_device``: a default-device scope for ``with`` statements."""

from collections.abc import Iterator
from contextlib import contextmanager

from chainerx._core import Device, get_default_device, get_device, set_default_device


@contextmanager
def using_device(device: Device | str, index: int | None = None) -> Iterator[Device]:
    """Makes ``device`` this thread's default device inside the ``with`` block.

    Args:
        device: A :class:`chainerx.Device`, a specifier such as ``'native:1'``, or a backend
            name used with ``index``.
        index: The device index when ``device`` is a backend name.

    Example:
        >>> with chainerx.using_device('native:1'):
        ...     chainerx.zeros((2,)).device
        native:1
    """
    target = get_device(device) if index is None else get_device(device, index)
    previous = get_default_device()
    set_default_device(target)
    try:
        yield target
    finally:
        set_default_device(previous)
