"""Argument checks shared by the loss functions: reduction names and label ranges."""

from __future__ import annotations

import numpy

import chainer
from chainer.utils import type_check


def check_reduce(reduce, allowed: tuple[str, ...]) -> None:
    """Raise ``ValueError`` unless ``reduce`` is one of ``allowed``.

    Args:
        reduce: The reduction option given by the user.
        allowed: The names the function accepts, e.g. ``('mean', 'no')``.
    """
    if reduce not in allowed:
        names = " and ".join(repr(name) for name in allowed)
        raise ValueError(f"only {names} are valid for 'reduce', but {reduce!r} is given")


def check_labels(t, n_class: int, ignore_label=None) -> bool:
    """Check that every label lies in ``[0, n_class)`` or equals ``ignore_label``.

    On NumPy the check is two reductions over the labels, cheap next to any loss; on a GPU it
    costs a host synchronisation, so there it runs only in debug mode.

    Args:
        t: Integer label array.
        n_class: Number of classes.
        ignore_label: Label value that is skipped, or ``None``.

    Returns:
        ``False`` when the labels are known to contain no ``ignore_label`` (callers then skip
        masking), ``True`` when they may contain it.

    Raises:
        ValueError: Naming the first label out of range.
    """
    if type(t) is not numpy.ndarray and not chainer.is_debug():
        return True
    size = t.size
    if size == 0:
        return False
    if size <= 32:  # a few labels: Python's min and max cost less than two NumPy reductions
        labels = t.ravel().tolist()
        low, high = min(labels), max(labels)
    else:
        low, high = int(t.min()), int(t.max())
    if 0 <= low and high < n_class:
        return ignore_label is not None and low <= ignore_label <= high
    bad = (t < 0) | (t >= n_class)
    if ignore_label is not None:
        bad &= t != ignore_label
    if bad.any():
        value = int(t[bad].ravel()[0])
        allowed = f"[0, {n_class})" + (
            "" if ignore_label is None else f" or equal ignore_label={ignore_label}"
        )
        raise ValueError(f"labels t must lie in {allowed} (n_class={n_class}), got {value}")
    return True


def expect_matching_floats(in_types, names: tuple[str, ...]) -> None:
    """Type-check inputs that must share one floating dtype and one shape."""
    type_check.argname(in_types, names)
    first = in_types[0]
    type_check.expect(first.dtype.kind == "f")
    for other in in_types[1:]:
        type_check.expect(first.dtype == other.dtype, first.shape == other.shape)
