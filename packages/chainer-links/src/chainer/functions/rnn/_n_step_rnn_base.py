"""The layer loop shared by the n_step RNN, GRU and LSTM functions, and a time loop for cells
composed of differentiable functions.

Every layer and direction ``k`` has ``2 G`` weight matrices and biases (``G`` gates): the
first ``G`` act on the layer's input, the last ``G`` on the previous hidden state. Their rows
are stacked, so each layer projects the inputs of all its time steps with one GEMM; a
*recurrence* then runs over the steps with the hidden-state weights.

The inputs are time-major: ``xs[t]`` holds step ``t`` of the ``B_t`` sequences long enough to
have one, sorted by decreasing length, so ``B_0 >= B_1 >= ...`` and the rows of a step are
the first rows of the step before. Layers pass on all steps at once, as one ``(sum B_t, .)``
array with the rows of step ``t`` after those of step ``t - 1``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy

from chainer.functions.array.concat import concat
from chainer.functions.array.separate import separate
from chainer.functions.array.split_axis import split_axis
from chainer.functions.array.stack import stack
from chainer.functions.connection.linear import linear
from chainer.functions.noise.dropout import check_ratio, dropout
from chainer.utils import argument
from chainer.variable import Variable

#: ``step(x_gates, state, W_h, b_h) -> state``: one time step of a cell; ``state[0]`` is ``h``.
Step = Callable[[Variable, tuple, Variable, Variable], tuple]

#: ``recurrence(x_gates, state, W_h, b_h, batches, reverse) -> (hs, final_state)``: one layer
#: and direction over all steps, from the stacked input projections to the stacked outputs.
Recurrence = Callable[..., tuple]


def reject_retired_kwargs(kwargs: dict) -> None:
    """Raise for the options Chainer v1 took as arguments, and for any other keyword."""
    argument.check_unexpected_kwargs(
        kwargs,
        train="train argument is not supported anymore. Use chainer.using_config",
        use_cudnn="use_cudnn argument is not supported anymore. Use chainer.using_config",
    )
    argument.assert_kwargs_empty(kwargs)


def n_step_rnn_base(
    name: str,
    n_layers: int,
    dropout_ratio: float,
    states: dict,
    ws: Sequence,
    bs: Sequence,
    xs: Sequence,
    *,
    n_gates: int,
    recurrence: Recurrence,
    use_bi_direction: bool,
    fold_hidden_bias: bool,
) -> tuple:
    """Run a stacked (bi-directional) recurrent network over time-major inputs.

    Args:
        name: The public function's name, for error messages.
        n_layers: Number of layers.
        dropout_ratio: Dropout ratio applied to the input of every layer but the first.
        states: The initial states by name (``{'hx': hx}`` or ``{'hx': hx, 'cx': cx}``), each
            of shape ``(n_layers * directions, B_0, N)``; the recurrence sees them in this
            order.
        ws: Weights, ``2 * n_gates`` matrices per layer and direction.
        bs: Biases, ``2 * n_gates`` vectors per layer and direction.
        xs: Inputs, ``xs[t]`` of shape ``(B_t, I)``.
        n_gates: Number of gates ``G``.
        recurrence: Runs one layer and direction.
        use_bi_direction: Also run every layer backward in time.
        fold_hidden_bias: Add the hidden-state biases to the input projection (the cell only
            uses their sum with the input biases); the recurrence then gets ``b_h=None``.

    Returns:
        ``(finals, ys)``: the final states stacked like ``states``, and the outputs ``ys[t]``
        of the last layer, of shape ``(B_t, directions * N)``.
    """
    directions = 2 if use_bi_direction else 1
    _check_arguments(name, n_layers, dropout_ratio, states, ws, bs, xs, n_gates, directions)
    batches = [len(x) for x in xs]
    initial = [separate(s, axis=0) for s in states.values()]
    x_all = concat_time(xs)
    finals = [[] for _ in initial]
    for layer in range(n_layers):
        if layer:
            x_all = dropout(x_all, dropout_ratio)
        outputs = []
        for direction in range(directions):
            k = layer * directions + direction
            w, b = ws[k], bs[k]
            b_x, b_h = _stack_rows(b[:n_gates]), _stack_rows(b[n_gates:])
            if fold_hidden_bias:
                b_x, b_h = b_x + b_h, None
            hs, final = recurrence(
                linear(x_all, _stack_rows(w[:n_gates]), b_x),
                tuple(s[k] for s in initial),
                _stack_rows(w[n_gates:]),
                b_h,
                batches,
                direction == 1,
            )
            for kept, state in zip(finals, final):
                kept.append(state)
            outputs.append(hs)
        x_all = outputs[0] if directions == 1 else concat(outputs, axis=1)
    return tuple(stack(kept, axis=0) for kept in finals), split_time(x_all, batches)


def composed_recurrence(step: Step) -> Recurrence:
    """A recurrence that applies ``step`` once per time step (differentiable throughout)."""

    def recurrence(x_gates, state: tuple, W_h, b_h, batches: list, reverse: bool) -> tuple:
        x_gates = split_time(x_gates, batches)
        loop = _loop_backward if reverse else _loop_forward
        hs, final = loop(step, x_gates, state, W_h, b_h)
        return concat_time(hs), final

    return recurrence


def concat_time(hs: Sequence):
    """The steps' rows one after another (one node, none for a single step)."""
    return hs[0] if len(hs) == 1 else concat(hs, axis=0)


