"""Walking a tree of links: the traversal order, paths and text that ``chainer.link`` relies on.

Every walk keeps an explicit stack and builds each link's path once, so it costs
O(number of links) however deep the tree is (recursive generators would cost O(depth) per
yielded item, and re-prefixing paths at every level O(depth) string work per parameter).

A link tells the walks its direct children in traversal order through ``link._child_links()``
(a sequence of links) and ``link._named_children()`` (a sequence of ``(name, link)`` pairs).
"""

from __future__ import annotations

import copy
import typing as tp
from collections.abc import Iterator, Sequence

import numpy

from chainer.backend import copyto, get_array_types

if tp.TYPE_CHECKING:
    from chainer.link import Link

COPY_MODES = ("init", "copy", "share")


def check_copy_mode(mode: str) -> None:
    """Raise ``ValueError`` unless ``mode`` is one of :data:`COPY_MODES`."""
    if mode not in COPY_MODES:
        raise ValueError(f"mode must be 'init', 'copy' or 'share', but {mode!r} was given")


def insert_name(names: tuple, name: str) -> tuple:
    """``names`` (a sorted tuple) with ``name`` added."""
    # Registered names are kept as a sorted tuple, so traversal needs no sorting per call.
    return names if name in names else tuple(sorted((*names, name)))


def remove_name(names: tuple, name: str) -> tuple:
    """``names`` without ``name``."""
    return tuple(n for n in names if n != name) if name in names else names


def shape_and_dtype(value: tp.Any) -> tuple:
    """Read an old-style ``Link(W=...)`` value: a shape, or a ``(shape, dtype)`` pair."""
    integers = (int, numpy.integer)
    if value is None or isinstance(value, integers):
        return value, numpy.float32
    if isinstance(value, Sequence) and all(isinstance(v, integers) for v in value):
        return tuple(value), numpy.float32
    if isinstance(value, Sequence) and len(value) == 2:
        return value[0], value[1]
    raise TypeError(
        f"a parameter given to Link() must be a shape or a (shape, dtype) pair, got {value!r}"
    )


def walk_links(root: Link) -> Iterator[Link]:
    """``root`` and its descendants, depth first, children in order."""
    stack = [root]
    pop = stack.pop
    push = stack.extend
    while stack:
        link = pop()
        yield link
        children = link._child_links()
        if children:
            push(reversed(children))


def walk_named_links(root: Link) -> Iterator[tuple[str, Link]]:
    """``(path, link)`` for ``root`` (path ``''``) and its descendants (``'/l1'``, ...)."""
    stack = [("", root)]
    while stack:
        item = stack.pop()
        yield item
        prefix, link = item
        children = link._named_children()
        if children:
            stack.extend([(f"{prefix}/{name}", child) for name, child in reversed(children)])


def walk_pairs(mine: Link, theirs: Link) -> Iterator[tuple[Link, Link]]:
    """Corresponding links of two trees of the same structure, ``mine`` driving the walk.

    Raises:
        KeyError: ``theirs`` lacks a child that ``mine`` has.
    """
    stack = [(mine, theirs)]
    while stack:
        pair = stack.pop()
        yield pair
        children = pair[0]._named_children()
        if not children:
            continue
        their_children = dict(pair[1]._named_children())
        for name, child in reversed(children):
            if name not in their_children:
                raise KeyError(
                    f"the other {type(pair[1]).__name__} has no child link {name!r}: the two "
                    "links must have the same structure"
                )
            stack.append((child, their_children[name]))


def their_param(theirs: Link, name: str) -> tp.Any:
    """The parameter ``name`` of ``theirs``, or a ``KeyError`` explaining the mismatch."""
    if name not in theirs._params:
        raise KeyError(
            f"the other {type(theirs).__name__} has no parameter {name!r}: the two links must "
            "have the same structure"
        )
    return theirs.__dict__[name]


def add_grads(dst: Link, src: Link) -> None:
    """Add the gradient of each parameter of ``src`` to the same parameter of ``dst``."""
    for mine, theirs in walk_pairs(dst, src):
        attrs = mine.__dict__
        for name in mine._params:
            attrs[name].addgrad(their_param(theirs, name))


def copy_params(dst: Link, src: Link, copy_persistent: bool) -> None:
    """Copy the initialized parameters (and persistent values) of ``src`` into ``dst``."""
    array_types = get_array_types()
    for mine, theirs in walk_pairs(dst, src):
        attrs = mine.__dict__
        for name in mine._params:
            source = their_param(theirs, name)
            if source._array is not None:
                target = attrs[name]
                if target._array is None:
                    # Made on the target's own device (as in v7), then filled.
                    target.initialize(source.shape)
                target.copydata(source)
        if not copy_persistent:
            continue
        for name in mine._persistent:
            value = theirs.__dict__[name]
            if isinstance(attrs[name], array_types) and isinstance(value, array_types):
                copyto(attrs[name], value)
            else:
                object.__setattr__(mine, name, copy.deepcopy(value))


def tree_text(owner: Link, entries: tp.Iterable[tuple[str, tp.Any]]) -> str:
    """``'Owner(\\n  (key): entry,\\n  ...)'`` with each entry's own lines indented."""
    lines: list[str] = []
    for key, entry in entries:
        lines.extend(f"  {line}\n" for line in f"({key}): {entry},".splitlines())
    body = "\n" + "".join(lines) if lines else ""
    return f"{type(owner).__name__}({body})"
