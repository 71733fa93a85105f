"""``Sequential``: a model that applies its layers one after the other."""

from __future__ import annotations

import ast
import copy as copy_module
import inspect
import textwrap
import typing as tp
from collections.abc import Callable, Iterable, Iterator

from chainer import _link_tree
from chainer.link import ChainList, Link

__all__ = ["Sequential"]

_SequentialT = tp.TypeVar("_SequentialT", bound="Sequential")


def _lambda_text(function: Callable) -> str:
    # A lambda prints as its source ("lambda x: x * 2"), as in Chainer; the expression is cut
    # out of its line when that line holds exactly one lambda.
    try:
        source = textwrap.dedent(inspect.getsource(function)).strip()
    except (OSError, TypeError):  # defined in an interactive session: no source file
        return repr(function)
    try:
        lambdas = [node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Lambda)]
    except SyntaxError:  # the lambda's lines are not a complete statement on their own
        lambdas = []
    if len(lambdas) == 1:
        return ast.get_source_segment(source, lambdas[0]) or source
    return source.rstrip(",")


def _layer_type_name(layer: Callable) -> str:
    # Links are named by class ("Linear"), functions by name ("relu", "<lambda>").
    if isinstance(layer, Link):
        return type(layer).__name__
    return getattr(layer, "__name__", type(layer).__name__)


