"""Differentiable collectives: ``bcast``, ``gather``, ``scatter``, ``allgather``, ``alltoall``.

Every process of the communicator calls the function (and later backward through its
results) in the same order. Processes that contribute no data (non-root ``bcast`` and
``scatter``) and those that get no data (non-root ``gather``: a delegate) take part in
backward through an empty dummy input or output, as with :func:`send`.
"""

from __future__ import annotations

import chainer
from chainer import backend
from chainermn.functions import _graph


def _as_variables(arrays, device) -> tuple:
    return tuple(chainer.Variable(device.send(a), requires_grad=False) for a in arrays)


def _sum(arrays):
    total = arrays[0]
    for a in arrays[1:]:
        total = total + a
    return total


class _Collective(chainer.FunctionNode):
    """A collective over ``comm``; ``root`` for the rooted ones (bcast, gather, scatter).

    Its last input is an empty dummy that requires grad, so backward runs on every process
    (and takes part in the collective of backward) even when the data inputs are constants.
    """

    def __init__(self, comm, root: int = 0) -> None:
        self.comm = comm
        self.root = root

    @property
    def is_root(self) -> bool:
        return self.comm.rank == self.root

    def apply_with_dummy(self, inputs: tuple) -> tuple:
        device = backend.get_device_from_array(_graph.array_of(inputs[0])) if inputs else None
        return self.apply((*inputs, _graph.dummy_variable(device)))

    @staticmethod
    def select(grads: tuple, target_input_indexes) -> tuple:
        """``grads`` of the data inputs, plus None for the dummy, at the target indexes."""
        everything = (*grads, None)
        return tuple(everything[i] for i in target_input_indexes)


def _grad_arrays(grad_outputs, specs) -> tuple:
    """The output gradients as arrays, zeros where backward produced none."""
    return tuple(spec.zeros() if g is None else g.array for g, spec in zip(grad_outputs, specs))


class AllGather(_Collective):
    """Every process's ``x`` on every process; backward sums each process's share."""

    def forward(self, inputs):
        x = inputs[0]
        self._x = _graph.InputSpec(x)
        ys = tuple(self._x.device.send(y) for y in self.comm.allgather(x))
        self._ys = [_graph.InputSpec(y) for y in ys]
        return ys

    def backward(self, target_input_indexes, grad_outputs):
        # Rank j's gradient for output i belongs to rank i's x: an all-to-all, then a sum.
        mine = self.comm.alltoall(_grad_arrays(grad_outputs, self._ys))
        return self.select(_as_variables((_sum(mine),), self._x.device), target_input_indexes)


class AllToAll(_Collective):
    """``xs[i]`` goes to process ``i``; backward sends the gradients back the same way."""

    def forward(self, inputs):
        xs = inputs[:-1]
        self._device = _graph.InputSpec(xs[0]).device
        ys = tuple(self._device.send(y) for y in self.comm.alltoall(xs))
        self._ys = [_graph.InputSpec(y) for y in ys]
        return ys

    def backward(self, target_input_indexes, grad_outputs):
        gxs = self.comm.alltoall(_grad_arrays(grad_outputs, self._ys))
        return self.select(_as_variables(gxs, self._device), target_input_indexes)


class _FromRoot(_Collective):
    """Data from the root to every process; backward gathers the gradients at the root.

    The root passes its data inputs (then the dummy), the others only the dummy.
    """

    def distribute(self, data: tuple):
        raise NotImplementedError

    def root_grads(self, gathered: tuple) -> tuple:
        raise NotImplementedError

    def forward(self, inputs):
        self._device = _graph.InputSpec(inputs[0]).device
        y = self._device.send(self.distribute(inputs[:-1] if self.is_root else None))
        self._y = _graph.InputSpec(y)
        return (y,)

    def backward(self, target_input_indexes, grad_outputs):
        (gy,) = _grad_arrays(grad_outputs, [self._y])
        gathered = self.comm.gather(gy, root=self.root)
        if not self.is_root:
            return self.select((), target_input_indexes)
        grads = _as_variables(self.root_grads(gathered), self._device)
        return self.select(grads, target_input_indexes)


class Bcast(_FromRoot):
    """Root's ``x`` on every process; backward sums every process's gradient at the root."""

    def distribute(self, data):
        return self.comm.bcast(None if data is None else data[0], root=self.root)

    def root_grads(self, gathered):
        return (_sum(gathered),)


class Scatter(_FromRoot):
    """``xs[i]`` of the root to process ``i``; backward gathers the gradients at the root."""

    def distribute(self, data):
        return self.comm.scatter(data, root=self.root)

    def root_grads(self, gathered):
        return gathered


