"""Linear-chain CRF: negative log-likelihood of label sequences and Viterbi decoding.

Sequences come "transposed" (as :func:`~chainer.functions.transpose_sequence` gives them):
``xs[i]`` holds the scores of position ``i`` of every sequence still running, so the batch
sizes ``len(xs[i])`` never grow, and the longest sequences come first in each batch.
Both functions are compositions of differentiable functions.
"""

from __future__ import annotations

import numpy

from chainer import backend
from chainer._ops import array_ops
from chainer._ops.get_item import get_item
from chainer.functions.array.concat import concat
from chainer.functions.array.select_item import select_item
from chainer.functions.loss import _checks
from chainer.functions.math.logsumexp import logsumexp
from chainer.variable import Variable


def _array(x):
    return x.array if isinstance(x, Variable) else x


def _check_sequences(cost, xs, ys=None) -> None:
    if len(xs) == 0:
        raise ValueError("xs must hold at least one position, got an empty sequence")
    n_label = cost.shape[0]
    if len(cost.shape) != 2 or cost.shape[1] != n_label:
        raise ValueError(f"cost must be a square (n_label, n_label) matrix, got {cost.shape}")
    batch = xs[0].shape[0]
    for i, x in enumerate(xs):
        if len(x.shape) != 2 or x.shape[1] != n_label:
            raise ValueError(f"xs[{i}] must have shape (batch, {n_label}), got {x.shape}")
        if x.shape[0] > batch:
            raise ValueError(
                f"batch sizes of xs must not increase: len(xs[{i}]) == {x.shape[0]} > {batch} "
                "(sort sequences by decreasing length, e.g. with transpose_sequence)"
            )
        batch = x.shape[0]
    if ys is None:
        return
    if len(ys) != len(xs):
        raise ValueError(f"ys must have one item per item of xs ({len(xs)}), got {len(ys)}")
    for i, (x, y) in enumerate(zip(xs, ys)):
        if y.shape != x.shape[:1]:
            raise ValueError(f"ys[{i}] must have shape {x.shape[:1]}, got {y.shape}")
        _checks.check_labels(_array(y), n_label)


def _join_finished(running: Variable, finished: list) -> Variable:
    """Rows of sequences that ended earlier went to ``finished``; restore batch order."""
    if not finished:
        return running
    return concat([running] + finished[::-1], axis=0)


def _log_partition(cost, xs) -> Variable:
    """``log Z`` of each sequence by the forward algorithm (log-sum-exp over labels)."""
    alpha = xs[0]
    finished = []
    for x in xs[1:]:
        batch = x.shape[0]
        if alpha.shape[0] > batch:
            finished.append(alpha[batch:])
            alpha = alpha[:batch]
        # alpha'[j] = logsumexp_i(alpha[i] + cost[i, j]) + x[j]
        scores = array_ops.reshape(alpha, alpha.shape + (1,)) + cost
        alpha = logsumexp(scores, axis=1) + x
    return logsumexp(_join_finished(alpha, finished), axis=1)


def _path_score(cost, xs, ys) -> Variable:
    """Score of the label sequences ``ys``: unary scores plus transition costs."""
    score = select_item(xs[0], _array(ys[0]))
    finished = []
    for x, y, y_prev in zip(xs[1:], ys[1:], ys[:-1]):
        batch = x.shape[0]
        if score.shape[0] > batch:
            finished.append(score[batch:])
            score = score[:batch]
        y = _array(y)
        transition = get_item(cost, (_array(y_prev)[:batch], y))
        score = score + select_item(x, y) + transition
    return _join_finished(score, finished)


def crf1d(cost, xs, ys, reduce: str = "mean") -> Variable:
    """Negative log-likelihood of a linear-chain conditional random field.

    For a sequence with unary scores ``x_i`` and labels ``y_i`` the score is
    ``sum_i x_i[y_i] + sum_i cost[y_{i-1}, y_i]``, and the loss is
    ``log Z - score`` where ``Z`` sums ``exp(score)`` over all label sequences.

    Args:
        cost: Transition scores of shape ``(K, K)``: ``cost[i, j]`` scores label ``j`` after
            label ``i``.
        xs: List of ``L`` unary score variables; ``xs[i]`` has shape ``(B_i, K)`` with
            ``B_0 >= B_1 >= ...`` (transposed, length-sorted sequences).
        ys: List of ``L`` integer label arrays; ``ys[i]`` has shape ``(B_i,)``.
        reduce: ``'mean'`` for the mean over sequences, ``'no'`` for one loss per sequence.

    Returns:
        A scalar variable or one of shape ``(B_0,)``.

    Example:
        >>> cost = numpy.zeros((2, 2), numpy.float32)
        >>> xs = [numpy.array([[0.0, 0.0]], numpy.float32)] * 2
        >>> ys = [numpy.array([0], numpy.int32)] * 2
        >>> F.crf1d(cost, xs, ys).array  # four equally likely paths
        array(1.3862944, dtype=float32)
    """
    _checks.check_reduce(reduce, ("mean", "no"))
    _check_sequences(cost, xs, ys)
    loss = _log_partition(cost, xs) - _path_score(cost, xs, ys)
    if reduce == "mean":
        return array_ops.sum(loss) * (1.0 / xs[0].shape[0])
    return loss


def argmax_crf1d(cost, xs) -> tuple[Variable, list]:
    """The most probable label sequences of a linear-chain CRF (Viterbi decoding).

    Args:
        cost: Transition scores of shape ``(K, K)``, as in :func:`crf1d`.
        xs: Unary scores, as in :func:`crf1d`.

    Returns:
        ``(score, path)``: ``score`` is a variable of shape ``(B_0,)`` with the score of the
        best sequence of each batch item (differentiable); ``path`` is a list of ``L`` int32
        arrays, ``path[i]`` of shape ``(B_i,)``, the best labels at position ``i``.

    Example:
        >>> cost = numpy.array([[0.0, -5.0], [-5.0, 0.0]], numpy.float32)
        >>> xs = [numpy.array([[1.0, 0.0]], numpy.float32),
        ...       numpy.array([[0.0, 0.5]], numpy.float32)]
        >>> score, path = F.argmax_crf1d(cost, xs)
        >>> score.array, [p.tolist() for p in path]
        (array([1.], dtype=float32), [[0], [0]])
    """
    _check_sequences(cost, xs)
    cost_array = _array(cost)
    units = [_array(x) for x in xs]
    xp = backend.get_array_module(cost_array, *units)
    # best[b] holds the best score of each last label so far; finished rows stay untouched.
    best = units[0].copy()
    backpointers = []
    for x in units[1:]:
        batch = len(x)
        scores = best[:batch, :, None] + cost_array
        backpointers.append(scores.argmax(axis=1))
        best[:batch] = scores.max(axis=1) + x
    labels = best.argmax(axis=1).astype(numpy.int32)
    path = [labels[: len(units[-1])].copy()]
    for t in range(len(units) - 1, 0, -1):
        batch = len(units[t])
        labels[:batch] = backpointers[t - 1][xp.arange(batch), labels[:batch]]
        path.append(labels[: len(units[t - 1])].copy())
    path.reverse()
    return _path_score(cost, xs, path), path
