"""Stacked LSTMs over variable-length sequences: ``NStepLSTM`` and ``NStepBiLSTM``."""

from __future__ import annotations

import typing as tp
from collections.abc import Sequence

from chainer.functions.rnn.n_step_lstm import n_step_bilstm, n_step_lstm
from chainer.links.rnn.n_step_rnn import NStepRNNBase


class NStepLSTMBase(NStepRNNBase):
    """Base of the ``NStep`` LSTMs: 8 weights ``w0..w7`` and biases ``b0..b7`` per layer and
    direction (gates ``i, f, a, o`` on the input, then on the hidden state), and a cell state
    besides the hidden state. Arguments as :class:`~chainer.links.rnn.n_step_rnn.NStepRNNBase`.
    """

    n_weights = 8

    @property
    def n_cells(self) -> int:
        return 2

    def forward(self, hx: tp.Any, cx: tp.Any, xs: Sequence[tp.Any], **kwargs: tp.Any) -> tuple:
        """Run the network on a batch of sequences.

        Args:
            hx: Initial hidden states ``(n_layers * directions, len(xs), out_size)``, row
                ``i`` for sequence ``xs[i]``; ``None`` for zeros.
            cx: Initial cell states, like ``hx``; ``None`` for zeros.
            xs: The sequences, a list of arrays or variables ``(length_i, in_size)`` in any
                order of length.

        Returns:
            ``(hy, cy, ys)``: the final hidden and cell states and the outputs, ``ys[i]`` of
            shape ``(length_i, directions * out_size)``.
        """
        (hy, cy), ys = self._call([hx, cx], xs, **kwargs)
        return hy, cy, ys


class NStepLSTM(NStepLSTMBase):
    """Stacked uni-directional LSTM for sequences (see :func:`~chainer.functions.n_step_lstm`).

    Example:
        >>> lstm = L.NStepLSTM(2, 3, 4, 0.1)
        >>> xs = [numpy.ones((l, 3), numpy.float32) for l in (2, 5)]
        >>> hy, cy, ys = lstm(None, None, xs)
        >>> hy.shape, [y.shape for y in ys]
        ((2, 2, 4), [(2, 4), (5, 4)])
    """

    use_bi_direction = False

    def rnn(self, *args: tp.Any) -> tuple:
        return n_step_lstm(*args)


class NStepBiLSTM(NStepLSTMBase):
    """Stacked bi-directional LSTM for sequences (see
    :func:`~chainer.functions.n_step_bilstm`): outputs of width ``2 * out_size``.

    Example:
        >>> lstm = L.NStepBiLSTM(1, 3, 4, 0.0)
        >>> hy, cy, ys = lstm(None, None, [numpy.ones((2, 3), numpy.float32)])
        >>> cy.shape, ys[0].shape
        ((2, 1, 4), (2, 8))
    """

    use_bi_direction = True

    def rnn(self, *args: tp.Any) -> tuple:
        return n_step_bilstm(*args)
