"""``cumsum``, ``hinge`` and ``fmod``, written with differentiable ChainerX routines."""

from numbers import Real

from chainerx._core import (
    DimensionError,
    DtypeError,
    arange,
    concatenate,
    isfinite,
    isinf,
    logical_and,
    ndarray,
    relu,
    remainder,
    where,
)


def cumsum(a: ndarray, axis: int | None = None) -> ndarray:
    """Cumulative sum of ``a`` along ``axis`` (over the flattened array if ``axis`` is None).

    As NumPy's, bool and integer arrays sum in int64 (NumPy gives uint64 for uint8; ChainerX
    has no uint64). Computed by a parallel prefix sum: about log2(n) differentiable additions
    over the whole array, so it is differentiable any number of times.

    Raises:
        DimensionError: ``axis`` is out of range.
    """
    if axis is None:
        a, axis = a.reshape(-1), 0
    elif not -a.ndim <= axis < a.ndim:
        raise DimensionError(f"cumsum: axis {axis} is out of range for shape {a.shape}")
    axis %= a.ndim
    out = a.astype("int64") if a.dtype.kind in "biu" else a.copy()
    n = out.shape[axis]
    before = (slice(None),) * axis
    shift = 1
    while shift < n:
        # Hillis-Steele step: every element from index `shift` on adds the one `shift` before it.
        head = out[before + (slice(None, shift),)]
        tail = out[before + (slice(shift, None),)] + out[before + (slice(None, n - shift),)]
        out = concatenate([head, tail], axis)
        shift *= 2
    return out


def hinge(x: ndarray, t: ndarray, norm: float = 1.0) -> ndarray:
    """The hinge loss of each score, ``max(0, 1 - s x) ** norm`` (``s`` is +1 at the true class).

    Args:
        x: Scores of shape ``(n, k)``, floating.
        t: Labels of shape ``(n,)``, integers in ``[0, k)``.
        norm: The exponent (1 for L1, 2 for L2).

    Returns:
        The elementwise loss, of ``x``'s shape and dtype (differentiable in ``x``).
    """
    if x.ndim != 2 or t.shape != (x.shape[0],):
        raise DimensionError(
            f"hinge: x must have shape (n, k) and t shape (n,), got {x.shape} and {t.shape}"
        )
    if x.dtype.kind != "f" or t.dtype.kind not in "iu":
        raise DtypeError(f"hinge: x must be floating and t integral, got {x.dtype} and {t.dtype}")
    if not isinstance(norm, Real) or norm <= 0:
        raise ValueError(f"hinge: norm must be a positive number, got {norm!r}")
    is_true_class = t.reshape(-1, 1) == arange(x.shape[1], dtype=t.dtype, device=x.device)
    loss = relu(1 + where(is_true_class, -x, x))
    return loss if norm == 1 else loss**norm


def fmod(x1: ndarray | float, x2: ndarray | float) -> ndarray:
    """Element-wise remainder of division with the sign of the dividend (C's fmod, NumPy's fmod).

    Unlike :func:`remainder` (Python's ``%``: the divisor's sign), ``fmod(-5, 3)`` is -2. As in
    NumPy, a finite dividend over an infinite divisor is the dividend, and integer division by
    zero gives 0. Differentiable where :func:`remainder` is.
    """
    r = remainder(x1, x2)
    dividend_negative = x1 < 0
    divisor_negative = x2 < 0
    # Python's remainder takes the divisor's sign; where the signs differ, shift by the divisor.
    shift = logical_and(r != 0, dividend_negative != divisor_negative)
    out = r - where(shift, x2, 0)
    if out.dtype.kind == "f":
        finite_over_infinite = logical_and(isfinite(x1), isinf(x2))
        out = where(finite_over_infinite, x1, out)
    return out
