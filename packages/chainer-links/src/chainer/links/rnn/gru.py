"""Gated Recurrent Unit layers: ``StatelessGRU``, ``StatefulGRU`` and its alias ``GRU``."""

from __future__ import annotations

import typing as tp

from chainer import link
from chainer.functions.activation.sigmoid import sigmoid
from chainer.functions.activation.tanh import tanh
from chainer.functions.math.linear_interpolate import linear_interpolate
from chainer.links.connection.linear import Linear
from chainer.links.rnn._cell import adopt_state, visit_states
from chainer.variable import Variable


class GRUBase(link.Chain):
    """The six linear maps of a GRU (Cho et al., 2014).

    Args:
        in_size: Input dimension (``None`` reads it from the first input).
        out_size: Output (and state) dimension.
        init: Initializer of the input weights ``W_r.W``, ``W_z.W``, ``W.W``; ``None``
            means :class:`~chainer.initializers.LeCunNormal`.
        inner_init: Initializer of the state weights ``U_r.W``, ``U_z.W``, ``U.W``.
        bias_init: Initializer of every bias; ``None`` means zeros.

    Attributes:
        W_r, U_r (~chainer.links.Linear): Reset gate, from the input and from the state.
        W_z, U_z (~chainer.links.Linear): Update gate, from the input and from the state.
        W, U (~chainer.links.Linear): Candidate state, from the input and from the state.
    """

    def __init__(
        self,
        in_size: int | None,
        out_size: int,
        init: tp.Any = None,
        inner_init: tp.Any = None,
        bias_init: tp.Any = None,
    ) -> None:
        super().__init__()
        with self.init_scope():
            self.W_r = Linear(in_size, out_size, initialW=init, initial_bias=bias_init)
            self.U_r = Linear(out_size, out_size, initialW=inner_init, initial_bias=bias_init)
            self.W_z = Linear(in_size, out_size, initialW=init, initial_bias=bias_init)
            self.U_z = Linear(out_size, out_size, initialW=inner_init, initial_bias=bias_init)
            self.W = Linear(in_size, out_size, initialW=init, initial_bias=bias_init)
            self.U = Linear(out_size, out_size, initialW=inner_init, initial_bias=bias_init)


class StatelessGRU(GRUBase):
    """Stateless GRU layer: one step from a given state ``h`` and input ``x``.

    .. math::
        r &= \\sigma(W_r x + U_r h), \\qquad z = \\sigma(W_z x + U_z h) \\\\
        \\bar h &= \\tanh(W x + U (r \\odot h)) \\\\
        h_{new} &= z \\odot \\bar h + (1 - z) \\odot h

    Arguments as :class:`GRUBase`.

    Example:
        >>> gru = L.StatelessGRU(3, 2)
        >>> h = numpy.zeros((4, 2), numpy.float32)
        >>> gru(h, numpy.ones((4, 3), numpy.float32)).shape
        (4, 2)
    """

    def forward(self, h: tp.Any, x: tp.Any) -> Variable:
        """One step from the state ``h`` ``(B, out_size)`` on ``x`` ``(B, in_size)``."""
        r = sigmoid(self.W_r(x) + self.U_r(h))
        z = sigmoid(self.W_z(x) + self.U_z(h))
        h_bar = tanh(self.W(x) + self.U(r * h))
        return linear_interpolate(z, h_bar, h)


class StatefulGRU(GRUBase):
    """GRU layer that keeps its state ``h`` between calls.

    One step is the one of :class:`StatelessGRU`; before the first step (or after
    :meth:`reset_state`) the state is zero, so the step reduces to ``z * tanh(W x)``. The
    state is not serialized.

    Args:
        in_size: Input dimension (``None`` reads it from the first input).
        out_size: Output (and state) dimension.
        init: Initializer of the input weights; ``None`` means LeCunNormal.
        inner_init: Initializer of the state weights; ``None`` means LeCunNormal.
        bias_init: Initializer of every bias (default zeros).

    Attributes:
        h (~chainer.Variable): The state, or ``None`` before the first step.

    Example:
        >>> gru = L.StatefulGRU(3, 2)
        >>> y = gru(numpy.ones((4, 3), numpy.float32))
        >>> y is gru.h
        True
    """

    def __init__(
        self,
        in_size: int | None,
        out_size: int,
        init: tp.Any = None,
        inner_init: tp.Any = None,
        bias_init: tp.Any = 0,
    ) -> None:
        super().__init__(in_size, out_size, init, inner_init, bias_init)
        self.state_size = out_size
        self.reset_state()

    def device_resident_accept(self, visitor: tp.Any) -> None:
        super().device_resident_accept(visitor)
        visit_states(self, visitor, ("h",))

    def set_state(self, h: Variable) -> None:
        """Set the state ``h`` (a variable ``(B, out_size)``).

        Raises:
            TypeError: ``h`` is not a :class:`~chainer.Variable`.
        """
        self.h = adopt_state(self, "h", h)

    def reset_state(self) -> None:
        """Forget the state: the next step starts from zeros."""
        self.h = None

    def forward(self, x: tp.Any) -> Variable:
        """One step on ``x`` ``(B, in_size)``; returns (and stores) the new state."""
        z = self.W_z(x)
        h_bar = self.W(x)
        if self.h is not None:
            r = sigmoid(self.W_r(x) + self.U_r(self.h))
            z += self.U_z(self.h)
            h_bar += self.U(r * self.h)
        z = sigmoid(z)
        h_bar = tanh(h_bar)
        if self.h is None:
            self.h = z * h_bar
        else:
            self.h = linear_interpolate(z, h_bar, self.h)
        return self.h


class GRU(StatefulGRU):
    """Stateful GRU layer: the same as :class:`StatefulGRU`.

    Since Chainer v2 ``GRU`` is stateful and takes only ``x``; the stateless layer is
    :class:`StatelessGRU`.

    Example:
        >>> gru = L.GRU(3, 2)
        >>> gru(numpy.ones((4, 3), numpy.float32)).shape
        (4, 2)
    """

    def forward(self, *args: tp.Any) -> Variable:
        """One step on ``x``; see :meth:`StatefulGRU.forward`.

        Raises:
            ValueError: Not exactly one argument is given (two arguments mean the caller
                expects the stateless layer of Chainer v1).
        """
        if len(args) != 1:
            message = f"GRU.forward takes exactly one argument x, but {len(args)} were given."
            if len(args) == 2:
                message += (
                    " GRU has been stateful since Chainer v2: for the stateless (h, x) "
                    "interface use chainer.links.StatelessGRU."
                )
            raise ValueError(message)
        return super().forward(args[0])