class Gather(_Collective):
    """Every process's ``x`` at the root (a delegate elsewhere); backward scatters back."""

    def forward(self, inputs):
        x = inputs[0]
        self._x = _graph.InputSpec(x)
        gathered = self.comm.gather(x, root=self.root)
        if not self.is_root:
            return (_graph.empty_on(self._x.device),)
        ys = tuple(self._x.device.send(y) for y in gathered)
        self._ys = [_graph.InputSpec(y) for y in ys]
        return ys

    def backward(self, target_input_indexes, grad_outputs):
        grads = _grad_arrays(grad_outputs, self._ys) if self.is_root else None
        gx = self.comm.scatter(grads, root=self.root)
        return self.select(_as_variables((gx,), self._x.device), target_input_indexes)


def _check_sequence(xs, size: int, operation: str, tell_peers) -> tuple:
    """``xs`` as a tuple of ``size`` variables or arrays; on bad input the peers raise too."""
    if not isinstance(xs, (tuple, list)) or len(xs) != size:
        try:
            tell_peers(xs)
        except (TypeError, ValueError):
            pass  # the communicator's view of the same error
        got = f"length {len(xs)}" if isinstance(xs, (tuple, list)) else type(xs).__name__
        raise ValueError(
            f"{operation}: xs must be a tuple or list of {size} variables (one per process), "
            f"got {got}"
        )
    arrays = [_graph.array_of(x) for x in xs]
    _graph.check_inputs(xs, f"{operation}: xs", lambda: tell_peers(arrays))
    return tuple(xs)


def allgather(comm, x) -> tuple:
    """Every process's ``x`` (one dtype everywhere, shapes may differ), on every process.

    Args:
        comm: A ChainerMN communicator.
        x: This process's :class:`~chainer.Variable` (or array).

    Returns:
        A tuple of ``comm.size`` variables, the ``i``-th from process ``i``. Backward sums,
        for each process, the gradients every process computed for its ``x``.
    """
    _graph.check_inputs((x,), "allgather: x", lambda: comm.allgather(_graph.array_of(x)))
    return AllGather(comm).apply_with_dummy((x,))


def alltoall(comm, xs) -> tuple:
    """Send ``xs[i]`` to process ``i``; receive one variable from every process.

    Args:
        comm: A ChainerMN communicator.
        xs: A tuple or list of ``comm.size`` variables (or arrays).

    Returns:
        A tuple of ``comm.size`` variables, the ``i``-th from process ``i``. Backward sends
        each gradient back to the process it came from.
    """
    return AllToAll(comm).apply_with_dummy(
        _check_sequence(xs, comm.size, "alltoall", comm.alltoall)
    )


def bcast(comm, x, root: int = 0) -> chainer.Variable:
    """Broadcast the root's ``x`` to every process.

    Args:
        comm: A ChainerMN communicator.
        x: The variable (or array) to send on the root; ignored (pass ``None``) elsewhere.
        root: The sending process.

    Returns:
        The broadcast variable. Backward sums every process's gradient into root's ``x``.
    """
    _graph.check_root(comm, root, "bcast")
    if comm.rank == root:
        _graph.check_inputs((x,), "bcast: x", lambda: comm.bcast(x, root=root))
        return Bcast(comm, root).apply_with_dummy((x,))[0]
    return Bcast(comm, root).apply_with_dummy(())[0]


def gather(comm, x, root: int = 0):
    """Gather every process's ``x`` at the root.

    Args:
        comm: A ChainerMN communicator.
        x: This process's variable (or array); one dtype everywhere, shapes may differ.
        root: The receiving process.

    Returns:
        On the root, a tuple of ``comm.size`` variables. Elsewhere, a delegate variable:
        call ``backward()`` on it (or join it with :func:`pseudo_connect`) so that the
        gradients the root scatters back reach ``x``.
    """
    _graph.check_root(comm, root, "gather")
    _graph.check_inputs((x,), "gather: x", lambda: comm.gather(_graph.array_of(x), root))
    outputs = Gather(comm, root).apply_with_dummy((x,))
    return outputs if comm.rank == root else outputs[0]


def scatter(comm, xs, root: int = 0) -> chainer.Variable:
    """Send ``xs[i]`` of the root to process ``i``.

    Args:
        comm: A ChainerMN communicator.
        xs: On the root, a tuple or list of ``comm.size`` variables (or arrays); ``None``
            elsewhere.
        root: The sending process.

    Returns:
        This process's variable. Backward gathers the gradients into root's ``xs``.
    """
    _graph.check_root(comm, root, "scatter")
    if comm.rank == root:
        xs = _check_sequence(xs, comm.size, "scatter", lambda bad: comm.scatter(bad, root))
        return Scatter(comm, root).apply_with_dummy(xs)[0]
    return Scatter(comm, root).apply_with_dummy(())[0]
