"""``CRF1d``: a linear-chain conditional random field over label sequences."""

from __future__ import annotations

import typing as tp
from collections.abc import Sequence

from chainer import initializers, link, variable
from chainer.functions.array.transpose_sequence import transpose_sequence
from chainer.functions.loss.crf1d import argmax_crf1d, crf1d
from chainer.links._sequences import argsort_list_descent, permutate_list


class CRF1d(link.Link):
    """Linear-chain conditional random field loss layer: wraps
    :func:`~chainer.functions.crf1d` and :func:`~chainer.functions.argmax_crf1d`.

    ``cost[i, j]`` is the score of label ``j`` following label ``i``.

    By default the inputs are time-major, as the functions take them: ``xs[t]`` holds the
    unary scores of step ``t`` of every sequence still running, longest sequences first.
    With ``transpose=True`` they are batch-major instead: ``xs[b]`` is the ``(length_b,
    n_label)`` score array of sequence ``b``, in any order.

    Args:
        n_label: Number of labels.
        initial_cost: Initializer of ``cost``; ``None`` means zeros.

    Attributes:
        cost (~chainer.Parameter): Transition scores, ``(n_label, n_label)``.

    Example:
        >>> crf = L.CRF1d(3)
        >>> xs = [numpy.zeros((2, 3), numpy.float32), numpy.zeros((1, 3), numpy.float32)]
        >>> ys = [numpy.array([0, 1], numpy.int32), numpy.array([2], numpy.int32)]
        >>> crf(xs, ys).shape
        ()
    """

    def __init__(self, n_label: int, initial_cost: tp.Any = None) -> None:
        super().__init__()
        if initial_cost is None:
            initial_cost = initializers.Zero()
        with self.init_scope():
            self.cost = variable.Parameter(
                initializers._get_initializer(initial_cost), (n_label, n_label)
            )

    def forward(
        self,
        xs: Sequence[tp.Any],
        ys: Sequence[tp.Any],
        reduce: str = "mean",
        transpose: bool = False,
    ) -> variable.Variable:
        """Negative log-likelihood of the label sequences ``ys`` given the scores ``xs``.

        Args:
            xs: Unary scores (time-major, or batch-major with ``transpose``).
            ys: Integer labels laid out like ``xs``.
            reduce: ``'mean'`` (over the sequences) or ``'no'`` (one loss per sequence; with
                ``transpose`` in the order of decreasing length).
            transpose: The inputs are batch-major.
        """
        if transpose:
            order = argsort_list_descent(xs)
            xs = transpose_sequence(permutate_list(xs, order, inv=False))
            ys = transpose_sequence(permutate_list(ys, order, inv=False))
        return crf1d(self.cost, xs, ys, reduce)

    def argmax(self, xs: Sequence[tp.Any], transpose: bool = False) -> tuple:
        """The most likely label sequences and their scores.

        Args:
            xs: Unary scores (time-major, or batch-major with ``transpose``).
            transpose: The inputs are batch-major; the paths are then returned batch-major,
                one int array per sequence in the order of ``xs``.

        Returns:
            ``(score, path)``: a variable of the best scores (longest sequences first), and
            the labels laid out like ``xs``.
        """
        if not transpose:
            return argmax_crf1d(self.cost, xs)
        order = argsort_list_descent(xs)
        score, path = argmax_crf1d(
            self.cost, transpose_sequence(permutate_list(xs, order, inv=False))
        )
        per_sequence = [p.array for p in transpose_sequence(path)]
        return score, permutate_list(per_sequence, order, inv=True)
