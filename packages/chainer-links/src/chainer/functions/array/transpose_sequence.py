"""``transpose_sequence``: turn a batch of sequences into a sequence of batches."""

from __future__ import annotations

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.utils import type_check

__all__ = ["TransposeSequence", "transpose_sequence"]


class TransposeSequence(FunctionNode):
    """Inputs ``xs[i]`` of shape ``(l_i, ...)`` with ``l_0 >= l_1 >= ...`` -> outputs ``ys[t]``
    of shape ``(#{i: l_i > t}, ...)`` with ``ys[t][i] = xs[i][t]``.

    ``length`` is the number of outputs wanted: it pads the result with empty arrays, so that
    transposing back restores sequences of length zero.
    """

    def __init__(self, length: int) -> None:
        self.length = length

    # A plain check on the arrays: a batch holds many sequences, and type_check expressions
    # would cost more than the transposition itself.
    def _check_arrays(self, in_data: tuple) -> None:
        for i, x in enumerate(in_data):
            if x.ndim < 1:
                raise type_check.InvalidType(f"xs[{i}].ndim >= 1", f"xs[{i}].shape={x.shape}")
        for i in range(1, len(in_data)):
            prev, cur = in_data[i - 1], in_data[i]
            if prev.shape[0] < cur.shape[0]:
                raise type_check.InvalidType(
                    f"xs[{i - 1}].shape[0] >= xs[{i}].shape[0] (sorted by decreasing length)",
                    f"{prev.shape[0]} < {cur.shape[0]}",
                )
            if prev.shape[1:] != cur.shape[1:]:
                raise type_check.InvalidType(
                    f"xs[{i - 1}].shape[1:] == xs[{i}].shape[1:]",
                    f"{prev.shape[1:]} != {cur.shape[1:]}",
                )
            if prev.dtype != cur.dtype:
                raise type_check.InvalidType(
                    f"xs[{i - 1}].dtype == xs[{i}].dtype", f"{prev.dtype} != {cur.dtype}"
                )

    def forward(self, inputs: tuple) -> tuple:
        xp = backend.get_array_module(*inputs)
        first = inputs[0]
        n = len(inputs)
        longest = len(first)
        unit = first.shape[1:]
        # One padded (longest, n, ...) array: each output is a prefix of one of its rows.
        padded = xp.zeros((longest, n, *unit), dtype=first.dtype)
        for i, x in enumerate(inputs):
            padded[: len(x), i] = x
        counts = [sum(1 for x in inputs if len(x) > t) for t in range(longest)]
        ys = [padded[t, :count] for t, count in enumerate(counts)]
        ys += [xp.zeros((0, *unit), dtype=first.dtype)] * (self.length - longest)
        self._shapes = [y.shape for y in ys]
        return tuple(ys)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        # The inputs are sorted by decreasing length: step t takes the first ones longer than t.
        first = inputs[0]
        ys = []
        for t in range(len(first)):
            count = sum(1 for x in inputs if len(x) > t)
            ys.append(chainerx.stack([x[t] for x in inputs[:count]]))
        empty = (0, *first.shape[1:])
        ys += [
            chainerx.zeros(empty, first.dtype, first.device)
            for _ in range(self.length - len(first))
        ]
        return tuple(ys)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        grads = list(grad_outputs)
        xp = None
        for t, g in enumerate(grads):
            if g is None:
                if xp is None:
                    xp = backend.get_array_module(*[g for g in grad_outputs if g is not None])
                grads[t] = xp.zeros(self._shapes[t], dtype=self.inputs[0].dtype)
        return TransposeSequence(len(self.inputs)).apply(grads)


def transpose_sequence(xs) -> tuple:
    """Transpose a list of sequences into a list of time steps.

    The input is a batch of sequences sorted by decreasing length; the output holds, for each
    time step ``t``, the ``t``-th elements of the sequences long enough to have one. This is
    the layout recurrent networks consume step by step.

    Args:
        xs: A list of variables or arrays of shapes ``(l_i, ...)`` with
            ``l_0 >= l_1 >= ...``; the other axes and dtypes must agree.

    Returns:
        A tuple of ``l_0`` variables; the ``t``-th has shape ``(#{i: l_i > t}, ...)``.

    Example:
        >>> xs = [np.array([1, 2, 3], np.float32), np.array([4, 5], np.float32),
        ...       np.array([6], np.float32)]
        >>> [y.array for y in F.transpose_sequence(xs)]
        [array([1., 4., 6.], dtype=float32), array([2., 5.], dtype=float32), \
array([3.], dtype=float32)]
    """
    if not xs:
        return ()
    return TransposeSequence(len(xs[0])).apply(xs)
