"""Sparse matrices in coordinate (COO) format, for ``chainer.functions.sparse_matmul``."""

from __future__ import annotations

from typing import Any

_ORDERS = ("C", "F", "other", None)


class CooMatrix:
    """A sparse matrix, or a batch of them, in COO format.

    Entry ``k`` says that element ``(row[k], col[k])`` holds ``data[k]``. Batched matrices use
    2-D arrays ``(batch, nnz)``. Entries whose ``row`` and ``col`` are both ``-1`` are padding
    (a batch stores the same number of entries for every matrix) and are ignored.

    Args:
        data: The entry values, 1-D or 2-D; kept as the :class:`~chainer.Variable` ``self.data``.
        row: The row indices, of the same shape as ``data``.
        col: The column indices, of the same shape as ``data``.
        shape: The ``(rows, cols)`` shape of each dense matrix.
        order: ``'C'`` if the entries are sorted by row (then column), ``'F'`` if sorted by
            column (then row), ``'other'`` otherwise; ``None`` finds out with :func:`get_order`.
            Functions such as ``sparse_matmul`` use it as a hint.
        requires_grad: Whether back-propagation computes the gradient of ``data``.

    .. seealso:: :func:`to_coo` builds a ``CooMatrix`` from a dense array.
    """

    def __init__(
        self,
        data: Any,
        row: Any,
        col: Any,
        shape: tuple[int, int],
        order: str | None = None,
        requires_grad: bool = False,
    ) -> None:
        if data.ndim not in (1, 2):
            raise ValueError(f"ndim of data must be 1 or 2, got {data.ndim}")
        if not data.shape == row.shape == col.shape:
            raise ValueError(
                "data, row and col must have the same shape, "
                f"got {data.shape}, {row.shape} and {col.shape}"
            )
        if len(shape) != 2 or not (shape[0] > 0 and shape[1] > 0):
            raise ValueError(f"shape must be two positive ints, got {shape}")
        if order not in _ORDERS:
            raise ValueError(f"order must be 'C', 'F', 'other' or None, got {order!r}")
        from chainer import variable

        self.data = variable.Variable(data, requires_grad=requires_grad)
        self.row = row
        self.col = col
        self.shape = tuple(shape)
        self.order = get_order(row, col) if order is None else order

    def to_dense(self) -> Any:
        """Return the dense array, ``shape`` or ``(batch, *shape)``, on the data's device.

        Padding entries are skipped and entries at the same position are summed (the value a
        product with the matrix sees).
        """
        data = self.data.array
        xp = self.data.xp
        rows, cols = self.shape
        batch_shape = data.shape[:-1]
        flat = self.row * cols + self.col
        if data.ndim == 2:
            flat = flat + xp.arange(data.shape[0])[:, None] * (rows * cols)
        valid = (self.row >= 0) & (self.col >= 0)
        size = (data.shape[0] if data.ndim == 2 else 1) * rows * cols
        dense = xp.bincount(flat[valid], weights=data[valid], minlength=size)
        return dense.astype(data.dtype).reshape(*batch_shape, rows, cols)


def get_order(row: Any, col: Any) -> str:
    """Return ``'C'`` when COO entries are sorted by row, ``'F'`` by column, else ``'other'``.

    "Sorted by row" means in lexicographic (row, column) order; padding entries (both indices
    ``-1``) are ignored. For 2-D (batched) indices every matrix must be sorted.

    Raises:
        ValueError: ``row`` and ``col`` differ in shape, or only one index of an entry is
            negative.
    """
    if row.shape != col.shape:
        raise ValueError(f"row and col must have the same shape, got {row.shape} and {col.shape}")
    if _is_sorted(row, col):
        return "C"
    if _is_sorted(col, row):
        return "F"
    return "other"


def _is_sorted(major: Any, minor: Any) -> bool:
    if major.ndim == 2:
        return all(_is_sorted(a, b) for a, b in zip(major, minor))
    valid = major >= 0
    if bool((valid != (minor >= 0)).any()):
        raise ValueError("invalid index combination of row and col: only one index is negative")
    major, minor = major[valid], minor[valid]
    step = major[1:] - major[:-1]
    return bool((step >= 0).all()) and bool((minor[1:] >= minor[:-1])[step == 0].all())


def to_coo(x: Any, ldnz: int | None = None, requires_grad: bool = False) -> CooMatrix:
    """Return the non-zero entries of a dense matrix (2-D) or batch of matrices (3-D).

    Args:
        x: The dense array.
        ldnz: The number of entries to store per matrix when it exceeds the largest number of
            non-zeros; the extra entries are padding.
        requires_grad: Whether back-propagation computes the gradient of the entries.

    Example:
        >>> x = to_coo(numpy.array([[0, 2, 0], [-1, 0, 0]], numpy.float32))
        >>> x.data.array, x.row, x.col, x.shape  # doctest: +NORMALIZE_WHITESPACE
        (array([ 2., -1.], dtype=float32), array([0, 1], dtype=int32),
         array([1, 0], dtype=int32), (2, 3))
    """
    if x.ndim not in (2, 3):
        raise ValueError(f"ndim of x must be 2 or 3, got {x.ndim}")
    from chainer import backend

    xp = backend.get_array_module(x)
    matrices = x.reshape(-1, *x.shape[-2:])
    index, rows, cols = matrices.nonzero()
    counts = xp.bincount(index, minlength=len(matrices))
    width = max(int(counts.max()), ldnz or 0)
    # The position of each entry within its matrix: its rank after the earlier matrices' entries.
    position = xp.arange(len(index)) - (xp.cumsum(counts) - counts)[index]
    data = xp.zeros((len(matrices), width), dtype=x.dtype)
    row = xp.full((len(matrices), width), -1, dtype=xp.int32)
    col = xp.full((len(matrices), width), -1, dtype=xp.int32)
    data[index, position] = matrices[index, rows, cols]
    row[index, position] = rows
    col[index, position] = cols
    if x.ndim == 2:
        data, row, col = data[0], row[0], col[0]
    return CooMatrix(data, row, col, x.shape[-2:], requires_grad=requires_grad)
