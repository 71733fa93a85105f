"""Base classes of serializers: the protocol that saves and loads objects key by key.

An object that can be saved implements ``serialize(serializer)``. It calls
``serializer('key', value)`` for each array or scalar it owns and
``child.serialize(serializer['child'])`` for each serializable child. The same method serves
both directions: a :class:`Serializer` stores ``value`` and returns it unchanged, a
:class:`Deserializer` loads the stored value and returns it (copying into ``value`` in place
when ``value`` is an array). So an object writes ``self.t = serializer('t', self.t)`` for a
scalar and ``serializer('W', self.W)`` for an array.

Example:
    >>> class Counter:
    ...     def __init__(self):
    ...         self.count = 0
    ...         self.table = numpy.zeros(3, dtype=numpy.float32)
    ...     def serialize(self, serializer):
    ...         self.count = serializer('count', self.count)
    ...         serializer('table', self.table)
"""

from __future__ import annotations

from typing import Any


class AbstractSerializer:
    """Abstract base class of all serializers and deserializers.

    A concrete class implements ``__getitem__`` (the serializer of a child, one level down the
    hierarchy of keys) and ``__call__`` (save or load one value).
    """

    def __getitem__(self, key: str) -> AbstractSerializer:
        """Return the serializer for the child object named ``key``."""
        raise NotImplementedError(f"{type(self).__name__} does not implement __getitem__")

    def __call__(self, key: str, value: Any) -> Any:
        """Save or load the value named ``key``.

        Args:
            key: Name of the value within the current level of the hierarchy.
            value: When saving, the value: an array of any device, a
                :class:`~chainer.Variable`, a number, a string or ``None``. When loading,
                the current value, which decides the form of the result: an array or
                Variable is filled in place (an uninitialized :class:`~chainer.Parameter`
                is first initialized to the stored shape), a scalar gives the loaded value
                converted to its type, and ``None`` gives the loaded NumPy array.

        Returns:
            The value itself when saving. When loading, the filled array or Variable, the
            converted scalar or the loaded array; ``None`` if ``None`` was saved.

        Raises:
            KeyError: Loading strictly and the value is missing.
            ValueError: The stored shape or dtype does not fit ``value``.
        """
        raise NotImplementedError(f"{type(self).__name__} does not implement __call__")


class Serializer(AbstractSerializer):
    """Base class of all serializers (the saving direction)."""

    def save(self, obj: Any) -> None:
        """Save ``obj`` by calling its ``serialize`` method with this serializer; a ``dict``
        without one is saved key by key (as v7 did)."""
        if isinstance(obj, dict) and not hasattr(obj, "serialize"):
            for key, value in obj.items():
                self(key, value)
        else:
            obj.serialize(self)


class Deserializer(AbstractSerializer):
    """Base class of all deserializers (the loading direction)."""

    def load(self, obj: Any) -> None:
        """Load ``obj`` by calling its ``serialize`` method with this deserializer."""
        obj.serialize(self)