def split_time(h_all, batches: list) -> tuple:
    """Inverse of :func:`concat_time`: the rows of each step."""
    if len(batches) == 1:
        return (h_all,)
    return split_axis(h_all, numpy.cumsum(batches[:-1]).tolist(), axis=0)


def _loop_forward(step: Step, x_gates: tuple, state: tuple, W_h, b_h) -> tuple:
    """Steps ``0, 1, ...``; rows leaving the batch keep their state as their final one."""
    hs = []
    left = []  # states of rows that left, in the order they left (later ones come first)
    for gates in x_gates:
        batch = len(gates)
        if batch < len(state[0]):
            left.append(tuple(s[batch:] for s in state))
            state = tuple(s[:batch] for s in state)
        state = step(gates, state, W_h, b_h)
        hs.append(state[0])
    if left:
        state = tuple(
            concat([s, *(rows[j] for rows in reversed(left))], axis=0) for j, s in enumerate(state)
        )
    return hs, state


def _loop_backward(step: Step, x_gates: tuple, initial: tuple, W_h, b_h) -> tuple:
    """Steps ``T - 1, ..., 0``; each row starts from its initial state at its last step."""
    batch = len(x_gates[-1])
    state = tuple(s[:batch] for s in initial) if batch < len(initial[0]) else initial
    hs = [None] * len(x_gates)
    for t in range(len(x_gates) - 1, -1, -1):
        gates = x_gates[t]
        batch, running = len(gates), len(state[0])
        if batch > running:
            state = tuple(concat([s, s0[running:batch]], axis=0) for s, s0 in zip(state, initial))
        state = step(gates, state, W_h, b_h)
        hs[t] = state[0]
    return hs, state


def _stack_rows(params: Sequence):
    """Weights or biases of the gates stacked along axis 0."""
    return params[0] if len(params) == 1 else concat(params, axis=0)


