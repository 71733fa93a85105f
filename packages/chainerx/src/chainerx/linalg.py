"""Linear algebra: ``numpy.linalg``'s decompositions and solvers for 2-D float32/float64 matrices.

They are computed with LAPACK (from scipy-openblas32, linked at build time) and are
differentiable to any order, except ``qr`` with ``mode='raw'`` (or ``'complete'`` for m > n) and
``svd`` with ``full_matrices=True`` for a non-square matrix, whose backward raises
``chainerx.NotImplementedError``. ``cholesky``, ``eigh`` and ``eigvalsh`` read one triangle of
their input, as NumPy does, so their gradients lie in that triangle.
"""

from chainerx._core import linalg as _linalg

cholesky = _linalg.cholesky
eigh = _linalg.eigh
eigvalsh = _linalg.eigvalsh
inv = _linalg.inv
pinv = _linalg.pinv
qr = _linalg.qr
solve = _linalg.solve
svd = _linalg.svd

__all__ = ["cholesky", "eigh", "eigvalsh", "inv", "pinv", "qr", "solve", "svd"]
