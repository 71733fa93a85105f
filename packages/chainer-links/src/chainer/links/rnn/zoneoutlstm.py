"""``StatefulZoneoutLSTM``: an LSTM layer regularized by zoneout (Krueger et al., 2017)."""

from __future__ import annotations

import typing as tp

from chainer import link
from chainer.functions.activation.sigmoid import sigmoid
from chainer.functions.activation.tanh import tanh
from chainer.functions.noise.zoneout import zoneout
from chainer.links.connection.linear import Linear
from chainer.links.rnn._cell import adopt_state, lstm_gates, visit_states, zero_state
from chainer.utils import argument
from chainer.variable import Variable


class StatefulZoneoutLSTM(link.Chain):
    """Stateful LSTM layer whose cell and output keep their previous value at random.

    One step computes the LSTM cell ``c' = tanh(a) sigmoid(i) + sigmoid(f) c`` and output
    ``h' = sigmoid(o) tanh(c')`` from the interleaved gates of ``upward(x) + lateral(h)``,
    then, in training mode, each element of the new state keeps its previous value with
    probability ``c_ratio`` (cell) or ``h_ratio`` (output): ``c = zoneout(c, c', c_ratio)``,
    ``h = zoneout(h, h', h_ratio)``. In test mode the new state is ``(c', h')``.

    Args:
        in_size: Input dimension (``None`` reads it from the first input).
        out_size: Output (and cell) dimension.
        c_ratio: Zoneout ratio of the cell.
        h_ratio: Zoneout ratio of the output.

    Attributes:
        upward (~chainer.links.Linear): Input to pre-activations, ``(4 out, in)``.
        lateral (~chainer.links.Linear): Previous output to pre-activations, no bias.
        c (~chainer.Variable): The cell state, or ``None`` before the first step.
        h (~chainer.Variable): The last output, or ``None`` before the first step.

    Example:
        >>> lstm = L.StatefulZoneoutLSTM(3, 2)
        >>> lstm(numpy.ones((4, 3), numpy.float32)).shape
        (4, 2)
    """

    def __init__(
        self,
        in_size: int | None,
        out_size: int,
        c_ratio: float = 0.5,
        h_ratio: float = 0.5,
        **kwargs: tp.Any,
    ) -> None:
        argument.check_unexpected_kwargs(
            kwargs, train="train argument is not supported anymore. Use chainer.using_config"
        )
        argument.assert_kwargs_empty(kwargs)
        super().__init__()
        self.state_size = out_size
        self.c_ratio = c_ratio
        self.h_ratio = h_ratio
        self.reset_state()
        with self.init_scope():
            self.upward = Linear(in_size, 4 * out_size)
            self.lateral = Linear(out_size, 4 * out_size, nobias=True)

    def device_resident_accept(self, visitor: tp.Any) -> None:
        super().device_resident_accept(visitor)
        visit_states(self, visitor, ("c", "h"))

    def set_state(self, c: Variable, h: Variable) -> None:
        """Set the cell state ``c`` and output ``h`` (variables ``(B, out_size)``).

        Raises:
            TypeError: ``c`` or ``h`` is not a :class:`~chainer.Variable`.
        """
        self.c = adopt_state(self, "c", c)
        self.h = adopt_state(self, "h", h)

    def reset_state(self) -> None:
        """Forget the state: the next step starts from zeros."""
        self.c = self.h = None

    def forward(self, x: tp.Any) -> Variable:
        """One step on ``x`` ``(B, in_size)``; returns the output ``(B, out_size)``."""
        lstm_in = self.upward(x)
        batch = lstm_in.shape[0]
        if self.h is None:
            self.h = zero_state(self, batch, self.state_size, x.dtype)
        else:
            lstm_in += self.lateral(self.h)
        if self.c is None:
            self.c = zero_state(self, batch, self.state_size, x.dtype)
        a, i, f, o = lstm_gates(lstm_in, self.state_size)
        c_new = tanh(a) * sigmoid(i) + sigmoid(f) * self.c
        self.c = zoneout(self.c, c_new, self.c_ratio)
        self.h = zoneout(self.h, sigmoid(o) * tanh(c_new), self.h_ratio)
        return self.h
