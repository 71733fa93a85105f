"""Random matrices with chosen singular values, for tests of numerically sensitive linear
algebra (inverse, solve, determinants) that need well- or ill-conditioned inputs on purpose."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy


def _random_unitary(batch: tuple[int, ...], size: int, complex_: bool) -> numpy.ndarray:
    # The Q factor of a Gaussian matrix, with the signs of R's diagonal folded in, is
    # distributed uniformly over the orthogonal (unitary) matrices.
    a = numpy.random.standard_normal(batch + (size, size))
    if complex_:
        a = a + 1j * numpy.random.standard_normal(batch + (size, size))
    q, r = numpy.linalg.qr(a)
    diagonal = numpy.diagonal(r, axis1=-2, axis2=-1)
    phase = diagonal / numpy.where(diagonal == 0, 1, numpy.abs(diagonal))
    return q * phase[..., None, :]


def generate_matrix(shape: Sequence[int], dtype: Any = float, **kwargs: Any) -> numpy.ndarray:
    """Generate a random matrix (or a stack of them) with the given singular values.

    For ``shape == (*B, M, N)`` and ``K = min(M, N)``, returns ``U @ diag(s) @ V`` per batch
    entry, with random orthogonal (unitary, for complex ``dtype``) ``U`` and ``V``.

    Args:
        shape: The shape ``(*B, M, N)`` of the result; at least two dimensions.
        dtype: A real or complex floating dtype.
        singular_values: Keyword-only and required: non-negative real values, broadcastable
            to ``(*B, K)``.

    Returns:
        A ``numpy.ndarray`` of ``shape`` and ``dtype``.

    Example:
        >>> a = generate_matrix((3, 3), numpy.float32, singular_values=[1, 1, 1e-3])
        >>> round(float(numpy.linalg.cond(a)))
        1000
    """
    singular_values = kwargs.pop("singular_values", None)
    if kwargs:
        raise TypeError(f"generate_matrix got unexpected keyword arguments {sorted(kwargs)}")
    if singular_values is None:
        raise TypeError("generate_matrix needs the keyword argument singular_values")
    shape = tuple(shape)
    if len(shape) < 2:
        raise ValueError(f"generate_matrix needs a shape of at least 2 dimensions, got {shape}")
    dtype = numpy.dtype(dtype)
    if dtype.kind not in "fc":
        raise TypeError(f"generate_matrix needs a floating or complex dtype, got {dtype}")
    values = numpy.asarray(singular_values)
    if values.dtype.kind not in "biuf":
        raise TypeError(f"singular_values must be real, got dtype {values.dtype}")
    if (values < 0).any():
        raise ValueError(f"singular_values must be non-negative, got {singular_values!r}")
    *batch, m, n = shape
    k = min(m, n)
    try:
        values = numpy.broadcast_to(values, (*batch, k))
    except ValueError:
        raise ValueError(
            f"singular_values of shape {values.shape} do not broadcast to {(*batch, k)} "
            f"(batch shape + min(M, N)) for shape {shape}"
        ) from None
    complex_ = dtype.kind == "c"
    u = _random_unitary(tuple(batch), m, complex_)[..., :k]
    v = _random_unitary(tuple(batch), n, complex_)[..., :k, :]
    return ((u * values[..., None, :]) @ v).astype(dtype)


_broadcast_to = numpy.broadcast_to  # v7 compatibility: v7's private name, read by its tests
