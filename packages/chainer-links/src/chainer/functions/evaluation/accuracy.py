"""Multiclass accuracy: the fraction of rows whose highest score is the label."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer.function_node import Fallback, FunctionNode
from chainer.utils.type_check import InvalidType
from chainer.variable import Variable

_get_array_module = backend.get_array_module
_INTEGERS = (int, numpy.integer)


def check_scores_and_labels(in_data: tuple) -> None:
    """Scores ``y`` ``(N, C, d...)`` (float) against labels ``t`` ``(N, d...)`` (int).

    ``y`` may have trailing axes of length one beyond those of ``t``. Shared by the
    evaluation functions that take an argmax over axis 1.
    """
    if len(in_data) != 2:
        raise InvalidType("in_types.size() == 2", f"in_types.size() == {len(in_data)}")
    y, t = in_data
    if y.dtype.kind != "f":
        raise InvalidType("y.dtype.kind == f", f"y.dtype.kind == {y.dtype.kind} ({y.dtype})")
    if t.dtype.kind != "i":
        raise InvalidType("t.dtype.kind == i", f"t.dtype.kind == {t.dtype.kind} ({t.dtype})")
    n = t.ndim
    if (
        y.ndim <= n
        or y.shape[0] != t.shape[0]
        or y.shape[2 : n + 1] != t.shape[1:]
        or any(d != 1 for d in y.shape[n + 1 :])
    ):
        raise InvalidType(
            "y.shape[0] == t.shape[0], y.shape[2:t.ndim + 1] == t.shape[1:] and the "
            "remaining axes of y have length 1",
            f"y.shape == {y.shape}, t.shape == {t.shape}",
        )


class Accuracy(FunctionNode):
    """Accuracy of scores ``y`` against labels ``t`` (not differentiable)."""

    def __init__(self, ignore_label=None) -> None:
        self.ignore_label = ignore_label

    def _check_arrays(self, in_data: tuple) -> None:
        check_scores_and_labels(in_data)

    def forward(self, inputs: tuple) -> tuple:
        y, t = inputs
        xp = _get_array_module(y)
        match = y.argmax(axis=1).reshape(t.shape) == t
        if self.ignore_label is None:
            total = t.size
        else:
            kept = t != self.ignore_label
            match &= kept
            total = kept.sum()
        # Counts stay on the device (no host sync); the ratio is formed in float64 because a
        # float16 sum stops counting at 2048. With nothing to score the accuracy is 0.
        return (xp.asarray(match.sum() / xp.maximum(total, 1), dtype=y.dtype),)

    def forward_chainerx(self, inputs: tuple):
        import chainerx

        y, t = inputs
        ignore_label = self.ignore_label
        if ignore_label is not None and not isinstance(ignore_label, _INTEGERS):
            return Fallback
        if t.size == 0:  # chainerx.accuracy gives NaN here; with nothing to score it is 0
            return (chainerx.zeros((), y.dtype, y.device),)
        if y.ndim > t.ndim + 1:  # ChainerX takes no trailing axes of length one
            y = y.reshape(y.shape[: t.ndim + 1])
        label = None if ignore_label is None else int(ignore_label)
        return (chainerx.accuracy(y, t, label),)


def accuracy(y, t, ignore_label=None) -> Variable:
    """Fraction of the labels ``t`` that equal the argmax of the scores ``y`` over axis 1.

    Args:
        y: Scores of shape ``(N, C, d1, ..., dk)`` (float).
        t: Integer labels of shape ``(N, d1, ..., dk)``.
        ignore_label: Label value left out of both the count and the total (None: none).

    Returns:
        A scalar variable of the dtype of ``y`` (0 when no label is counted). It is not
        differentiable.

    Example:
        >>> y = numpy.array([[0.1, 0.7, 0.2], [0.8, 0.1, 0.1]], numpy.float32)
        >>> t = numpy.array([1, 2], numpy.int32)
        >>> F.accuracy(y, t).array
        array(0.5, dtype=float32)
    """
    return Accuracy(ignore_label).apply((y, t))[0]
