"""Discriminative margin-based clustering loss for instance segmentation embeddings."""

from __future__ import annotations

from chainer import backend
from chainer._ops import array_ops
from chainer.functions.activation.relu import relu
from chainer.variable import Variable


def _norm(x: Variable, axis, order: int) -> Variable:
    """L1 or L2 norm over ``axis``; the L2 norm gets slope 0 at 0 instead of 0 / 0."""
    if order == 1:
        return array_ops.sum(abs(x), axis=axis)
    squared = array_ops.sum(x * x, axis=axis)
    zero = (squared.array == 0).astype(x.dtype)
    return (squared + zero) ** 0.5 * (1 - zero)


class DiscriminativeMarginBasedClusteringLoss:
    """The loss of :func:`discriminative_margin_based_clustering_loss` as a callable object.

    Args:
        delta_v: Margin of the variance term (pull towards the instance mean).
        delta_d: Margin of the distance term (push instance means apart).
        max_embedding_dim: Number of embedding channels, which is also the number of
            instance labels considered (labels ``1 ... max_embedding_dim``).
        norm: 1 or 2, the norm used for every distance.
        alpha: Weight of the variance term.
        beta: Weight of the distance term.
        gamma: Weight of the regularisation term.
    """

    def __init__(
        self,
        delta_v: float = 0.5,
        delta_d: float = 1.5,
        max_embedding_dim: int = 10,
        norm: int = 1,
        alpha: float = 1.0,
        beta: float = 1.0,
        gamma: float = 0.001,
    ) -> None:
        if max_embedding_dim <= 0:
            raise ValueError(f"max_embedding_dim must be positive, got {max_embedding_dim}")
        if norm not in (1, 2):
            raise ValueError(f"norm must be 1 or 2 for the discriminative loss, got {norm!r}")
        self.delta_v = delta_v
        self.delta_d = delta_d
        self.max_embedding_dim = max_embedding_dim
        self.norm = norm
        self.alpha = alpha
        self.beta = beta
        self.gamma = gamma

    def __call__(self, embeddings, labels) -> tuple[Variable, Variable, Variable]:
        """Compute the three weighted terms.

        Args:
            embeddings: Float array or variable of shape ``(B, max_embedding_dim, H, W)``.
            labels: Integer array of shape ``(B, H, W)``: instance ``c`` is labelled ``c``
                (``1 <= c <= max_embedding_dim``), anything else is background.

        Returns:
            ``(variance, distance, regularisation)`` scalar variables, already multiplied by
            ``alpha``, ``beta`` and ``gamma``.
        """
        if not isinstance(embeddings, Variable):
            embeddings = Variable(embeddings, requires_grad=False)
        labels = labels.array if isinstance(labels, Variable) else labels
        n_instance = self.max_embedding_dim
        if embeddings.ndim != 4 or embeddings.shape[1] != n_instance:
            raise ValueError(
                f"embeddings must have shape (B, {n_instance}, H, W) (max_embedding_dim "
                f"channels), got {embeddings.shape}"
            )
        batch, dim, height, width = embeddings.shape
        if labels.shape != (batch, height, width):
            raise ValueError(
                f"labels must have shape {(batch, height, width)}, got {labels.shape}"
            )
        xp = backend.get_array_module(labels)
        dtype = embeddings.dtype
        instances = xp.arange(1, n_instance + 1).reshape(-1, 1, 1, 1)
        masks = (labels[None] == instances).astype(dtype)[:, :, None]  # (C, B, 1, H, W)
        sizes = xp.maximum(masks.sum(axis=(2, 3, 4)), 1)  # (C, B); absent instances: 1
        pixels = array_ops.reshape(embeddings, (1, batch, dim, height, width))
        means = array_ops.sum(pixels * masks, axis=(3, 4)) / sizes[:, :, None]  # (C, B, D)

        # pull: pixels farther than delta_v from their instance mean
        offsets = (array_ops.reshape(means, means.shape + (1, 1)) - pixels) * masks
        spread = _norm(offsets, 2, self.norm)
        pull = relu(spread - self.delta_v) * masks[:, :, 0]
        per_instance = array_ops.sum(pull * pull, axis=(2, 3)) / sizes
        variance = array_ops.sum(per_instance) * (1.0 / n_instance)

        # push: pairs of instance means closer than 2 * delta_d (each pair once)
        gaps = array_ops.reshape(means, (n_instance, 1, batch, dim)) - array_ops.reshape(
            means, (1, n_instance, batch, dim)
        )
        push = relu(2 * self.delta_d - _norm(gaps, 3, self.norm))
        pairs = xp.triu(xp.ones((n_instance, n_instance), dtype), 1)[:, :, None]
        n_pairs = n_instance * (n_instance - 1) // 2
        distance = array_ops.sum(push * push * pairs) * (1.0 / max(n_pairs * batch, 1))

        regularization = array_ops.sum(_norm(means, (1, 2), self.norm)) * (
            1.0 / (n_instance * batch)
        )
        return (variance * self.alpha, distance * self.beta, regularization * self.gamma)


def discriminative_margin_based_clustering_loss(
    embeddings,
    labels,
    delta_v: float,
    delta_d: float,
    max_embedding_dim: int,
    norm: int = 1,
    alpha: float = 1.0,
    beta: float = 1.0,
    gamma: float = 0.001,
) -> tuple[Variable, Variable, Variable]:
    """Discriminative loss for instance embeddings (De Brabandere et al., 2017).

    With ``mu_c`` the mean embedding of instance ``c`` in an image:

    * variance: ``sum_c mean_{i in c} max(0, ||mu_c - x_i|| - delta_v)^2``, over the
      instances (divided by ``max_embedding_dim``);
    * distance: ``max(0, 2 delta_d - ||mu_a - mu_b||)^2`` averaged over pairs ``a < b`` and
      images;
    * regularisation: the norm of the means over the batch, averaged over instances and
      images.

    Args:
        embeddings: Float array or variable ``(B, max_embedding_dim, H, W)``.
        labels: Integer instance labels ``(B, H, W)``; 0 (or any value outside
            ``1 ... max_embedding_dim``) is background.
        delta_v: Margin of the variance term.
        delta_d: Margin of the distance term.
        max_embedding_dim: Number of embedding channels and of instance labels.
        norm: 1 or 2.
        alpha: Weight of the variance term.
        beta: Weight of the distance term.
        gamma: Weight of the regularisation term.

    Returns:
        ``(variance, distance, regularisation)``: three scalar variables, weighted.

    Example:
        >>> emb = numpy.zeros((1, 2, 1, 2), numpy.float32)
        >>> labels = numpy.array([[[1, 2]]], numpy.int32)
        >>> [float(v.array) for v in F.discriminative_margin_based_clustering_loss(
        ...     emb, labels, 0.5, 1.5, 2)]
        [0.0, 9.0, 0.0]
    """
    loss = DiscriminativeMarginBasedClusteringLoss(
        delta_v, delta_d, max_embedding_dim, norm, alpha, beta, gamma
    )
    return loss(embeddings, labels)
