"""Differentiable point-to-point communication: ``send`` and ``recv``.

``send`` returns a *delegate variable*: an empty array whose creator is the send. Backward
through it receives the gradient from the peer; backward through ``recv``'s outputs sends the
gradient to the peer. Pass the delegate to the next ``recv`` (``delegate_variable=``) or join
it with :func:`~chainermn.functions.pseudo_connect`, so backward from the model's output
reaches every send (otherwise the peer waits for a gradient forever).
"""

from __future__ import annotations

import chainer
from chainer import backend
from chainermn.functions import _graph


class _PointToPoint(chainer.FunctionNode):
    """Communication with ``peer_rank`` under ``peer_tag``."""

    def __init__(self, comm, peer_rank: int, peer_tag: int) -> None:
        self.comm = comm
        self.peer_rank = peer_rank
        self.peer_tag = peer_tag

    @property
    def label(self) -> str:
        return f"{type(self).__name__}(peer rank {self.peer_rank}, tag {self.peer_tag})"


class Send(_PointToPoint):
    """Sends its inputs (all but the last, a dummy) to ``peer_rank``; outputs a delegate."""

    def forward(self, inputs):
        xs = inputs[:-1]
        self.comm.send(xs[0] if len(xs) == 1 else xs, self.peer_rank, self.peer_tag)
        self._device = backend.get_device_from_array(xs[0])
        return (_graph.empty_on(self._device),)

    def backward(self, target_input_indexes, grad_outputs):
        received = self.comm.recv(self.peer_rank, self.peer_tag)
        grads = received if isinstance(received, tuple) else (received,)
        n_data = len(self.inputs) - 1
        if len(grads) != n_data:
            raise ValueError(
                f"rank {self.comm.rank}: backward of send to rank {self.peer_rank} (tag "
                f"{self.peer_tag}) expected {n_data} gradients, got {len(grads)}"
            )
        all_grads = [chainer.Variable(self._device.send(g), requires_grad=False) for g in grads]
        all_grads.append(None)  # the dummy input
        return tuple(all_grads[i] for i in target_input_indexes)


class Recv(_PointToPoint):
    """Receives arrays from ``peer_rank``; its one input is a delegate (or a dummy)."""

    def forward(self, inputs):
        received = self.comm.recv(self.peer_rank, self.peer_tag)
        arrays = received if isinstance(received, tuple) else (received,)
        self._delegate = _graph.InputSpec(inputs[0])
        outputs = tuple(self._delegate.device.send(a) for a in arrays)
        self._outputs = [_graph.InputSpec(a) for a in outputs]
        return outputs

    def backward(self, target_input_indexes, grad_outputs):
        grads = tuple(
            spec.zeros() if g is None else g.array for g, spec in zip(grad_outputs, self._outputs)
        )
        self.comm.send(grads[0] if len(grads) == 1 else grads, self.peer_rank, self.peer_tag)
        # A zero (not None) gradient for the delegate keeps backward going to its send.
        return (self._delegate.zero_grad(),)


def send(x, communicator, rank: int, tag: int = 0) -> chainer.Variable:
    """Send ``x`` to process ``rank``; differentiable (backward receives the gradient).

    Args:
        x: A :class:`~chainer.Variable` or array, or a tuple/list of them (sent as one
            message, received as a tuple).
        communicator: A ChainerMN communicator.
        rank: The receiving process (not this one).
        tag: Message tag; the matching :func:`recv` must use the same one.

    Returns:
        The delegate variable: an empty variable whose backward receives ``x``'s gradient
        from ``rank``. Return it from the model, pass it to the next :func:`recv` or join it
        with :func:`pseudo_connect`.

    Example:
        Every process of an MPI job runs it, e.g. under ``mpiexec -n 2``; the doctests run in one
        process, so they skip it.

        >>> phi = chainermn.functions.send(h, comm, rank=1)  # doctest: +SKIP
        >>> y = chainermn.functions.recv(comm, rank=1, delegate_variable=phi)  # doctest: +SKIP
    """
    _graph.check_tag(tag, "send")
    _graph.check_peer(communicator, rank, "send")
    xs = tuple(x) if isinstance(x, (tuple, list)) else (x,)
    if not xs:
        raise ValueError("send: x is an empty tuple/list; expected at least one variable")
    arrays = [_graph.array_of(item) for item in xs]
    _graph.check_inputs(xs, "send: x", lambda: communicator.send(arrays, rank, tag))
    # The dummy requires grad, so backward reaches this send even for constant inputs.
    dummy = _graph.dummy_variable(backend.get_device_from_array(_graph.array_of(xs[0])))
    (delegate,) = Send(communicator, rank, tag).apply((*xs, dummy))
    delegate.name = "delegate_variable"
    return delegate


def recv(
    communicator,
    rank: int,
    delegate_variable: chainer.Variable | None = None,
    tag: int = 0,
    force_tuple: bool = False,
):
    """Receive what :func:`send` on process ``rank`` sent; differentiable.

    Args:
        communicator: A ChainerMN communicator.
        rank: The sending process (not this one).
        delegate_variable: The delegate of an earlier :func:`send` of this process, which
            joins that part of the graph to this one so that backward reaches both.
        tag: Message tag of the matching :func:`send`.
        force_tuple: Return a tuple even when one array was sent.

    Returns:
        A :class:`~chainer.Variable`, or a tuple of them when a tuple was sent (or
        ``force_tuple``). Backward sends their gradients to ``rank``.
    """
    _graph.check_tag(tag, "recv")
    _graph.check_peer(communicator, rank, "recv")
    if delegate_variable is None:
        delegate_variable = _graph.dummy_variable()
    else:
        _graph.check_variable(delegate_variable, "recv: delegate_variable")
        delegate_variable.name = "delegate_variable"
    outputs = Recv(communicator, rank, tag).apply((delegate_variable,))
    if len(outputs) == 1 and not force_tuple:
        return outputs[0]
    return outputs
