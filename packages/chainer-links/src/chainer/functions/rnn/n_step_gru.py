"""Stacked uni- and bi-directional GRUs over variable-length sequences."""

from __future__ import annotations

from chainer.functions.activation.sigmoid import sigmoid
from chainer.functions.activation.tanh import tanh
from chainer.functions.array.split_axis import split_axis
from chainer.functions.connection.linear import linear
from chainer.functions.rnn._n_step_rnn_base import (
    composed_recurrence,
    n_step_rnn_base,
    reject_retired_kwargs,
)


def _gru_step(x_gates, state: tuple, W_h, b_h) -> tuple:
    (h,) = state
    x_r, x_z, x_n = split_axis(x_gates, 3, axis=1)
    h_r, h_z, h_n = split_axis(linear(h, W_h, b_h), 3, axis=1)
    r = sigmoid(x_r + h_r)
    z = sigmoid(x_z + h_z)
    n = tanh(x_n + r * h_n)
    # (1 - z) n + z h, with one node less
    return (n + z * (h - n),)


_gru_recurrence = composed_recurrence(_gru_step)


def _n_step_gru(name, n_layers, dropout_ratio, hx, ws, bs, xs, use_bi_direction, kwargs):
    reject_retired_kwargs(kwargs)
    # The GRU cannot fold its hidden biases: b_5 is scaled by the reset gate.
    (hy,), ys = n_step_rnn_base(
        name,
        n_layers,
        dropout_ratio,
        {"hx": hx},
        ws,
        bs,
        xs,
        n_gates=3,
        recurrence=_gru_recurrence,
        use_bi_direction=use_bi_direction,
        fold_hidden_bias=False,
    )
    return hy, ys


def n_step_gru(n_layers, dropout_ratio, hx, ws, bs, xs, **kwargs) -> tuple:
    """Stacked uni-directional Gated Recurrent Units over variable-length sequences.

    Layer ``l`` (with input ``x_t``: the sequence for ``l = 0``, the previous layer's
    output otherwise, after dropout) computes with ``W = ws[l]`` and ``b = bs[l]``

    .. math::
        r_t &= \\sigma(W_0 x_t + W_3 h_{t-1} + b_0 + b_3) \\\\
        z_t &= \\sigma(W_1 x_t + W_4 h_{t-1} + b_1 + b_4) \\\\
        h'_t &= \\tanh(W_2 x_t + b_2 + r_t \\odot (W_5 h_{t-1} + b_5)) \\\\
        h_t &= (1 - z_t) \\odot h'_t + z_t \\odot h_{t-1}

    The inputs are time-major, as for :func:`~chainer.functions.n_step_lstm`: ``xs[t]``
    holds the ``B_t`` sequences that have a step ``t``, ``B_0 >= B_1 >= ...``. Dropout acts
    only in training mode.

    Args:
        n_layers (int): Number of layers.
        dropout_ratio (float): Dropout ratio in ``[0, 1)`` for the input of every layer but
            the first.
        hx: Initial hidden states of shape ``(n_layers, B, N)``, ``B = len(xs[0])``.
        ws: ``n_layers`` lists of 6 weight matrices: ``ws[l][0..2]`` of shape ``(N, I)`` for
            ``l = 0`` and ``(N, N)`` above, ``ws[l][3..5]`` of shape ``(N, N)``.
        bs: ``n_layers`` lists of 6 biases of shape ``(N,)``.
        xs: Time steps, ``xs[t]`` of shape ``(B_t, I)``.

    Returns:
        tuple: ``(hy, ys)``: the final hidden states (shape of ``hx``) and a tuple of the last
        layer's outputs, ``ys[t]`` of shape ``(B_t, N)``.

    Raises:
        ValueError: Batch sizes that grow over time, shapes that do not fit, a dropout ratio
            outside ``[0, 1)``, or the retired ``train``/``use_cudnn`` options.

    Example:
        >>> ws = [[np.full((3, 4 if j < 3 else 3), 0.1, np.float32) for j in range(6)]]
        >>> bs = [[np.zeros(3, np.float32) for _ in range(6)]]
        >>> xs = [np.ones((2, 4), np.float32), np.ones((1, 4), np.float32)]
        >>> hy, ys = F.n_step_gru(1, 0.0, np.zeros((1, 2, 3), np.float32), ws, bs, xs)
        >>> hy.shape, [y.shape for y in ys]
        ((1, 2, 3), [(2, 3), (1, 3)])
    """
    return _n_step_gru("n_step_gru", n_layers, dropout_ratio, hx, ws, bs, xs, False, kwargs)


def n_step_bigru(n_layers, dropout_ratio, hx, ws, bs, xs, **kwargs) -> tuple:
    """Stacked bi-directional Gated Recurrent Units over variable-length sequences.

    Each layer runs the cell of :func:`n_step_gru` forward in time with ``ws[2 l]``,
    ``bs[2 l]`` and backward in time with ``ws[2 l + 1]``, ``bs[2 l + 1]``; its output at
    step ``t`` is ``[h_t^{forward}, h_t^{backward}]`` of width ``2 N``.

    Args:
        n_layers (int): Number of layers.
        dropout_ratio (float): Dropout ratio for the input of every layer but the first.
        hx: Initial hidden states of shape ``(2 * n_layers, B, N)``; index ``2 l + d`` is
            layer ``l``, direction ``d`` (0 forward, 1 backward).
        ws: ``2 * n_layers`` lists of 6 weight matrices: ``ws[k][0..2]`` of shape ``(N, I)``
            for the first layer and ``(N, 2 N)`` above, ``ws[k][3..5]`` of shape ``(N, N)``.
        bs: ``2 * n_layers`` lists of 6 biases of shape ``(N,)``.
        xs: Time steps, ``xs[t]`` of shape ``(B_t, I)``.

    Returns:
        tuple: ``(hy, ys)`` with ``ys[t]`` of shape ``(B_t, 2 N)``.

    Raises:
        ValueError: As :func:`n_step_gru`.

    Example:
        >>> ws = [[np.full((3, 4 if j < 3 else 3), 0.1, np.float32) for j in range(6)]] * 2
        >>> bs = [[np.zeros(3, np.float32) for _ in range(6)]] * 2
        >>> xs = [np.ones((2, 4), np.float32)]
        >>> hy, ys = F.n_step_bigru(1, 0.0, np.zeros((2, 2, 3), np.float32), ws, bs, xs)
        >>> ys[0].shape
        (2, 6)
    """
    return _n_step_gru("n_step_bigru", n_layers, dropout_ratio, hx, ws, bs, xs, True, kwargs)
