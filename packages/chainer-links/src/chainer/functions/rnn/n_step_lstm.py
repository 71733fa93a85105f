"""Stacked uni- and bi-directional LSTMs over variable-length sequences."""

from __future__ import annotations

from chainer.functions.rnn._lstm_recurrence import lstm_recurrence
from chainer.functions.rnn._n_step_rnn_base import n_step_rnn_base, reject_retired_kwargs


def _n_step_lstm(name, n_layers, dropout_ratio, hx, cx, ws, bs, xs, use_bi_direction, kwargs):
    reject_retired_kwargs(kwargs)
    states = {"hx": hx, "cx": cx}
    (hy, cy), ys = n_step_rnn_base(
        name,
        n_layers,
        dropout_ratio,
        states,
        ws,
        bs,
        xs,
        n_gates=4,
        recurrence=lstm_recurrence,
        use_bi_direction=use_bi_direction,
        fold_hidden_bias=True,
    )
    return hy, cy, ys


def n_step_lstm(n_layers, dropout_ratio, hx, cx, ws, bs, xs, **kwargs) -> tuple:
    """Stacked uni-directional Long Short-Term Memory over variable-length sequences.

    Layer ``l`` (with input ``x_t``: the sequence for ``l = 0``, the previous layer's
    output otherwise, after dropout) computes with its weights ``W = ws[l]`` and ``b = bs[l]``

    .. math::
        i_t &= \\sigma(W_0 x_t + W_4 h_{t-1} + b_0 + b_4) \\\\
        f_t &= \\sigma(W_1 x_t + W_5 h_{t-1} + b_1 + b_5) \\\\
        a_t &= \\tanh(W_2 x_t + W_6 h_{t-1} + b_2 + b_6) \\\\
        o_t &= \\sigma(W_3 x_t + W_7 h_{t-1} + b_3 + b_7) \\\\
        c_t &= f_t c_{t-1} + i_t a_t, \\qquad h_t = o_t \\tanh(c_t)

    (the order of the cuDNN weights). The inputs are time-major: sort the sequences by
    decreasing length and transpose them with :func:`~chainer.functions.transpose_sequence`,
    so that ``xs[t]`` holds the ``B_t`` sequences that have a step ``t``. A sequence's final
    states are those after its own last step. Dropout acts only in training mode
    (``chainer.config.train``).

    Args:
        n_layers (int): Number of layers.
        dropout_ratio (float): Dropout ratio in ``[0, 1)`` for the input of every layer but
            the first.
        hx: Initial hidden states of shape ``(n_layers, B, N)``, ``B = len(xs[0])``.
        cx: Initial cell states, of the shape of ``hx``.
        ws: ``n_layers`` lists of 8 weight matrices: ``ws[l][0..3]`` of shape ``(N, I)`` for
            ``l = 0`` and ``(N, N)`` above, ``ws[l][4..7]`` of shape ``(N, N)``.
        bs: ``n_layers`` lists of 8 biases of shape ``(N,)``.
        xs: Time steps, ``xs[t]`` of shape ``(B_t, I)`` with ``B_0 >= B_1 >= ...``.

    Returns:
        tuple: ``(hy, cy, ys)``: final hidden and cell states (shape of ``hx``) and a tuple of
        the last layer's outputs, ``ys[t]`` of shape ``(B_t, N)``.

    Raises:
        ValueError: Batch sizes that grow over time, shapes that do not fit, a dropout ratio
            outside ``[0, 1)``, or the retired ``train``/``use_cudnn`` options.

    Example:
        >>> n_layers, units, in_size = 2, 3, 4
        >>> xs = [np.ones((l, in_size), np.float32) for l in (3, 2)]
        >>> ws = [[np.full((units, in_size if l == 0 and j < 4 else units), 0.1, np.float32)
        ...        for j in range(8)] for l in range(n_layers)]
        >>> bs = [[np.zeros(units, np.float32) for _ in range(8)] for _ in range(n_layers)]
        >>> hx = cx = np.zeros((n_layers, 2, units), np.float32)
        >>> hy, cy, ys = F.n_step_lstm(n_layers, 0.0, hx, cx, ws, bs, F.transpose_sequence(xs))
        >>> hy.shape, [y.shape for y in ys]
        ((2, 2, 3), [(2, 3), (2, 3), (1, 3)])
    """
    return _n_step_lstm("n_step_lstm", n_layers, dropout_ratio, hx, cx, ws, bs, xs, False, kwargs)


def n_step_bilstm(n_layers, dropout_ratio, hx, cx, ws, bs, xs, **kwargs) -> tuple:
    """Stacked bi-directional Long Short-Term Memory over variable-length sequences.

    Each layer runs the cell of :func:`n_step_lstm` forward in time with ``ws[2 l]``,
    ``bs[2 l]`` and backward in time with ``ws[2 l + 1]``, ``bs[2 l + 1]``; its output at
    step ``t`` is the concatenation ``[h_t^{forward}, h_t^{backward}]`` of width ``2 N``,
    the input of the next layer.

    Args:
        n_layers (int): Number of layers.
        dropout_ratio (float): Dropout ratio in ``[0, 1)`` for the input of every layer but
            the first (training mode only).
        hx: Initial hidden states of shape ``(2 * n_layers, B, N)``; index ``2 l + d`` is
            layer ``l``, direction ``d`` (0 forward, 1 backward).
        cx: Initial cell states, of the shape of ``hx``.
        ws: ``2 * n_layers`` lists of 8 weight matrices: ``ws[k][0..3]`` of shape ``(N, I)``
            for the first layer and ``(N, 2 N)`` above, ``ws[k][4..7]`` of shape ``(N, N)``.
        bs: ``2 * n_layers`` lists of 8 biases of shape ``(N,)``.
        xs: Time steps, ``xs[t]`` of shape ``(B_t, I)`` with ``B_0 >= B_1 >= ...``.

    Returns:
        tuple: ``(hy, cy, ys)``: final states (shape of ``hx``; the backward direction ends
        at step 0) and the outputs ``ys[t]`` of shape ``(B_t, 2 N)``.

    Raises:
        ValueError: As :func:`n_step_lstm`.

    Example:
        >>> units, in_size = 3, 4
        >>> xs = [np.ones((2, in_size), np.float32)]
        >>> ws = [[np.full((units, in_size if j < 4 else units), 0.1, np.float32)
        ...        for j in range(8)] for _ in range(2)]
        >>> bs = [[np.zeros(units, np.float32) for _ in range(8)] for _ in range(2)]
        >>> hx = cx = np.zeros((2, 2, units), np.float32)
        >>> hy, cy, ys = F.n_step_bilstm(1, 0.0, hx, cx, ws, bs, xs)
        >>> ys[0].shape
        (2, 6)
    """
    return _n_step_lstm("n_step_bilstm", n_layers, dropout_ratio, hx, cx, ws, bs, xs, True, kwargs)
