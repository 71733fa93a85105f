"""``using_device`` and ``DeviceScope``: a default-device scope for ``with`` statements."""

from types import TracebackType

from chainerx._core import Device, get_default_device, get_device, set_default_device


class DeviceScope:
    """Makes a device this thread's default device between ``__enter__`` and ``__exit__``.

    ``__exit__`` restores the device that was the default when the scope was entered. It takes
    the usual exception arguments, all optional, so a scope can also be closed by hand.
    """

    def __init__(self, device: Device) -> None:
        self.device = device
        self._previous: list[Device] = []

    def __enter__(self) -> Device:
        self._previous.append(get_default_device())
        set_default_device(self.device)
        return self.device

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
