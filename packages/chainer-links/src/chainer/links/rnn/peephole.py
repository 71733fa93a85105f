"""``StatefulPeepholeLSTM``: an LSTM layer whose gates also look at the cell state."""

from __future__ import annotations

import typing as tp

from chainer import link
from chainer.functions.activation.sigmoid import sigmoid
from chainer.functions.activation.tanh import tanh
from chainer.links.connection.linear import Linear
from chainer.links.rnn._cell import lstm_gates, visit_states, zero_state
from chainer.variable import Variable


class StatefulPeepholeLSTM(link.Chain):
    """Fully-connected LSTM layer with peephole connections (Gers & Schmidhuber, 2000).

    With the pre-activations ``upward(x) + lateral(h)`` split into interleaved gates
    ``a, i, f, o`` (channel ``4 * u + k`` is gate ``k`` of unit ``u``), one step is::

        i = sigmoid(i + peep_i(c)),  f = sigmoid(f + peep_f(c))
        c = tanh(a) * i + f * c
        o = sigmoid(o + peep_o(c))   # the new cell
        h = o * tanh(c)

    The state ``(c, h)`` is kept between calls; call :meth:`reset_state` before each new
    sequence.

    Args:
        in_size: Input dimension (``None`` reads it from the first input).
        out_size: Output (and cell) dimension.

    Attributes:
        upward (~chainer.links.Linear): Input to pre-activations, ``(4 out, in)``.
        lateral (~chainer.links.Linear): Previous output to pre-activations, no bias.
        peep_i (~chainer.links.Linear): Cell to input gate, ``(out, out)``, no bias.
        peep_f (~chainer.links.Linear): Cell to forget gate, no bias.
        peep_o (~chainer.links.Linear): New cell to output gate, no bias.
        c (~chainer.Variable): The cell state, or ``None`` before the first step.
        h (~chainer.Variable): The last output, or ``None`` before the first step.

    Example:
        >>> lstm = L.StatefulPeepholeLSTM(3, 2)
        >>> lstm(numpy.ones((4, 3), numpy.float32)).shape
        (4, 2)
    """

    def __init__(self, in_size: int | None, out_size: int) -> None:
        super().__init__()
        self.state_size = out_size
        self.reset_state()
        with self.init_scope():
            self.upward = Linear(in_size, 4 * out_size)
            self.lateral = Linear(out_size, 4 * out_size, nobias=True)
            self.peep_i = Linear(out_size, out_size, nobias=True)
            self.peep_f = Linear(out_size, out_size, nobias=True)
            self.peep_o = Linear(out_size, out_size, nobias=True)

    def device_resident_accept(self, visitor: tp.Any) -> None:
        super().device_resident_accept(visitor)
        visit_states(self, visitor, ("c", "h"))

    def reset_state(self) -> None:
        """Forget the state: the next step starts from zeros."""
        self.c = self.h = None

    def forward(self, x: tp.Any) -> Variable:
        """One step on ``x`` ``(B, in_size)``; returns the output ``(B, out_size)``."""
        lstm_in = self.upward(x)
        if self.h is not None:
            lstm_in += self.lateral(self.h)
        if self.c is None:
            self.c = zero_state(self, x.shape[0], self.state_size, x.dtype)
        a, i, f, o = lstm_gates(lstm_in, self.state_size)
        i = sigmoid(i + self.peep_i(self.c))
        f = sigmoid(f + self.peep_f(self.c))
        self.c = tanh(a) * i + f * self.c
        o = sigmoid(o + self.peep_o(self.c))
        self.h = o * tanh(self.c)
        return self.h
