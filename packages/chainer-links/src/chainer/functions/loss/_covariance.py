"""Shared pieces of the covariance penalties (decov, cross_covariance)."""

from __future__ import annotations

from chainer._ops import array_ops, matmul
from chainer.variable import Variable

REDUCTIONS = ("half_squared_sum", "no")


def center_rows(x: Variable) -> Variable:
    """``x - mean(x, axis=0)`` on a variable (differentiable).

    Centring is a symmetric projection, so it also maps the gradient of a centred matrix
    to the gradient of the original one.
    """
    mean = array_ops.sum(x, axis=0, keepdims=True) * (1.0 / max(x.shape[0], 1))
    return x - mean


def center_array(x):
    """``x - mean(x, axis=0)`` on an array (an empty ``x`` is returned as is)."""
    return x - x.mean(axis=0, keepdims=True) if len(x) else x


def gram_grad(left: Variable, right: Variable, g_cov: Variable, n: int) -> tuple:
    """Gradients of ``C = left^T right / n`` given ``dL/dC``: for ``left`` and ``right``."""
    scale = 1.0 / max(n, 1)
    g_left = matmul.matmul(right, g_cov, transb=True) * scale
    g_right = matmul.matmul(left, g_cov) * scale
    return g_left, g_right


def chainerx_covariance(left, right, reduce: str, off_diagonal: bool = False):
    """``left_c^T right_c / N`` of column-centred ChainerX arrays (differentiable), its
    diagonal zeroed if ``off_diagonal``; reduced as ``reduce`` says."""
    import chainerx

    def center(x):
        return x - x.mean(axis=0, keepdims=True) if len(x) else x

    covariance = chainerx.dot(center(left).T, center(right)) * (1.0 / max(len(left), 1))
    if off_diagonal:
        n = covariance.shape[0]
        covariance = covariance * (1 - chainerx.eye(n, dtype=covariance.dtype, device=left.device))
    if reduce == "half_squared_sum":
        return ((covariance * covariance).sum() * 0.5,)
    return (covariance,)


def half_squared_sum(xp, covariance):
    """``sum(C ** 2) / 2`` as a 0-d array."""
    flat = covariance.ravel()
    return xp.asarray(flat.dot(flat) * 0.5, dtype=covariance.dtype)
