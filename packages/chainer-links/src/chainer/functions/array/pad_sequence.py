"""``pad_sequence``: stack sequences of different lengths into one padded array."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer._ops.get_item import get_item
from chainer.function_node import Fallback, FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable

__all__ = ["PadSequence", "pad_sequence"]


class PadSequence(FunctionNode):
    """``xs[i]`` of shape ``(l_i, ...)`` -> ``y`` of shape ``(len(xs), length, ...)``."""

    def __init__(self, length: int | None, padding) -> None:
        if length is not None and (not isinstance(length, int) or length < 0):
            raise ValueError(f"length must be None or a non-negative int, got {length!r}")
        self.length = length
        self.padding = padding

    # A plain check on the arrays (a batch holds many sequences; see TransposeSequence).
    def _check_arrays(self, in_data: tuple) -> None:
        if not in_data:
            raise type_check.InvalidType("in_types.size() > 0", "0 <= 0 (no sequences)")
        first = in_data[0]
        for i, x in enumerate(in_data):
            if x.ndim == 0:
                raise type_check.InvalidType(f"xs[{i}].ndim > 0", f"xs[{i}].shape={x.shape}")
            if x.shape[1:] != first.shape[1:]:
                raise type_check.InvalidType(
                    f"xs[{i}].shape[1:] == xs[0].shape[1:]", f"{x.shape[1:]} != {first.shape[1:]}"
                )
            if x.dtype != first.dtype:
                raise type_check.InvalidType(
                    f"xs[{i}].dtype == xs[0].dtype", f"{x.dtype} != {first.dtype}"
                )
            if self.length is not None and x.shape[0] > self.length:
                raise type_check.InvalidType(
                    f"xs[{i}].shape[0] <= {self.length} (length)", f"{x.shape[0]} > {self.length}"
                )

    def forward(self, inputs: tuple) -> tuple:
        xp = backend.get_array_module(*inputs)
        length = self.length
        if length is None:
            length = max(len(x) for x in inputs)
        first = inputs[0]
        # Cast as v7 did (NumPy 1 wrapped -1 to 255 for uint8; NumPy 2 and CuPy refuse it).
        fill = numpy.asarray(self.padding).astype(first.dtype)[()]
        y = xp.full((len(inputs), length, *first.shape[1:]), fill, dtype=first.dtype)
        for i, x in enumerate(inputs):
            y[i, : len(x)] = x
        return (y,)

    def forward_chainerx(self, inputs: tuple):
        import chainerx

        if not numpy.isscalar(self.padding):
            return Fallback
        first = inputs[0]
        length = max(len(x) for x in inputs) if self.length is None else self.length
        value = numpy.asarray(self.padding).astype(first.dtype)[()]  # -1 wraps for uint8, as v7
        rows = []
        for x in inputs:
            if len(x) < length:
                shape = (length - len(x), *first.shape[1:])
                fill = chainerx.full(shape, value, first.dtype, first.device)
                x = chainerx.concatenate([x, fill])
            rows.append(x)
        return (chainerx.stack(rows),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        gy = grad_outputs[0]
        return tuple(get_item(gy, (i, slice(0, self.inputs[i].shape[0]))) for i in indexes)


def pad_sequence(xs, length: int | None = None, padding=0) -> Variable:
    """Pad sequences of different lengths to one length and stack them.

    Args:
        xs: A list of variables or arrays of shapes ``(l_i, ...)``; all but the first axis
            and the dtype must agree.
        length: The length of the padded axis; ``None`` uses the longest ``l_i``. It must not
            be shorter than any sequence.
        padding: The value of the padded elements.

    Returns:
        A variable of shape ``(len(xs), length, ...)``.

    Example:
        >>> xs = [np.array([1, 2, 3], np.int32), np.array([4], np.int32)]
        >>> F.pad_sequence(xs, padding=-1).array
        array([[ 1,  2,  3],
               [ 4, -1, -1]], dtype=int32)
    """
    if len(xs) == 0:
        raise ValueError("pad_sequence needs at least one sequence, got an empty list")
    return PadSequence(length, padding).apply(xs)[0]
