"""Collecting observed values (losses, accuracies, ...) and summarizing them.

A :class:`Reporter` writes reported values into an *observation*, a dictionary from names to
values. Values reported on behalf of a registered *observer* (usually a link) are named
``'<observer name>/<key>'``; the trainer registers the target link as ``'main'`` and its
descendants by their :meth:`~chainer.Link.namedlinks` paths, so a value ``'loss'`` reported by
the child ``predictor`` appears as ``'main/predictor/loss'``.

Example:
    >>> reporter = Reporter()
    >>> observer = object()
    >>> reporter.add_observer('my_observer', observer)
    >>> observation = {}
    >>> with reporter.scope(observation):
    ...     report({'x': 1}, observer)
    >>> observation
    {'my_observer/x': 1}
"""

from __future__ import annotations

import contextlib
import numbers
import threading
import warnings
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import numpy

from chainer import backend
from chainer.configuration import config
from chainer.serializer import AbstractSerializer, Deserializer
from chainer.variable import Variable

_local = threading.local()


def _reporter_stack() -> list[Reporter]:
    stack = getattr(_local, "reporters", None)
    if stack is None:
        stack = _local.reporters = []
    return stack


class Reporter:
    """Object to which observed values are reported.

    Entering the reporter as a context manager (``with reporter:``) makes it the *current*
    reporter of this thread, the one that the module-level :func:`report` writes to.

    Attributes:
        observation: The dictionary that reported values are written into; :meth:`scope`
            swaps it for the duration of a ``with`` block.
    """

    def __init__(self) -> None:
        # id(observer) -> (name, observer). The observer is kept alive so that its id cannot
        # be reused by another object while it is registered.
        self._observers: dict[int, tuple[str, Any]] = {}
        self.observation: dict[str, Any] = {}

    def __enter__(self) -> Reporter:
        _reporter_stack().append(self)
        return self

    def __exit__(self, *exc_info) -> None:
        _reporter_stack().pop()

    @contextlib.contextmanager
    def scope(self, observation: dict) -> Iterator[None]:
        """Make this reporter current and write reported values into ``observation``.

        The previous observation dictionary is restored when the ``with`` block ends.
        """
        previous = self.observation
        self.observation = observation
        try:
            with self:
                yield
        finally:
            self.observation = previous

    def add_observer(self, name: str, observer: Any) -> None:
        """Register ``observer`` under ``name``; its values are reported as ``name/key``."""
        self._observers[id(observer)] = (name, observer)

    def add_observers(self, prefix: str, observers: Iterable[tuple[str, Any]]) -> None:
        """Register ``(name, observer)`` pairs under ``prefix + name`` each.

        Example:
            >>> model = chainer.Sequential(L.Linear(3, 4), L.Linear(4, 2))
            >>> reporter = chainer.Reporter()
            >>> reporter.add_observers('main', model.namedlinks(skipself=True))
            >>> observation = {}
            >>> with reporter.scope(observation):
            ...     reporter.report({'loss': 0.5}, model[1])
            >>> observation
            {'main/1/loss': 0.5}
        """
        for name, observer in observers:
            self.add_observer(prefix + name, observer)

    def report(self, values: Mapping[str, Any], observer: Any = None) -> None:
        """Write ``values`` into the current observation.

        Args:
            values: Names to observed values (arrays, scalars, Variables, ...).
            observer: If given, a registered observer whose name prefixes every key
                (``'<observer name>/<key>'``).

        Unless ``chainer.config.keep_graph_on_report`` is ``True``, a reported
        :class:`~chainer.Variable` is stored as a copy cut from its computational graph, so
        the graph can be freed as soon as the training step ends.

        Raises:
            KeyError: ``observer`` was not registered with :meth:`add_observer`.
        """
        if not isinstance(values, Mapping):
            raise TypeError(
                f"Reporter.report expects a dict of name to value, got {type(values).__name__}"
            )
        if not config.keep_graph_on_report:
            values = {key: _without_graph(value) for key, value in values.items()}
        if observer is None:
            self.observation.update(values)
            return
        registered = self._observers.get(id(observer))
        if registered is None:
            raise KeyError(
                f"the observer {observer!r} is not registered to the reporter; register it "
                "first with reporter.add_observer(name, observer)"
            )
        prefix = registered[0]
        for key, value in values.items():
            self.observation[f"{prefix}/{key}"] = value


def _without_graph(value: Any) -> Any:
    if not isinstance(value, Variable):
        return value
    return Variable(value.array, name=value.name, requires_grad=value.requires_grad)


def get_current_reporter() -> Reporter:
    """Return the current reporter of this thread (the innermost one entered).

    Raises:
        IndexError: No reporter is current.
    """
    stack = _reporter_stack()
    if not stack:
        raise IndexError(
            "no reporter is current in this thread: enter one with `with reporter:` or "
            "`with reporter.scope(observation):`"
        )
    return stack[-1]


def report(values: Mapping[str, Any], observer: Any = None) -> None:
    """Report ``values`` to the current reporter; do nothing if there is none.

    Links call this from ``forward`` (``chainer.report({'loss': loss}, self)``); the trainer
    provides the reporter, so the same code runs silently outside training.
    """
    stack = _reporter_stack()
    if stack:
        stack[-1].report(values, observer)


@contextlib.contextmanager
def report_scope(observation: dict) -> Iterator[None]:
    """Redirect the current reporter's values into ``observation`` inside a ``with`` block.

    Raises:
        IndexError: No reporter is current.
    """
    with get_current_reporter().scope(observation):
        yield


