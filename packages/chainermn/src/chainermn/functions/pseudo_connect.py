"""``pseudo_connect``: join a delegate variable to the variables a model returns."""

from __future__ import annotations

import chainer
from chainermn.functions import _graph


class PseudoConnect(chainer.FunctionNode):
    """Outputs its inputs but the first; backward gives the first a zero gradient."""

    def forward(self, inputs):
        self._delegate = _graph.InputSpec(inputs[0])
        return tuple(inputs[1:])

    def backward(self, target_input_indexes, grad_outputs):
        grads = (self._delegate.zero_grad(), *grad_outputs)
        return tuple(grads[i] for i in target_input_indexes)


def pseudo_connect(delegate_variable, *actual_variables) -> tuple:
    """The ``actual_variables`` unchanged, joined in the graph to ``delegate_variable``.

    Backward from the results reaches both what computed ``actual_variables`` and what
    computed ``delegate_variable`` (it gets a zero gradient, which is what makes backward
    run the :func:`~chainermn.functions.send` behind it). Use it when a process has sent
    something (the delegate) and also returns other outputs, or to join several delegates.

    Args:
        delegate_variable: A delegate returned by :func:`~chainermn.functions.send` (or any
            variable); ``None`` is an empty placeholder.
        actual_variables: The variables (or arrays) to return.

    Returns:
        A tuple of variables with the data of ``actual_variables``.

    Example:
        Every process of an MPI job runs it, e.g. under ``mpiexec -n 2``; the doctests run in one
        process, so they skip it.

        >>> phi1 = chainermn.functions.send(z1, comm, rank=1)  # doctest: +SKIP
        >>> phi2 = chainermn.functions.send(z2, comm, rank=1)  # doctest: +SKIP
        >>> (psi,) = chainermn.functions.pseudo_connect(phi1, phi2)  # doctest: +SKIP
    """
    if delegate_variable is None:
        delegate_variable = _graph.dummy_variable()
    else:
        _graph.check_variable_or_array(delegate_variable, "pseudo_connect: delegate_variable")
    for i, x in enumerate(actual_variables):
        _graph.check_variable_or_array(x, f"pseudo_connect: actual_variables[{i}]")
    return PseudoConnect().apply((delegate_variable, *actual_variables))
