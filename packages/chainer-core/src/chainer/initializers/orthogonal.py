"""The orthogonal initializer (Saxe et al., 2014)."""

from __future__ import annotations

import math
from typing import Any

import numpy

from chainer.initializer import Initializer
from chainer.initializers._arrays import assign, to_numpy
from chainer.initializers._random import pop_rng, random_source

# For each mode: (reject more inputs than outputs, reject more outputs than inputs).
_MODE_REJECTS = {
    "auto": (False, False),
    "projection": (False, True),
    "embedding": (True, False),
    "basis": (True, True),
}


class Orthogonal(Initializer):
    """Initializes array with an orthogonal system.

    The array is seen as a matrix with ``out_dim = shape[0]`` rows and
    ``in_dim = prod(shape[1:])`` columns. A matrix of standard normal draws is decomposed by QR
    (with the signs fixed so that the result is uniformly distributed) and its orthonormal factor,
    times ``scale``, fills the array: rows are orthonormal when ``out_dim <= in_dim``
    (``W @ W.T == scale**2 * I``) and columns are when ``out_dim >= in_dim``
    (``W.T @ W == scale**2 * I``). A 0-dim array gets ``scale`` with a random sign.

    Args:
        scale: Factor applied to the orthonormal system.
        dtype: Dtype the arrays to fill must have (``None`` accepts any).
        mode: Which shapes to accept. ``'auto'``: any; ``'projection'``: ``out_dim <= in_dim``
            (orthonormal rows); ``'embedding'``: ``out_dim >= in_dim`` (orthonormal
            columns); ``'basis'``: ``out_dim == in_dim``.
        rng: Keyword only. A random number generator with a ``normal(size=...)`` method, such as
            ``numpy.random.RandomState``; by default ``numpy.random``. Draws are made on the
            host, also for CuPy arrays.
    """

    def __init__(
        self,
        scale: float = 1.1,
        dtype: Any | None = None,
        mode: str = "auto",
        **kwargs: Any,
    ) -> None:
        if mode not in _MODE_REJECTS:
            raise ValueError(
                f"mode must be one of {', '.join(map(repr, _MODE_REJECTS))}, got {mode!r}"
            )
        self.scale = scale
        self.mode = mode
        self.rng = pop_rng(kwargs, type(self).__name__, "normal")
        super().__init__(dtype)

    def __call__(self, array: Any) -> None:
        self._check_dtype(array)
        shape = array.shape
        if array.size == 0:
            raise ValueError(f"Orthogonal cannot initialize an empty array, got shape {shape}")
        out_dim = shape[0] if shape else 1
        in_dim = math.prod(shape[1:])
        reject_wide, reject_tall = _MODE_REJECTS[self.mode]
        if (reject_wide and in_dim > out_dim) or (reject_tall and in_dim < out_dim):
            raise ValueError(
                f"Orthogonal(mode={self.mode!r}) cannot make an orthogonal {self.mode} for shape "
                f"{shape}, seen as {in_dim}-dim input and {out_dim}-dim output"
            )
        source = random_source(self.rng, array, on_host=True)
        gaussian = to_numpy(source.normal(size=(out_dim, in_dim)))
        # QR needs a tall matrix; a wide one is decomposed through its transpose.
        wide = in_dim > out_dim
        q, r = numpy.linalg.qr(gaussian.T if wide else gaussian)
        # Fixing the signs by diag(r) makes Q Haar-distributed rather than biased by LAPACK.
        q *= numpy.copysign(self.scale, numpy.diag(r))
        assign(array, (q.T if wide else q).reshape(shape))
