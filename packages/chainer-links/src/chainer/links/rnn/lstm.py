"""``LSTM`` and ``StatelessLSTM``: fully-connected LSTM layers (a cell and its linear maps)."""

from __future__ import annotations

import typing as tp

from chainer import backend, initializers, link, utils
from chainer.functions.array.concat import concat
from chainer.functions.array.split_axis import split_axis
from chainer.functions.rnn.lstm import lstm
from chainer.links.connection.linear import Linear
from chainer.links.rnn._cell import adopt_state, visit_states, zero_state
from chainer.variable import Variable


class LSTMBase(link.Chain):
    """The parameters shared by :class:`LSTM` and :class:`StatelessLSTM`.

    ``upward`` maps the input and ``lateral`` the previous output to the ``4 * out_size``
    pre-activations of :func:`~chainer.functions.lstm`, whose gates ``a, i, f, o`` are
    interleaved (channel ``4 * u + k`` is gate ``k`` of unit ``u``).

    Args:
        in_size: Input dimension; ``None`` (or giving only one size) reads it from the first
            input.
        out_size: Output (and cell) dimension.
        lateral_init: Initializer of each ``(out_size, out_size)`` row block of
            ``lateral.W``; ``None`` means :class:`~chainer.initializers.LeCunNormal`.
        upward_init: Initializer of each ``(out_size, in_size)`` row block of ``upward.W``;
            ``None`` means :class:`~chainer.initializers.LeCunNormal`.
        bias_init: Initializer of the biases of the cell input and the input and output gates
            (each seen as an array ``(1, out_size, 1)``); ``None`` means zeros.
        forget_bias_init: Initializer of the forget gate's bias; ``None`` means ones.

    Attributes:
        upward (~chainer.links.Linear): Input to pre-activations, ``W (4 out, in)``, ``b``.
        lateral (~chainer.links.Linear): Previous output to pre-activations, no bias.
    """

    def __init__(
        self,
        in_size: int | None,
        out_size: int | None = None,
        lateral_init: tp.Any = None,
        upward_init: tp.Any = None,
        bias_init: tp.Any = None,
        forget_bias_init: tp.Any = None,
    ) -> None:
        super().__init__()
        if out_size is None:
            in_size, out_size = None, in_size
        if out_size is None:
            raise ValueError(
                f"{type(self).__name__} needs out_size: give {type(self).__name__}(out_size) or "
                f"{type(self).__name__}(in_size, out_size)"
            )
        self.state_size = out_size
        self.lateral_init = lateral_init
        self.upward_init = upward_init
        self.bias_init = 0 if bias_init is None else bias_init
        self.forget_bias_init = 1 if forget_bias_init is None else forget_bias_init
        with self.init_scope():
            # Zeros first: _initialize_params overwrites every block with its own initializer.
            self.upward = Linear(in_size, 4 * out_size, initialW=0)
            self.lateral = Linear(out_size, 4 * out_size, initialW=0, nobias=True)
        if in_size is not None:
            self._initialize_params()

    def _initialize_params(self) -> None:
        size = self.state_size
        lateral_init = initializers._get_initializer(self.lateral_init)
        upward_init = initializers._get_initializer(self.upward_init)
        bias_init = initializers._get_initializer(self.bias_init)
        forget_bias_init = initializers._get_initializer(self.forget_bias_init)
        # One block per gate, as if each gate had its own weight matrix (this matters for
        # initializers such as Orthogonal that look at the whole array).
        for start in range(0, 4 * size, size):
            lateral_init(self.lateral.W.array[start : start + size])
            upward_init(self.upward.W.array[start : start + size])
        a, i, f, o = (self.upward.b.array.reshape(1, size, 4, 1)[:, :, k] for k in range(4))
        for gate in (a, i, o):
            bias_init(gate)
        forget_bias_init(f)

    def _initialize_lazily(self, x: tp.Any) -> None:
        """Give ``upward.W`` its input size from the first input ``x``."""
        with backend.using_device(self.device):
            self.upward._initialize_params(utils.size_of_shape(x.shape[1:]))
            self._initialize_params()