def _device_context(value: Any) -> contextlib.AbstractContextManager:
    # Only device arrays need their device made current; host values skip the lookup.
    if isinstance(value, (numbers.Number, numpy.generic, numpy.ndarray)):
        return contextlib.nullcontext()
    return backend.get_device_from_array(value).create_context()


class Summary:
    """Online summarization of a sequence of scalars (weighted mean and standard deviation).

    Values stay on their device: adding a CuPy scalar does no host transfer, and the results
    are arrays of that device.

    Example:
        >>> summary = Summary()
        >>> summary.add(1.0)
        >>> summary.add(3.0)
        >>> mean, std = summary.make_statistics()
        >>> float(mean), float(std)
        (2.0, 1.0)
    """

    def __init__(self) -> None:
        self._x: Any = 0.0
        self._x2: Any = 0.0
        self._n: Any = 0

    def add(self, value: Any, weight: Any = 1) -> None:
        """Add a scalar (number, 0-d array or Variable) with the given weight."""
        if isinstance(value, Variable):
            value = value.array
        if isinstance(weight, Variable):
            weight = weight.array
        with _device_context(value):
            weighted = weight * value
            self._x = self._x + weighted
            self._x2 = self._x2 + weighted * value
            self._n = self._n + weight

    def compute_mean(self) -> Any:
        """Return the weighted mean of the added values."""
        self._check_not_empty()
        with _device_context(self._x):
            return self._x / self._n

    def make_statistics(self) -> tuple[Any, Any]:
        """Return the weighted mean and standard deviation of the added values."""
        self._check_not_empty()
        xp = backend.get_array_module(self._x)
        with _device_context(self._x):
            mean = self._x / self._n
            # Rounding can make E[x^2] - E[x]^2 slightly negative for constant values.
            variance = xp.maximum(self._x2 / self._n - mean * mean, 0)
            return mean, xp.sqrt(variance)

    def _check_not_empty(self) -> None:
        if isinstance(self._n, numbers.Number) and self._n == 0:
            raise ZeroDivisionError("the summary is empty (or its total weight is zero)")

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load the running sums; loading a file without them warns and keeps them."""
        if isinstance(serializer, Deserializer):
            try:
                # Loaded with None as the current value so the stored dtype survives
                # (an int count must not truncate a float total weight).
                loaded = [serializer(key, None) for key in ("_x", "_x2", "_n")]
            except KeyError:
                warnings.warn("The previous statistics are not saved.", stacklevel=2)
                return
            self._x, self._x2, self._n = (
                current if value is None else numpy.asarray(value)[()]
                for current, value in zip((self._x, self._x2, self._n), loaded)
            )
        else:
            serializer("_x", self._x)
            serializer("_x2", self._x2)
            serializer("_n", self._n)


def _is_scalar(value: Any) -> bool:
    if isinstance(value, (str, bytes)):
        return False
    if isinstance(value, (numbers.Number, numpy.generic)):
        return True
    return getattr(value, "ndim", None) == 0


class DictSummary:
    """Online summarization of a sequence of dictionaries, one :class:`Summary` per key.

    Values that are not scalars (arrays with dimensions, strings, other objects) are ignored,
    so a whole observation can be added. A value may be a ``(value, weight)`` tuple.

    Example:
        >>> summary = DictSummary()
        >>> summary.add({'loss': 1.0, 'accuracy': 0.5})
        >>> summary.add({'loss': 3.0, 'accuracy': (1.0, 3)})
        >>> summary.compute_mean()
        {'loss': 2.0, 'accuracy': 0.875}
    """

    def __init__(self) -> None:
        self._summaries: dict[str, Summary] = {}

    def add(self, d: Mapping[str, Any]) -> None:
        """Add the scalar values of ``d`` (each may be a ``(value, weight)`` tuple)."""
        for key, value in d.items():
            weight = 1
            if isinstance(value, tuple):
                value, weight = value
                if isinstance(weight, Variable):
                    weight = weight.array
                if not _is_scalar(weight):
                    raise ValueError(
                        f"the weight given for {key!r} must be a scalar or a 0-d array, got "
                        f"{weight!r}"
                    )
            if isinstance(value, Variable):
                value = value.array
            if _is_scalar(value):
                self._summaries.setdefault(key, Summary()).add(value, weight=weight)

    def compute_mean(self) -> dict[str, Any]:
        """Return the mean of every key."""
        return {key: summary.compute_mean() for key, summary in self._summaries.items()}

    def make_statistics(self) -> dict[str, Any]:
        """Return the mean of every key and its standard deviation under ``key + '.std'``."""
        statistics = {}
        for key, summary in self._summaries.items():
            mean, std = summary.make_statistics()
            statistics[key] = mean
            statistics[key + ".std"] = std
        return statistics

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load every summary; loading replaces the current ones (a file without
        statistics empties them, with a warning)."""
        # Keys contain '/', the serializers' path separator, so summaries are stored by
        # position and the keys as one JSON string. (json is imported here: only a saved or
        # loaded trainer needs it, and it costs a millisecond at `import chainer`.)
        import json

        if isinstance(serializer, Deserializer):
            try:
                names = json.loads(serializer("_names", ""))
            except KeyError:
                # v7: a file without statistics (an older format) starts them afresh.
                self._summaries = {}
                warnings.warn("The names of statistics are not saved.", stacklevel=2)
                return
            self._summaries = {name: Summary() for name in names}
        else:
            serializer("_names", json.dumps(list(self._summaries)))
        for index, summary in enumerate(self._summaries.values()):
            summary.serialize(serializer["_summaries"][str(index)])
