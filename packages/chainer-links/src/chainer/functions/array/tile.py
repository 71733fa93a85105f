"""``tile``: repeat a whole variable along each axis, as :func:`numpy.tile`."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer._ops.array_ops import reshape, sum
from chainer.function_node import FunctionNode
from chainer.variable import Variable

__all__ = ["Tile", "tile"]


class Tile(FunctionNode):
    """Tile the input ``reps`` times; the gradient sums the tiles."""

    def __init__(self, reps) -> None:
        if isinstance(reps, (int, numpy.integer)):
            reps = (reps,)
        elif not (
            isinstance(reps, tuple) and all(isinstance(r, (int, numpy.integer)) for r in reps)
        ):
            raise TypeError(
                f"reps must be an int or a tuple of ints, got {type(reps).__name__}: {reps!r}"
            )
        if any(r < 0 for r in reps):
            raise ValueError(f"reps must be zero or larger, got {reps}")
        self.reps = tuple(int(r) for r in reps)

    def forward(self, inputs: tuple) -> tuple:
        xp = backend.get_array_module(inputs[0])
        return (xp.tile(inputs[0], self.reps),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        # numpy.tile as a broadcast: (s1, s2, ...) -> (r1, s1, r2, s2, ...) -> (r1 * s1, ...).
        x = inputs[0]
        ndim = max(x.ndim, len(self.reps))
        shape = (1,) * (ndim - x.ndim) + x.shape
        reps = (1,) * (ndim - len(self.reps)) + self.reps
        spread = chainerx.reshape(x, tuple(n for s in shape for n in (1, s)))
        tiled = chainerx.broadcast_to(spread, tuple(n for pair in zip(reps, shape) for n in pair))
        return (chainerx.reshape(tiled, tuple(r * s for r, s in zip(reps, shape))),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        gy = grad_outputs[0]
        in_shape = self.inputs[0].shape
        ndim = max(len(in_shape), len(self.reps))
        shape = (1,) * (ndim - len(in_shape)) + in_shape
        reps = (1,) * (ndim - len(self.reps)) + self.reps
        # Give every tile index its own axis (just before the axis it repeats) and sum them.
        split = tuple(n for pair in zip(reps, shape) for n in pair)
        gx = sum(reshape(gy, split), axis=tuple(range(0, 2 * ndim, 2)))
        return (gx if gx.shape == in_shape else reshape(gx, in_shape),)


def tile(x, reps) -> Variable:
    """Construct a variable by repeating ``x`` the number of times given by ``reps``.

    Args:
        x: Input variable or array.
        reps: Repetitions along each axis: an int or a tuple of ints. When it is longer than
            ``x.ndim``, ``x`` is promoted with leading axes of length one; when shorter, ``reps``
            is promoted with leading ones.

    Returns:
        The tiled variable.

    Example:
        >>> x = np.array([0, 1, 2], np.float32)
        >>> F.tile(x, 2).array
        array([0., 1., 2., 0., 1., 2.], dtype=float32)
        >>> F.tile(x, (2, 1)).shape
        (2, 3)
    """
    return Tile(reps).apply((x,))[0]
