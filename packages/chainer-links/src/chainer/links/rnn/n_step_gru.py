"""Stacked GRUs over variable-length sequences: ``NStepGRU`` and ``NStepBiGRU``."""

from __future__ import annotations

import typing as tp

from chainer.functions.rnn.n_step_gru import n_step_bigru, n_step_gru
from chainer.links.rnn.n_step_rnn import NStepRNNBase


class NStepGRUBase(NStepRNNBase):
    """Base of the ``NStep`` GRUs: 6 weights ``w0..w5`` and biases ``b0..b5`` per layer and
    direction (reset, update and candidate on the input, then on the hidden state).
    Arguments and :meth:`forward` as :class:`~chainer.links.rnn.n_step_rnn.NStepRNNBase`.
    """

    n_weights = 6


class NStepGRU(NStepGRUBase):
    """Stacked uni-directional GRU for sequences (see :func:`~chainer.functions.n_step_gru`).

    Example:
        >>> gru = L.NStepGRU(2, 3, 4, 0.0)
        >>> hy, ys = gru(None, [numpy.ones((l, 3), numpy.float32) for l in (2, 5)])
        >>> hy.shape, [y.shape for y in ys]
        ((2, 2, 4), [(2, 4), (5, 4)])
    """

    use_bi_direction = False

    def rnn(self, *args: tp.Any) -> tuple:
        return n_step_gru(*args)


class NStepBiGRU(NStepGRUBase):
    """Stacked bi-directional GRU for sequences (see :func:`~chainer.functions.n_step_bigru`):
    outputs of width ``2 * out_size``.

    Example:
        >>> gru = L.NStepBiGRU(1, 3, 4, 0.0)
        >>> hy, ys = gru(None, [numpy.ones((2, 3), numpy.float32)])
        >>> hy.shape, ys[0].shape
        ((2, 1, 4), (2, 8))
    """

    use_bi_direction = True

    def rnn(self, *args: tp.Any) -> tuple:
        return n_step_bigru(*args)
