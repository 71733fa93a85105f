"""Shared settings and NumPy references of the rnn tests."""

import numpy

FLOAT_DTYPES = [numpy.float16, numpy.float32, numpy.float64]


def loosen_for_float16(case, forward=None, backward=None) -> None:
    """Set a FunctionTestCase's tolerances for its ``dtype`` (float16 needs looser ones).

    Args:
        case: The test case (with a ``dtype`` attribute).
        forward: Forward tolerances for float16, default ``atol=rtol=1e-3``.
        backward: Backward and double-backward tolerances for float16, default
            ``atol=5e-3, rtol=5e-2`` with a finite-difference step of ``2 ** -6`` (the
            default step is about one float16 ulp near 1, too coarse to see a slope).
    """
    if case.dtype != numpy.float16:
        return
    case.check_forward_options = forward or {"atol": 1e-3, "rtol": 1e-3}
    backward = backward or {"atol": 5e-3, "rtol": 5e-2, "eps": 2.0**-6}
    case.check_backward_options = backward
    case.check_double_backward_options = backward


def sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


# One step of each cell for a single sequence: x (I,), state tuple of (N,) vectors, the
# layer's weights w and biases b (lists), in float64.


def rnn_cell(activation):
    def cell(x, state, w, b):
        return (activation(w[0] @ x + w[1] @ state[0] + b[0] + b[1]),)

    return cell


def gru_cell(x, state, w, b):
    (h,) = state
    r = sigmoid(w[0] @ x + w[3] @ h + b[0] + b[3])
    z = sigmoid(w[1] @ x + w[4] @ h + b[1] + b[4])
    n = numpy.tanh(w[2] @ x + b[2] + r * (w[5] @ h + b[5]))
    return ((1 - z) * n + z * h,)


def lstm_cell(x, state, w, b):
    h, c = state
    i = sigmoid(w[0] @ x + w[4] @ h + b[0] + b[4])
    f = sigmoid(w[1] @ x + w[5] @ h + b[1] + b[5])
    a = numpy.tanh(w[2] @ x + w[6] @ h + b[2] + b[6])
    o = sigmoid(w[3] @ x + w[7] @ h + b[3] + b[7])
    c = f * c + i * a
    return o * numpy.tanh(c), c


def n_step_reference(cell, n_layers, directions, states, ws, bs, xs, layer_input_scale=1.0):
    """A stacked (bi-directional) RNN run one sequence at a time, in float64.

    Args:
        cell: One of the cells above.
        states: The initial states, each ``(n_layers * directions, B, N)``.
        ws, bs: Nested lists of arrays as n_step_* take them.
        xs: Time-major inputs, ``xs[t]`` of shape ``(B_t, I)``.
        layer_input_scale: Factor applied to the input of every layer but the first (stands
            in for a dropout mask).

    Returns:
        ``(finals, ys)``: final states like ``states`` and time-major outputs.
    """
    xs = [numpy.asarray(x, numpy.float64) for x in xs]
    ws = [[numpy.asarray(w, numpy.float64) for w in layer] for layer in ws]
    bs = [[numpy.asarray(b, numpy.float64) for b in layer] for layer in bs]
    finals = [numpy.array(s, numpy.float64) for s in states]
    batch = len(xs[0])
    sequence_outputs = []
    for row in range(batch):
        sequence = numpy.stack([x[row] for x in xs if len(x) > row])
        for layer in range(n_layers):
            if layer:
                sequence = sequence * layer_input_scale
            outputs = []
            for direction in range(directions):
                k = layer * directions + direction
                state = tuple(s[k, row] for s in finals)
                out = numpy.empty((len(sequence), finals[0].shape[2]))
                steps = range(len(sequence))
                for t in reversed(steps) if direction else steps:
                    state = cell(sequence[t], state, ws[k], bs[k])
                    out[t] = state[0]
                for s, value in zip(finals, state):
                    s[k, row] = value
                outputs.append(out)
            sequence = numpy.concatenate(outputs, axis=1)
        sequence_outputs.append(sequence)
    ys = [
        numpy.stack([seq[t] for seq in sequence_outputs if len(seq) > t]) for t in range(len(xs))
    ]
    return finals, ys


def n_step_params(rng, n_layers, directions, n_weights, in_size, units, dtype):
    """Random ``ws`` and ``bs`` of the right shapes (scaled to keep activations moderate)."""
    ws, bs = [], []
    gates = n_weights // 2
    for k in range(n_layers * directions):
        layer_in = in_size if k < directions else directions * units
        ws.append(
            [
                rng.uniform(-0.7, 0.7, (units, layer_in if j < gates else units)).astype(dtype)
                for j in range(n_weights)
            ]
        )
        bs.append([rng.uniform(-0.5, 0.5, units).astype(dtype) for _ in range(n_weights)])
    return ws, bs


def time_major_inputs(rng, lengths, in_size, dtype):
    """``xs[t]`` of shape ``(B_t, in_size)`` for sequences of the given (sorted) lengths."""
    return [
        rng.uniform(-1, 1, (sum(1 for n in lengths if n > t), in_size)).astype(dtype)
        for t in range(max(lengths))
    ]


class NStepCase:
    """``FunctionTestCase`` body for the n_step functions, against :func:`n_step_reference`.

    Subclasses set ``functions`` (uni- and bi-directional), ``cell``, ``n_weights`` and
    ``state_names``; parameters ``n_layers``, ``bi``, ``lengths`` and ``dtype``.
    """

    in_size = 3
    units = 2

    def setUp(self):
        self.directions = 2 if self.bi else 1
        loosen_for_float16(
            self,
            forward={"atol": 5e-3, "rtol": 5e-3},
            backward={"atol": 2e-2, "rtol": 5e-2, "eps": 2.0**-5},
        )

    def generate_inputs(self):
        rng = numpy.random  # seeded by testing.fix_random; regenerated to dodge ReLU kinks
        shape = (self.n_layers * self.directions, len(self.lengths))
        states = [
            rng.uniform(-1, 1, (*shape, self.units)).astype(self.dtype) for _ in self.state_names
        ]
        ws, bs = n_step_params(
            rng,
            self.n_layers,
            self.directions,
            self.n_weights,
            self.in_size,
            self.units,
            self.dtype,
        )
        xs = time_major_inputs(rng, self.lengths, self.in_size, self.dtype)
        return (
            *states,
            *(w for layer in ws for w in layer),
            *(b for layer in bs for b in layer),
            *xs,
        )

    def _split(self, inputs):
        n_states = len(self.state_names)
        n_params = self.n_layers * self.directions * self.n_weights
        states = inputs[:n_states]
        flat_ws = inputs[n_states : n_states + n_params]
        flat_bs = inputs[n_states + n_params : n_states + 2 * n_params]
        xs = inputs[n_states + 2 * n_params :]
        per = self.n_weights
        ws = [list(flat_ws[k : k + per]) for k in range(0, n_params, per)]
        bs = [list(flat_bs[k : k + per]) for k in range(0, n_params, per)]
        return states, ws, bs, list(xs)

    def forward(self, inputs, device):
        states, ws, bs, xs = self._split(inputs)
        function = self.functions[self.bi]
        outputs = function(self.n_layers, 0.0, *states, ws, bs, xs)
        *finals, ys = outputs
        return (*finals, *ys)

    def forward_expected(self, inputs):
        states, ws, bs, xs = self._split(inputs)
        finals, ys = n_step_reference(
            self.cell, self.n_layers, self.directions, states, ws, bs, xs
        )
        return tuple(y.astype(self.dtype) for y in (*finals, *ys))
