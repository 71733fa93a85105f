"""``create_multi_node_n_step_rnn``: an NStep RNN whose states come from / go to a peer."""

from __future__ import annotations

import chainer
import chainer.links as L
from chainermn.functions import _graph, recv, send


class MultiNodeNStepRNN(chainer.Chain):
    """Wraps an NStep RNN link: initial states received, final states sent.

    Calling it with the RNN's sequence inputs returns the RNN's outputs followed by a
    delegate variable (``None`` when ``rank_out`` is None): for an LSTM
    ``hy, cy, ys, delegate``. Join the delegate to the loss with
    :func:`~chainermn.functions.pseudo_connect` so backward receives the states' gradients.
    """

    def __init__(self, link: chainer.Link, communicator, rank_in=None, rank_out=None) -> None:
        super().__init__()
        for name, rank in (("rank_in", rank_in), ("rank_out", rank_out)):
            if rank is not None:
                _graph.check_peer(communicator, rank, f"create_multi_node_n_step_rnn: {name}")
        with self.init_scope():
            self.actual_rnn = link
        self.communicator = communicator
        self.rank_in = rank_in
        self.rank_out = rank_out
        self.n_cells = 2 if isinstance(link, (L.NStepLSTM, L.NStepBiLSTM)) else 1

    def forward(self, *inputs) -> tuple:
        if self.rank_in is None:
            cells = (None,) * self.n_cells
        else:
            cells = recv(self.communicator, self.rank_in, force_tuple=True)
        outputs = self.actual_rnn(*cells, *inputs)
        delegate = None
        if self.rank_out is not None:
            delegate = send(outputs[: self.n_cells], self.communicator, self.rank_out)
        return (*outputs, delegate)


def create_multi_node_n_step_rnn(
    actual_link: chainer.Link, communicator, rank_in=None, rank_out=None
) -> MultiNodeNStepRNN:
    """Wrap an NStep RNN link (``L.NStepLSTM``, ``L.NStepGRU``, ...) for model parallelism.

    Its initial hidden (and cell) states are received from ``rank_in`` and its final ones
    sent to ``rank_out`` (``None``: zero initial states / nothing sent), as the encoder and
    decoder of a seq2seq model split across two processes.

    Args:
        actual_link: The NStep RNN link.
        communicator: A ChainerMN communicator.
        rank_in: The process the initial states come from, or ``None``.
        rank_out: The process the final states go to, or ``None``.

    Returns:
        A link whose call returns the RNN's outputs plus a delegate variable.

    Example:
        Every process of an MPI job runs it, e.g. under ``mpiexec -n 2``; the doctests run in one
        process, so they skip it.

        >>> encoder = chainermn.links.create_multi_node_n_step_rnn(
        ...     L.NStepLSTM(1, 8, 8, 0.1), comm, rank_in=None, rank_out=1)  # doctest: +SKIP
    """
    return MultiNodeNStepRNN(actual_link, communicator, rank_in, rank_out)
