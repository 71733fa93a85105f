"""``get_device``: the device a test rank should use."""

from __future__ import annotations

import chainer


def get_device(device_id=None, use_chainerx: bool = False):
    """The CPU device (``device_id`` None) or GPU ``device_id``, through ChainerX if asked.

    ``get_device()`` is ``@numpy``, ``get_device(use_chainerx=True)`` is ``native:0``,
    ``get_device(1)`` is ``@cupy:1`` and ``get_device(1, True)`` is ``cuda:1``.
    """
    if device_id is None:
        spec = "native:0" if use_chainerx else "@numpy"
    else:
        spec = f"cuda:{device_id}" if use_chainerx else f"@cupy:{device_id}"
    return chainer.get_device(spec)
