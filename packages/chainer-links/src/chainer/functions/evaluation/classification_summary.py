"""Per-class precision, recall, F-beta score and support of a classifier's predictions."""

from __future__ import annotations

import contextlib

import numpy

import chainer
from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions.evaluation.accuracy import check_scores_and_labels
from chainer.variable import Variable


def _fbeta_score(xp, precision, recall, beta: float):
    beta2 = beta * beta
    with _quiet_division(xp):
        return (1 + beta2) * precision * recall / (beta2 * precision + recall)


def _quiet_division(xp):
    # A class never predicted (or never present) has an undefined precision (recall): nan,
    # as the formula gives, without a warning for every such batch.
    if xp is numpy:
        return numpy.errstate(invalid="ignore", divide="ignore")
    return contextlib.nullcontext()


class ClassificationSummary(FunctionNode):
    """Precision, recall, F-beta score and support per class (not differentiable)."""

    def __init__(self, label_num=None, beta: float = 1.0, ignore_label: int = -1) -> None:
        if label_num is not None and (not isinstance(label_num, int) or label_num < 0):
            raise ValueError(f"label_num must be a non-negative int or None, got {label_num!r}")
        self.label_num = label_num
        self.beta = beta
        self.ignore_label = ignore_label

    def _check_arrays(self, in_data: tuple) -> None:
        check_scores_and_labels(in_data)

    def forward(self, inputs: tuple) -> tuple:
        y, t = inputs
        xp = backend.get_array_module(y)
        t = t.ravel()
        kept = t != self.ignore_label
        label_num = self.label_num
        if label_num is None:
            label_num = int(t[kept].max()) + 1 if kept.any() else 0
        elif type(t) is numpy.ndarray or chainer.is_debug():
            bad = kept & ((t < 0) | (t >= label_num))
            if bad.any():
                raise ValueError(
                    f"labels t must lie in [0, {label_num}) (label_num) or equal "
                    f"ignore_label={self.ignore_label}, got {int(t[bad][0])}"
                )
        # Ignored positions are counted in an extra bin, label_num, that is cut off.
        pred = xp.where(kept, y.argmax(axis=1).ravel(), label_num)
        true = xp.where(kept, t, label_num)
        hit = xp.where(pred == true, true, label_num)

        def count(labels):
            return xp.bincount(labels, minlength=label_num + 1)[:label_num]

        support = count(true)
        relevant = count(pred)
        true_positive = count(hit)
        with _quiet_division(xp):
            precision = (true_positive / relevant).astype(y.dtype)
            recall = (true_positive / support).astype(y.dtype)
        fbeta = _fbeta_score(xp, precision, recall, self.beta).astype(y.dtype)
        return precision, recall, fbeta, support


def classification_summary(
    y, t, label_num=None, beta: float = 1.0, ignore_label: int = -1
) -> tuple[Variable, Variable, Variable, Variable]:
    """Precision, recall, F-beta score and support of the argmax predictions, per class.

    For class ``c``: precision is ``TP / (predicted c)``, recall is ``TP / (labelled c)``
    (nan when the denominator is 0), the F-beta score is
    ``(1 + beta^2) * P * R / (beta^2 * P + R)``, and the support is the number of ``c`` labels.

    Args:
        y: Scores of shape ``(N, C, d1, ..., dk)`` (float); predictions are the argmax on axis 1.
        t: Integer labels of shape ``(N, d1, ..., dk)``.
        label_num: Number of classes; by default the largest label plus one.
        beta: Weight of recall against precision in the F score.
        ignore_label: Label value left out of every count.

    Returns:
        Four variables of shape ``(label_num,)``: precision, recall and F-beta score (dtype of
        ``y``) and support (integer). They are not differentiable.

    Example:
        >>> y = numpy.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]], numpy.float32)
        >>> t = numpy.array([0, 1, 1], numpy.int32)
        >>> p, r, f, s = F.classification_summary(y, t)
        >>> r.array, s.array
        (array([1. , 0.5], dtype=float32), array([1, 2]))
    """
    return ClassificationSummary(label_num, beta, ignore_label).apply((y, t))


def precision(y, t, label_num=None, ignore_label: int = -1) -> tuple[Variable, Variable]:
    """Per-class precision and support; see :func:`classification_summary`."""
    summary = classification_summary(y, t, label_num, 1.0, ignore_label)
    return summary[0], summary[3]


def recall(y, t, label_num=None, ignore_label: int = -1) -> tuple[Variable, Variable]:
    """Per-class recall and support; see :func:`classification_summary`."""
    summary = classification_summary(y, t, label_num, 1.0, ignore_label)
    return summary[1], summary[3]


def fbeta_score(
    y, t, label_num=None, beta: float = 1.0, ignore_label: int = -1
) -> tuple[Variable, Variable]:
    """Per-class F-beta score and support; see :func:`classification_summary`."""
    summary = classification_summary(y, t, label_num, beta, ignore_label)
    return summary[2], summary[3]


def f1_score(y, t, label_num=None, ignore_label: int = -1) -> tuple[Variable, Variable]:
    """Per-class F1 score (``beta = 1``) and support; see :func:`classification_summary`."""
    return fbeta_score(y, t, label_num, 1.0, ignore_label)
