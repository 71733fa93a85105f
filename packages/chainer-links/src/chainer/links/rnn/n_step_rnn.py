"""Stacked recurrent networks over variable-length sequences: the ``NStep`` base and the Elman
RNN links ``NStepRNNTanh``, ``NStepRNNReLU`` and their bi-directional versions."""

from __future__ import annotations

import typing as tp
from collections.abc import Sequence

import numpy

from chainer import backend, initializers, link
from chainer.functions.array.permutate import permutate
from chainer.functions.array.transpose_sequence import transpose_sequence
from chainer.functions.rnn.n_step_rnn import n_step_birnn, n_step_rnn
from chainer.links._sequences import argsort_list_descent, permutate_list
from chainer.utils import argument
from chainer.variable import Parameter, Variable

__all__ = [
    "NStepBiRNNReLU",
    "NStepBiRNNTanh",
    "NStepRNNBase",
    "NStepRNNReLU",
    "NStepRNNTanh",
    "argsort_list_descent",
    "permutate_list",
]


class NStepRNNBase(link.ChainList):
    """Base of the stacked ``NStep`` links: one child link per layer and direction.

    Child ``k = layer * directions + direction`` holds ``n_weights`` weights ``w0, w1, ...``
    and as many biases ``b0, b1, ...`` (NPZ keys ``'0/w0'``, ``'0/b0'``, ...): the first half
    acts on the layer's input (``(out_size, in_size)`` for layer 0, ``(out_size, directions *
    out_size)`` above), the second half on the hidden state (``(out_size, out_size)``).
    :attr:`ws` and :attr:`bs` list them per child, in the layout the ``F.n_step_*`` functions
    take.

    The links take a batch of sequences in any order, as a list of arrays ``(length_i, I)``;
    they sort it by decreasing length, run the function on the time-major transpose and give
    the results back in the input order.

    Args:
        n_layers: Number of layers.
        in_size: Dimension of the input vectors.
        out_size: Dimension of the hidden states (and outputs, per direction).
        dropout: Dropout ratio applied to the input of every layer but the first, in
            training mode.
        initialW: Initializer of every weight; ``None`` means
            :class:`~chainer.initializers.Normal` with scale ``sqrt(1 / fan_in)``.
        initial_bias: Initializer of every bias; ``None`` means zeros.

    Attributes:
        ws (list): ``ws[k][j]`` is parameter ``w{j}`` of child ``k``.
        bs (list): ``bs[k][j]`` is parameter ``b{j}`` of child ``k``.
    """

    #: Number of weight matrices (and of biases) of each layer and direction: 2 for the
    #: Elman RNNs, more for the gated networks.
    n_weights = 2
    #: Whether every layer also runs backward in time.
    use_bi_direction: bool

    def __init__(
        self,
        n_layers: int,
        in_size: int,
        out_size: int,
        dropout: float,
        *,
        initialW: tp.Any = None,
        initial_bias: tp.Any = None,
        **kwargs: tp.Any,
    ) -> None:
        argument.check_unexpected_kwargs(
            kwargs,
            use_cudnn="use_cudnn argument is not supported anymore. Use chainer.using_config",
            use_bi_direction="use_bi_direction is not supported anymore",
            activation="activation is not supported anymore",
        )
        argument.assert_kwargs_empty(kwargs)
        directions = 2 if self.use_bi_direction else 1
        bias_init = initializers._get_initializer(0 if initial_bias is None else initial_bias)
        layers = []
        for layer in range(n_layers):
            for _ in range(directions):
                layers.append(
                    self._layer_link(
                        in_size if layer == 0 else directions * out_size,
                        out_size,
                        initialW,
                        bias_init,
                    )
                )
        super().__init__(*layers)
        self.n_layers = n_layers
        self.dropout = dropout
        self.out_size = out_size
        self.direction = directions
        self._collect_weights()

    def _layer_link(self, in_size: int, out_size: int, initialW: tp.Any, bias_init: tp.Any):
        """The link of one layer and direction, with ``w0..`` and ``b0..``."""
        layer = link.Link()
        half = self.n_weights // 2
        with layer.init_scope():
            for j in range(self.n_weights):
                fan_in = in_size if j < half else out_size
                if initialW is None:
                    weight_init = initializers.Normal(numpy.sqrt(1.0 / fan_in))
                else:
                    weight_init = initializers._get_initializer(initialW)
                setattr(layer, f"w{j}", Parameter(weight_init, (out_size, fan_in)))
                setattr(layer, f"b{j}", Parameter(bias_init, (out_size,)))
        return layer

    def _collect_weights(self) -> None:
        # ws/bs hold the Parameter objects themselves, so they follow device transfers; a copy
        # has new Parameter objects and must collect them again.
        self.ws = [[getattr(layer, f"w{j}") for j in range(self.n_weights)] for layer in self]
        self.bs = [[getattr(layer, f"b{j}") for j in range(self.n_weights)] for layer in self]

    def copy(self, mode: str = "share") -> NStepRNNBase:
        ret = super().copy(mode)
        ret._collect_weights()
        return ret

    @property
    def n_cells(self) -> int:
        """Number of state arrays the network takes and returns: 1 (``hx``), 2 for the LSTMs
        (``hx, cx``)."""
        return 1

    def rnn(self, *args: tp.Any) -> tuple:
        """The ``F.n_step_*`` function this link runs, applied to ``args``."""
        raise NotImplementedError(f"{type(self).__name__} must define rnn")

    def init_hx(self, xs: Sequence[tp.Any]) -> Variable:
        """Zero initial states ``(n_layers * directions, len(xs), out_size)`` on the link's
        device, of the dtype of ``xs[0]``."""
        shape = (self.n_layers * self.direction, len(xs), self.out_size)
        with backend.using_device(self.device):
            return Variable(self.xp.zeros(shape, dtype=xs[0].dtype))

    def forward(self, hx: tp.Any, xs: Sequence[tp.Any], **kwargs: tp.Any) -> tuple:
        """Run the network on a batch of sequences.

        Args:
            hx: Initial hidden states ``(n_layers * directions, len(xs), out_size)``, row
                ``i`` for sequence ``xs[i]``; ``None`` for zeros.
            xs: The sequences, a list of arrays or variables ``(length_i, in_size)`` in any
                order of length.

        Returns:
            ``(hy, ys)``: the final hidden states (shape of ``hx``) and the outputs, ``ys[i]``
            of shape ``(length_i, directions * out_size)``.
        """
        (hy,), ys = self._call([hx], xs, **kwargs)
        return hy, ys

    def _call(self, hs: list, xs: Sequence[tp.Any], **kwargs: tp.Any) -> tuple:
        """Sort, transpose, run :meth:`rnn` and undo the sorting; ``hs`` are the states."""
        argument.check_unexpected_kwargs(
            kwargs, train="train argument is not supported anymore. Use chainer.using_config"
        )
        argument.assert_kwargs_empty(kwargs)
        if not isinstance(xs, (list, tuple)):
            raise TypeError(
                f"{type(self).__name__}: xs must be a list of sequences (arrays or variables "
                f"of shape (length, in_size)), got {type(xs).__name__}"
            )
        if not xs:
            raise ValueError(f"{type(self).__name__}: xs must hold at least one sequence")
        indices = argsort_list_descent(xs)
        sorted_xs = permutate_list(xs, indices, inv=False)
        states = [
            self.init_hx(sorted_xs) if h is None else permutate(h, indices, axis=1) for h in hs
        ]
        result = self.rnn(
            self.n_layers,
            self.dropout,
            *states,
            self.ws,
            self.bs,
            transpose_sequence(sorted_xs),
        )
        finals = [permutate(h, indices, axis=1, inv=True) for h in result[:-1]]
        ys = permutate_list(transpose_sequence(result[-1]), indices, inv=True)
        return finals, ys