def _check_arguments(
    name: str,
    n_layers: int,
    dropout_ratio: float,
    states: dict,
    ws: Sequence,
    bs: Sequence,
    xs: Sequence,
    n_gates: int,
    directions: int,
) -> None:
    """Raise ValueError/TypeError naming what was expected and what was given."""
    if isinstance(n_layers, bool) or not isinstance(n_layers, (int, numpy.integer)):
        raise TypeError(f"{name}: n_layers must be an int, got {type(n_layers).__name__}")
    if n_layers < 1:
        raise ValueError(f"{name}: n_layers must be at least 1, got {n_layers}")
    check_ratio(dropout_ratio, "dropout_ratio")
    if not isinstance(xs, (list, tuple)) or not xs:
        raise ValueError(f"{name}: xs must be a non-empty list of time steps, got {xs!r}")
    for t, x in enumerate(xs):
        if x.ndim != 2:
            raise ValueError(f"{name}: xs[{t}] must be 2-D (batch, features), got {x.shape}")
        if t and x.shape[0] > xs[t - 1].shape[0]:
            raise ValueError(
                f"{name}: the batch size of xs must not increase over time (sequences sorted "
                f"by decreasing length, then transposed with F.transpose_sequence), but "
                f"xs[{t - 1}] has {xs[t - 1].shape[0]} rows and xs[{t}] has {x.shape[0]}"
            )
        if x.shape[1] != xs[0].shape[1]:
            raise ValueError(
                f"{name}: every xs[t] must have {xs[0].shape[1]} features like xs[0], got "
                f"xs[{t}].shape={x.shape}"
            )
    dtype = xs[0].dtype
    if dtype.kind != "f":
        raise TypeError(f"{name}: xs must be floating-point, got {dtype}")
    for what, value in _named_arrays(states, ws, bs, xs):
        if getattr(value, "dtype", dtype) != dtype:
            raise TypeError(
                f"{name}: {what} must have the dtype of xs[0] ({dtype}), got {value.dtype}"
            )
    n_states = n_layers * directions
    first = None
    for state_name, state in states.items():
        if not hasattr(state, "shape"):
            raise TypeError(f"{name}: {state_name} must be a Variable or array, got {state!r}")
        if first is None:
            if state.ndim != 3 or state.shape[:2] != (n_states, xs[0].shape[0]):
                raise ValueError(
                    f"{name}: {state_name} must have shape (n_layers * directions, "
                    f"xs[0].shape[0], units) = ({n_states}, {xs[0].shape[0]}, units), got "
                    f"{state.shape}"
                )
            first = state_name, state.shape
        elif state.shape != first[1]:
            raise ValueError(
                f"{name}: {state_name} must have the shape of {first[0]} {first[1]}, got "
                f"{state.shape}"
            )
    units = first[1][2]
    for params_name, params in (("ws", ws), ("bs", bs)):
        if len(params) != n_states:
            raise ValueError(
                f"{name}: {params_name} must hold n_layers * directions = {n_states} lists, "
                f"got {len(params)}"
            )
    for k in range(n_states):
        in_size = xs[0].shape[1] if k < directions else directions * units
        _check_layer(name, k, ws[k], bs[k], n_gates, in_size, units)


def _check_layer(name: str, k: int, w: Sequence, b: Sequence, n_gates: int, in_size, units):
    for params_name, params in (("ws", w), ("bs", b)):
        if len(params) != 2 * n_gates:
            raise ValueError(
                f"{name}: {params_name}[{k}] must hold {2 * n_gates} arrays, got {len(params)}"
            )
    for j, W in enumerate(w):
        expected = (units, in_size if j < n_gates else units)
        if W.shape != expected:
            raise ValueError(f"{name}: ws[{k}][{j}] must have shape {expected}, got {W.shape}")
    for j, bias in enumerate(b):
        if bias.shape != (units,):
            raise ValueError(f"{name}: bs[{k}][{j}] must have shape ({units},), got {bias.shape}")


def _named_arrays(states: dict, ws: Sequence, bs: Sequence, xs: Sequence):
    """Every array argument with its name, for dtype checks."""
    yield from states.items()
    for t, x in enumerate(xs):
        yield f"xs[{t}]", x
    for params_name, params in (("ws", ws), ("bs", bs)):
        for k, layer in enumerate(params):
            for j, value in enumerate(layer):
                yield f"{params_name}[{k}][{j}]", value
