"""Minimal Gated Unit layers (Zhou et al., 2016): ``StatelessMGU`` and ``StatefulMGU``."""

from __future__ import annotations

import typing as tp

from chainer import link
from chainer.functions.activation.sigmoid import sigmoid
from chainer.functions.activation.tanh import tanh
from chainer.functions.array.concat import concat
from chainer.functions.math.linear_interpolate import linear_interpolate
from chainer.links.connection.linear import Linear
from chainer.links.rnn._cell import adopt_state, visit_states, zero_state
from chainer.variable import Variable


class MGUBase(link.Chain):
    """The two linear maps of an MGU, both reading the concatenation ``[h, x]``.

    One step from the state ``h`` on the input ``x`` is::

        f = sigmoid(W_f([h, x]))
        h_bar = tanh(W_h([f * h, x]))
        h_new = f * h_bar + (1 - f) * h

    Args:
        n_inputs: Input dimension.
        n_units: Output (and state) dimension.

    Attributes:
        W_f (~chainer.links.Linear): Forget gate, ``(n_units, n_units + n_inputs)``.
        W_h (~chainer.links.Linear): Candidate state, ``(n_units, n_units + n_inputs)``.
    """

    def __init__(self, n_inputs: int, n_units: int) -> None:
        super().__init__()
        with self.init_scope():
            self.W_f = Linear(n_inputs + n_units, n_units)
            self.W_h = Linear(n_inputs + n_units, n_units)

    def _step(self, h: tp.Any, x: tp.Any) -> Variable:
        f = sigmoid(self.W_f(concat([h, x])))
        h_bar = tanh(self.W_h(concat([f * h, x])))
        return linear_interpolate(f, h_bar, h)


class StatelessMGU(MGUBase):
    """Stateless MGU layer: one step from a given state. Arguments as :class:`MGUBase`.

    Example:
        >>> mgu = L.StatelessMGU(3, 2)
        >>> h = numpy.zeros((4, 2), numpy.float32)
        >>> mgu(h, numpy.ones((4, 3), numpy.float32)).shape
        (4, 2)
    """

    def forward(self, h: tp.Any, x: tp.Any) -> Variable:
        """One step from ``h`` ``(B, n_units)`` on ``x`` ``(B, n_inputs)``."""
        return self._step(h, x)


class StatefulMGU(MGUBase):
    """MGU layer that keeps its state ``h`` between calls (zeros before the first step).

    Args:
        in_size: Input dimension.
        out_size: Output (and state) dimension.

    Attributes:
        h (~chainer.Variable): The state, or ``None`` before the first step.

    Example:
        >>> mgu = L.StatefulMGU(3, 2)
        >>> mgu(numpy.ones((4, 3), numpy.float32)).shape
        (4, 2)
    """

    def __init__(self, in_size: int, out_size: int) -> None:
        super().__init__(in_size, out_size)
        self._state_size = out_size
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
        h = self.h
        if h is None:
            h = zero_state(self, x.shape[0], self._state_size, x.dtype)
        self.h = self._step(h, x)
        return self.h