class NStepRNNTanh(NStepRNNBase):
    """Stacked uni-directional Elman RNN with ``tanh``: ``h_t = tanh(W_0 x_t + b_0 +
    W_1 h_{t-1} + b_1)`` per layer (see :func:`~chainer.functions.n_step_rnn`).

    Arguments, parameters and :meth:`forward` as :class:`NStepRNNBase`; each layer has
    ``w0, w1, b0, b1``.

    Example:
        >>> rnn = L.NStepRNNTanh(2, 3, 4, 0.0)
        >>> xs = [numpy.ones((l, 3), numpy.float32) for l in (2, 5)]
        >>> hy, ys = rnn(None, xs)
        >>> hy.shape, [y.shape for y in ys]
        ((2, 2, 4), [(2, 4), (5, 4)])
    """

    use_bi_direction = False

    def rnn(self, *args: tp.Any) -> tuple:
        return n_step_rnn(*args, activation="tanh")


class NStepRNNReLU(NStepRNNBase):
    """Stacked uni-directional Elman RNN with ``relu`` instead of ``tanh``.

    Arguments, parameters and :meth:`forward` as :class:`NStepRNNTanh`.

    Example:
        >>> rnn = L.NStepRNNReLU(1, 3, 4, 0.0)
        >>> hy, ys = rnn(None, [numpy.ones((2, 3), numpy.float32)])
        >>> ys[0].shape
        (2, 4)
    """

    use_bi_direction = False

    def rnn(self, *args: tp.Any) -> tuple:
        return n_step_rnn(*args, activation="relu")


class NStepBiRNNTanh(NStepRNNBase):
    """Stacked bi-directional Elman RNN with ``tanh`` (see
    :func:`~chainer.functions.n_step_birnn`): outputs ``[forward, backward]`` of width
    ``2 * out_size``; children ``2 l`` and ``2 l + 1`` are layer ``l``'s two directions.

    Example:
        >>> rnn = L.NStepBiRNNTanh(1, 3, 4, 0.0)
        >>> hy, ys = rnn(None, [numpy.ones((2, 3), numpy.float32)])
        >>> hy.shape, ys[0].shape
        ((2, 1, 4), (2, 8))
    """

    use_bi_direction = True

    def rnn(self, *args: tp.Any) -> tuple:
        return n_step_birnn(*args, activation="tanh")


class NStepBiRNNReLU(NStepRNNBase):
    """Stacked bi-directional Elman RNN with ``relu``; otherwise as :class:`NStepBiRNNTanh`.

    Example:
        >>> rnn = L.NStepBiRNNReLU(1, 3, 4, 0.0)
        >>> hy, ys = rnn(None, [numpy.ones((2, 3), numpy.float32)])
        >>> ys[0].shape
        (2, 8)
    """

    use_bi_direction = True

    def rnn(self, *args: tp.Any) -> tuple:
        return n_step_birnn(*args, activation="relu")
