"""``Parameter``: a link that holds one array and returns it."""

from __future__ import annotations

import typing as tp

from chainer import backend, link, variable
from chainer.functions.math.identity import identity


class Parameter(link.Link):
    """Link that owns a single parameter ``W`` (a copy-free wrapper of ``array``).

    Calling the link returns ``W`` through an identity function, so gradients of whatever is
    computed from the result flow into ``W``.

    Args:
        array: The initial value; it becomes ``W.array`` itself (not a copy).

    Example:
        >>> p = L.Parameter(numpy.zeros(3, numpy.float32))
        >>> p().shape
        (3,)
    """

    def __init__(self, array: tp.Any) -> None:
        super().__init__()
        with self.init_scope():
            self.W = variable.Parameter(array)
        # The link lives where the array does (a CuPy array puts it on that GPU).
        device = backend.get_device_from_array(array)
        if device != self.device:
            self.to_device(device)

    def forward(self, volatile: tp.Any = "off") -> variable.Variable:
        """Return ``W`` as a new variable; ``volatile`` is ignored (kept for old code)."""
        del volatile
        return identity(self.W)