class StatelessLSTM(LSTMBase):
    """Stateless LSTM layer: one step from a given state ``(c, h)`` and input ``x``.

    It computes ``c, h = F.lstm(c, upward(x) + lateral(h))``; the caller keeps the state.
    Arguments as :class:`LSTMBase`.

    Example:
        >>> lstm = L.StatelessLSTM(3, 2)
        >>> x = numpy.ones((4, 3), numpy.float32)
        >>> c, h = lstm(None, None, x)  # the first step starts from zeros
        >>> c, h = lstm(c, h, x)
        >>> h.shape
        (4, 2)
    """

    def forward(self, c: tp.Any, h: tp.Any, x: tp.Any) -> tuple[Variable, Variable]:
        """One step.

        Args:
            c: Previous cell state ``(B, out_size)``, or ``None`` for zeros.
            h: Previous output ``(B, out_size)``, or ``None`` for zeros.
            x: Input ``(B, in_size)``.

        Returns:
            ``(c_new, h_new)``, both ``(B, out_size)``.
        """
        if self.upward.W.array is None:
            self._initialize_lazily(x)
        lstm_in = self.upward(x)
        if h is not None:
            lstm_in += self.lateral(h)
        if c is None:
            c = zero_state(self, x.shape[0], self.state_size, x.dtype)
        return lstm(c, lstm_in)


class LSTM(LSTMBase):
    """Fully-connected LSTM layer that keeps its state between calls.

    Each call runs one step, ``c, h = F.lstm(c, upward(x) + lateral(h))``, and stores the
    new cell ``c`` and output ``h``. The batch may shrink from one step to the next (sequences
    sorted by decreasing length): the rows of the state beyond the input are carried over
    unchanged. Call :meth:`reset_state` before each new sequence. Arguments as
    :class:`LSTMBase`; the state is not serialized.

    Attributes:
        c (~chainer.Variable): The cell state, or ``None`` before the first step.
        h (~chainer.Variable): The last output, or ``None`` before the first step.

    Example:
        >>> lstm = L.LSTM(100, 50)
        >>> lstm.reset_state()
        >>> y = lstm(numpy.random.randn(10, 100).astype(numpy.float32))
        >>> y.shape
        (10, 50)
    """

    def __init__(
        self,
        in_size: int | None,
        out_size: int | None = None,
        lateral_init: tp.Any = None,
        upward_init: tp.Any = None,
        bias_init: tp.Any = None,
        forget_bias_init: tp.Any = None,
    ) -> None:
        super().__init__(in_size, out_size, lateral_init, upward_init, bias_init, forget_bias_init)
        self.reset_state()

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
        """One step on ``x`` ``(B, in_size)``; returns the output ``(B, out_size)``.

        Raises:
            TypeError: ``x`` has more rows than the stored state.
        """
        if self.upward.W.array is None:
            self._initialize_lazily(x)
        batch = x.shape[0]
        lstm_in = self.upward(x)
        h_rest = None
        if self.h is not None:
            h_size = self.h.shape[0]
            if batch > h_size:
                raise TypeError(
                    f"The batch size of x must be equal to or less than the size of the "
                    f"previous state h: x has {batch} rows, h has {h_size}"
                )
            if batch == 0:
                h_rest = self.h
            elif batch < h_size:
                h_update, h_rest = split_axis(self.h, [batch], axis=0)
                lstm_in += self.lateral(h_update)
            else:
                lstm_in += self.lateral(self.h)
        if self.c is None:
            self.c = zero_state(self, batch, self.state_size, x.dtype)
        self.c, y = lstm(self.c, lstm_in)
        if h_rest is None:
            self.h = y
        elif batch == 0:
            self.h = h_rest
        else:
            self.h = concat([y, h_rest], axis=0)
        return y
