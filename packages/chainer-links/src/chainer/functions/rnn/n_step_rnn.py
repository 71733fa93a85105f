"""Stacked uni- and bi-directional Elman RNNs (tanh or ReLU) over variable-length sequences."""

from __future__ import annotations

from chainer.functions.activation.relu import relu
from chainer.functions.activation.tanh import tanh
from chainer.functions.connection.linear import linear
from chainer.functions.rnn._n_step_rnn_base import (
    composed_recurrence,
    n_step_rnn_base,
    reject_retired_kwargs,
)


def _elman_recurrence(activation):
    def step(x_gates, state: tuple, W_h, b_h) -> tuple:
        return (activation(x_gates + linear(state[0], W_h, b_h)),)

    return composed_recurrence(step)


_RECURRENCES = {"tanh": _elman_recurrence(tanh), "relu": _elman_recurrence(relu)}


def _n_step_rnn(name, n_layers, dropout_ratio, hx, ws, bs, xs, activation, bi, kwargs):
    reject_retired_kwargs(kwargs)
    recurrence = _RECURRENCES.get(activation) if isinstance(activation, str) else None
    if recurrence is None:
        raise ValueError(
            f"{name}: activation must be one of {sorted(_RECURRENCES)}, got {activation!r}"
        )
    (hy,), ys = n_step_rnn_base(
        name,
        n_layers,
        dropout_ratio,
        {"hx": hx},
        ws,
        bs,
        xs,
        n_gates=1,
        recurrence=recurrence,
        use_bi_direction=bi,
        fold_hidden_bias=True,
    )
    return hy, ys


def n_step_rnn(n_layers, dropout_ratio, hx, ws, bs, xs, activation="tanh", **kwargs) -> tuple:
    """Stacked uni-directional Elman RNN over variable-length sequences.

    Layer ``l`` (with input ``x_t``: the sequence for ``l = 0``, the previous layer's
    output otherwise, after dropout) computes

    .. math::
        h_t = f(W_0 x_t + W_1 h_{t-1} + b_0 + b_1)

    with ``W = ws[l]``, ``b = bs[l]`` and ``f`` the ``activation``. The inputs are
    time-major, as for :func:`~chainer.functions.n_step_lstm`: ``xs[t]`` holds the ``B_t``
    sequences that have a step ``t``, ``B_0 >= B_1 >= ...``. Dropout acts only in training
    mode.

    Args:
        n_layers (int): Number of layers.
        dropout_ratio (float): Dropout ratio in ``[0, 1)`` for the input of every layer but
            the first.
        hx: Initial hidden states of shape ``(n_layers, B, N)``, ``B = len(xs[0])``.
        ws: ``n_layers`` lists of 2 weight matrices: ``ws[l][0]`` of shape ``(N, I)`` for
            ``l = 0`` and ``(N, N)`` above, ``ws[l][1]`` of shape ``(N, N)``.
        bs: ``n_layers`` lists of 2 biases of shape ``(N,)``.
        xs: Time steps, ``xs[t]`` of shape ``(B_t, I)``.
        activation (str): ``'tanh'`` or ``'relu'``.

    Returns:
        tuple: ``(hy, ys)``: the final hidden states (shape of ``hx``) and a tuple of the last
        layer's outputs, ``ys[t]`` of shape ``(B_t, N)``.

    Raises:
        ValueError: An unknown activation, batch sizes that grow over time, shapes that do
            not fit, a dropout ratio outside ``[0, 1)``, or the retired ``train``/``use_cudnn``
            options.

    Example:
        >>> ws = [[np.full((3, 4), 0.1, np.float32), np.eye(3, dtype=np.float32)]]
        >>> bs = [[np.zeros(3, np.float32), np.zeros(3, np.float32)]]
        >>> xs = [np.ones((2, 4), np.float32), np.ones((1, 4), np.float32)]
        >>> hy, ys = F.n_step_rnn(1, 0.0, np.zeros((1, 2, 3), np.float32), ws, bs, xs, 'relu')
        >>> ys[1].array
        array([[0.8, 0.8, 0.8]], dtype=float32)
    """
    return _n_step_rnn(
        "n_step_rnn", n_layers, dropout_ratio, hx, ws, bs, xs, activation, False, kwargs
    )


def n_step_birnn(n_layers, dropout_ratio, hx, ws, bs, xs, activation="tanh", **kwargs) -> tuple:
    """Stacked bi-directional Elman RNN over variable-length sequences.

    Each layer runs the recurrence of :func:`n_step_rnn` forward in time with ``ws[2 l]``,
    ``bs[2 l]`` and backward in time with ``ws[2 l + 1]``, ``bs[2 l + 1]``; its output at
    step ``t`` is ``[h_t^{forward}, h_t^{backward}]`` of width ``2 N``.

    Args:
        n_layers (int): Number of layers.
        dropout_ratio (float): Dropout ratio for the input of every layer but the first.
        hx: Initial hidden states of shape ``(2 * n_layers, B, N)``; index ``2 l + d`` is
            layer ``l``, direction ``d`` (0 forward, 1 backward).
        ws: ``2 * n_layers`` lists of 2 weight matrices: ``ws[k][0]`` of shape ``(N, I)`` for
            the first layer and ``(N, 2 N)`` above, ``ws[k][1]`` of shape ``(N, N)``.
        bs: ``2 * n_layers`` lists of 2 biases of shape ``(N,)``.
        xs: Time steps, ``xs[t]`` of shape ``(B_t, I)``.
        activation (str): ``'tanh'`` or ``'relu'``.

    Returns:
        tuple: ``(hy, ys)`` with ``ys[t]`` of shape ``(B_t, 2 N)``.

    Raises:
        ValueError: As :func:`n_step_rnn`.

    Example:
        >>> ws = [[np.full((3, 4), 0.1, np.float32), np.eye(3, dtype=np.float32)]] * 2
        >>> bs = [[np.zeros(3, np.float32), np.zeros(3, np.float32)]] * 2
        >>> xs = [np.ones((2, 4), np.float32)]
        >>> hy, ys = F.n_step_birnn(1, 0.0, np.zeros((2, 2, 3), np.float32), ws, bs, xs)
        >>> ys[0].shape
        (2, 6)
    """
    return _n_step_rnn(
        "n_step_birnn", n_layers, dropout_ratio, hx, ws, bs, xs, activation, True, kwargs
    )