class Sequential(ChainList):
    """A link that calls its layers in order, each on the previous one's output.

    Layers are links or any other callables (functions such as ``F.relu``, lambdas). Only the
    links are children (named by their position among the links, ``'/0/W'``, ``'/1/W'``, as
    in Chainer), so only they own parameters. A layer that returns a tuple passes it to the
    next layer as separate arguments.

    A Sequential behaves like a list of its layers: ``len``, iteration, ``in``, indexing
    (a slice gives a new Sequential of the same layer objects), assignment, ``del``,
    ``append``, ``extend``, ``insert``, ``pop``, ``remove``, ``clear``, ``index``, ``count``,
    ``+`` (another Sequential) and ``*`` (repetition, each repetition re-initialized as
    :meth:`~chainer.Link.repeat` does).

    Args:
        layers: The initial layers.

    Example:
        >>> model = chainer.Sequential(L.Linear(None, 10), lambda h: h * 2, L.Linear(None, 3))
        >>> y = model(numpy.ones((4, 5), numpy.float32))  # y.shape == (4, 3)
        >>> [path for path, _ in model.namedparams()]
        ['/0/W', '/0/b', '/1/W', '/1/b']
    """

    def __init__(self, *layers: Callable) -> None:
        super().__init__()
        self._layers: list[Callable] = []
        for layer in layers:
            self.append(layer)

    def _sync_children(self, rename: bool = True) -> None:
        # The links among the layers are the children, numbered in layer order.
        self._children = [layer for layer in self._layers if isinstance(layer, Link)]
        if rename:
            self._rename_children()

    @staticmethod
    def _check_layer(layer: tp.Any) -> None:
        if not callable(layer):
            raise ValueError(f"every layer of a Sequential must be callable, got {layer!r}")

    # -- the sequence of layers ---------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._layers)

    def __iter__(self) -> Iterator[Callable]:  # type: ignore[override]  # functions too (v7)
        return iter(self._layers)

    def __reversed__(self) -> Iterator[Callable]:
        return reversed(self._layers)

    def __contains__(self, layer: tp.Any) -> bool:
        return layer in self._layers

    def __getitem__(self, index: int | slice) -> tp.Any:
        """The layer at ``index``; a slice gives a new Sequential of those layers (their
        ``name`` stays the one given by this Sequential)."""
        if isinstance(index, slice):
            part = Sequential()
            part._layers = self._layers[index]
            part._sync_children(rename=False)
            return part
        return self._layers[index]

    def __setitem__(self, index: int | slice, layer: tp.Any) -> None:
        if isinstance(index, slice):
            layer = list(layer)
            for each in layer:
                self._check_layer(each)
        else:
            self._check_layer(layer)
        self._layers[index] = layer
        self._sync_children()

    def __delitem__(self, index: int | slice) -> None:
        del self._layers[index]
        self._sync_children()

    def insert(self, i: int, layer: Callable) -> None:
        """Insert ``layer`` before position ``i`` (``-len(self) <= i <= len(self)``).

        Raises:
            IndexError: ``i`` is out of that range.
            ValueError: ``layer`` is not callable.
        """
        n = len(self._layers)
        if not -n <= i <= n:
            raise IndexError(f"insert index {i} is out of range for a Sequential of {n} layers")
        self._check_layer(layer)
        self._layers.insert(i, layer)
        self._sync_children()

    def append(self, layer: Callable) -> None:
        """Add ``layer`` at the end."""
        self.insert(len(self._layers), layer)

    def extend(self, sequential: Iterable[Callable]) -> None:
        """Append every layer of ``sequential`` (a Sequential or any iterable of callables)."""
        layers = list(sequential)  # a copy first, so that s.extend(s) works
        for layer in layers:
            self._check_layer(layer)
        self._layers.extend(layers)
        self._sync_children()

    def pop(self, i: int = -1) -> Callable:
        """Remove and return the layer at position ``i`` (the last one by default)."""
        layer = self._layers.pop(i)
        self._sync_children()
        return layer

    def remove(self, layer: Callable) -> None:
        """Remove the first occurrence of ``layer``.

        Raises:
            ValueError: ``layer`` is not in this Sequential.
        """
        if layer not in self._layers:
            raise ValueError(f"{layer!r} is not a layer of this Sequential")
        self._layers.remove(layer)
        self._sync_children()

    def clear(self) -> None:
        """Remove every layer."""
        self._layers.clear()
        self._sync_children()

    def index(self, layer: Callable, start: int | None = None, end: int | None = None) -> int:
        """Position of the first occurrence of ``layer`` in ``self[start:end]``.

        Raises:
            ValueError: ``layer`` does not occur there.
        """
        n = len(self._layers)
        start = 0 if start is None else start
        end = n if end is None else end
        try:
            return self._layers.index(layer, start, end)
        except ValueError:
            raise ValueError(f"{layer!r} is not a layer of this Sequential") from None

    def count(self, layer: Callable) -> int:
        """Number of occurrences of ``layer``."""
        return self._layers.count(layer)

    def count_by_layer_type(self, type_name: str) -> int:
        """Number of layers whose type is ``type_name``: a link class name (``'Linear'``) or a
        function name (``'relu'``, ``'<lambda>'``)."""
        return sum(_layer_type_name(layer) == type_name for layer in self._layers)

    def remove_by_layer_type(self, type_name: str) -> None:
        """Remove every layer whose type is ``type_name`` (see :meth:`count_by_layer_type`)."""
        self._layers = [layer for layer in self._layers if _layer_type_name(layer) != type_name]
        self._sync_children()

    def __add__(self, other: Sequential) -> Sequential:
        _check_sequential(other, "+")
        return Sequential(*self._layers, *other._layers)

    def __iadd__(self, other: Sequential) -> Sequential:  # type: ignore[override]  # v7
        _check_sequential(other, "+=")
        self.extend(other)
        return self

    def __mul__(self, n_repeat: int) -> Sequential:
        """The layers repeated ``n_repeat`` times, each repetition a re-initialized copy."""
        ret = Sequential()
        for copied in self.repeat(n_repeat, mode="init"):
            ret.extend(tp.cast(Sequential, copied))
        return ret

    __rmul__ = __mul__

    def __imul__(self, n_repeat: int) -> Sequential:
        if n_repeat <= 0:
            self.clear()
        else:
            self.extend((self * (n_repeat - 1))._layers)
        return self

    # -- computation, copies, text ---------------------------------------------------------

    def forward(self, *x: tp.Any) -> tp.Any:
        """Apply the layers in order; a tuple result is unpacked into the next layer's
        arguments.

        Raises:
            RuntimeError: The Sequential has no layer.
        """
        if not self._layers:
            raise RuntimeError("this Sequential has no layer to apply: append layers first")
        for layer in self._layers:
            x = layer(*x) if isinstance(x, tuple) else layer(x)
        return x

    def _copy_shared(self: _SequentialT) -> _SequentialT:
        ret = Link._copy_shared(self)  # the links are copied below, within the layer list
        ret._layers = [
            layer._copy_shared() if isinstance(layer, Link) else copy_module.copy(layer)
            for layer in self._layers
        ]
        ret._sync_children()
        return ret

    def flatten(self) -> Sequential:
        """Return a new Sequential with the layers of nested Sequentials spliced in,
        recursively (the layer objects themselves are not copied)."""
        ret = Sequential()
        for layer in self._layers:
            ret.extend(layer.flatten() if isinstance(layer, Sequential) else [layer])
        return ret

    def __str__(self) -> str:
        return _link_tree.tree_text(
            self,
            (
                (str(index), _lambda_text(layer) if _is_lambda(layer) else str(layer))
                for index, layer in enumerate(self._layers)
            ),
        )


def _is_lambda(layer: Callable) -> bool:
    return getattr(layer, "__name__", None) == "<lambda>"


def _check_sequential(other: object, operator: str) -> None:
    # v7 raises ValueError here (not TypeError).
    if not isinstance(other, Sequential):
        raise ValueError(
            f"Sequential {operator} needs another Sequential, got {type(other).__name__}"
        )
