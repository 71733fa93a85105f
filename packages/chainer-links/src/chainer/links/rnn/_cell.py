"""What the recurrent cell links share: state variables that follow the link's device, and
the split of LSTM pre-activations into gates."""

from __future__ import annotations

import typing as tp

from chainer import backend, link
from chainer.functions.array.reshape import reshape
from chainer.functions.array.split_axis import split_axis
from chainer.variable import Variable


def visit_states(owner: link.Link, visitor: tp.Any, names: tuple[str, ...]) -> None:
    """Let ``visitor`` move the state variables ``names`` of ``owner`` that are set.

    The states are plain attributes, not persistent values (they are never serialized), so
    ``Link.device_resident_accept`` does not see them by itself.
    """
    for name in names:
        state = getattr(owner, name)
        if state is not None:
            visitor.visit_variable(state)


def adopt_state(owner: link.Link, name: str, state: tp.Any) -> Variable:
    """``state`` moved to ``owner``'s device, after checking that it is a Variable.

    Raises:
        TypeError: ``state`` is not a :class:`~chainer.Variable`.
    """
    if not isinstance(state, Variable):
        raise TypeError(
            f"{type(owner).__name__}.set_state: {name} must be a chainer.Variable, "
            f"got {type(state).__name__}"
        )
    state.to_device(owner.device)
    return state


def zero_state(owner: link.Link, batch: int, size: int, dtype: tp.Any) -> Variable:
    """A ``(batch, size)`` variable of zeros on ``owner``'s device: the first step's state."""
    with backend.using_device(owner.device):  # the current CUDA device must be the link's
        return Variable(owner.xp.zeros((batch, size), dtype=dtype))


def lstm_gates(lstm_in: Variable, n_units: int) -> list[Variable]:
    """The four gates ``a, i, f, o`` (each ``(B, n_units)``) of LSTM pre-activations.

    They are interleaved as in :func:`~chainer.functions.lstm`: channel ``4 * u + k`` of
    ``lstm_in`` is gate ``k`` of unit ``u``.
    """
    batch = lstm_in.shape[0]
    gates = split_axis(reshape(lstm_in, (batch, n_units, 4)), 4, axis=2)
    return [reshape(gate, (batch, n_units)) for gate in gates]
