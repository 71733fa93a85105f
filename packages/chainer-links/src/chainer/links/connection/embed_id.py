"""``EmbedID``: a learnt lookup table from integer IDs to vectors."""

from __future__ import annotations

import typing as tp

from chainer import initializers, link, variable
from chainer.functions.connection.embed_id import embed_id


class EmbedID(link.Link):
    """Efficient linear layer for one-hot input: row ``i`` of ``W`` is the vector of ID ``i``.

    Wraps :func:`~chainer.functions.embed_id`.

    Args:
        in_size: Number of different IDs (the vocabulary size).
        out_size: Size of the vectors.
        initialW: Initializer of ``W``; ``None`` means
            :class:`~chainer.initializers.Normal` with scale 1.
        ignore_label: An ID whose vector is zero (and gets no gradient), e.g. ``-1`` for
            padding; ``None`` for none.

    Attributes:
        W (~chainer.Parameter): Embeddings, ``(in_size, out_size)``.
        ignore_label: See above.

    Example:
        >>> embed = L.EmbedID(10, 3)
        >>> embed(numpy.array([1, 5, 5], numpy.int32)).shape
        (3, 3)
    """

    ignore_label: int | None = None

    def __init__(
        self,
        in_size: int,
        out_size: int,
        initialW: tp.Any = None,
        ignore_label: int | None = None,
    ) -> None:
        super().__init__()
        self.ignore_label = ignore_label
        if initialW is None:
            initialW = initializers.Normal(1.0)
        with self.init_scope():
            self.W = variable.Parameter(
                initializers._get_initializer(initialW), (in_size, out_size)
            )

    @classmethod
    def from_params(cls, W: tp.Any, ignore_label: int | None = None) -> EmbedID:
        """Create an ``EmbedID`` whose ``W`` is a copy of ``W`` ``(in_size, out_size)``."""
        in_size, out_size = W.shape
        return cls(in_size, out_size, initialW=variable.as_array(W), ignore_label=ignore_label)

    def forward(self, x: tp.Any) -> variable.Variable:
        """Look up the vectors of the integer IDs ``x`` (any shape); adds an axis at the end."""
        return embed_id(x, self.W, ignore_label=self.ignore_label)
