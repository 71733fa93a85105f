"""Multivariate normal distribution, parameterized by a Cholesky factor of the covariance."""

from __future__ import annotations

import chainer.functions as F
from chainer import backend
from chainer.distributions import utils
from chainer.distributions.distribution import Distribution, register_kl
from chainer.distributions.normal import LOG_SQRT_2PI
from chainer.utils import argument
from chainer.utils.cache import cached_property
from chainer.variable import Variable, as_variable

__all__ = ["MultivariateNormal"]


def _lower_triangular_with_positive_diagonal(xp, tril):
    d = tril.shape[-1]
    upper = xp.triu(xp.ones((d, d), dtype=bool), 1)
    diagonal = xp.eye(d, dtype=bool)
    return xp.where(upper, tril == 0, True) & xp.where(diagonal, tril > 0, True)


def _triangular_inv(x, lower: bool = True) -> Variable:
    """The inverse of the lower (``lower=True``) or upper triangle of the square matrix ``x``;
    the other triangle is ignored and gets no gradient."""
    x = as_variable(x)
    xp = backend.get_array_module(x)
    triangle = xp.tril if lower else xp.triu
    mask = triangle(xp.ones(x.shape, dtype=x.dtype))
    return F.inv(x * mask)


class MultivariateNormal(Distribution):
    """MultivariateNormal Distribution.

    .. math::
        p(x; \\mu, L) = \\frac{1}{\\sqrt{(2\\pi)^d \\det(LL^\\top)}}
            \\exp\\left(-\\frac{1}{2} \\|L^{-1}(x - \\mu)\\|^2\\right)

    The covariance is :math:`LL^\\top` with :math:`L` lower triangular with a positive
    diagonal (its Cholesky factor; see :func:`chainer.functions.cholesky`). Samples are
    reparameterized (``loc + L @ eps``).

    Args:
        loc: The mean, of shape ``batch_shape + (d,)``.
        scale_tril: (keyword only, required) :math:`L`, of shape ``batch_shape + (d, d)``.

    Example:
        >>> d = MultivariateNormal(np.zeros(2, np.float32),
        ...                        scale_tril=np.array([[1, 0], [1, 2]], np.float32))
        >>> d.covariance.array
        array([[1., 1.],
               [1., 5.]], dtype=float32)
    """

    def __init__(self, loc, **kwargs) -> None:
        (scale_tril,) = argument.parse_kwargs(kwargs, ("scale_tril", None))
        if scale_tril is None:
            raise ValueError("MultivariateNormal: scale_tril must be given")
        self.loc, self.scale_tril = utils.as_params(
            "MultivariateNormal", broadcast=False, loc=loc, scale_tril=scale_tril
        )
        if self.loc.ndim == 0 or self.scale_tril.shape != (*self.loc.shape, self.loc.shape[-1]):
            raise ValueError(
                "MultivariateNormal: scale_tril must have shape loc.shape + (d,) with "
                f"d = loc.shape[-1], got loc.shape={self.loc.shape}, "
                f"scale_tril.shape={self.scale_tril.shape}"
            )
        utils.check_param(
            "MultivariateNormal",
            "scale_tril",
            self.scale_tril,
            lambda a: _lower_triangular_with_positive_diagonal(self.xp, a),
            "lower triangular with a positive diagonal",
        )

    @property
    def params(self) -> dict[str, Variable]:
        return {"loc": self.loc, "scale_tril": self.scale_tril}

    @property
    def d(self) -> int:
        """The dimension of the events."""
        return self.loc.shape[-1]

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self.loc.shape[:-1]

    @property
    def event_shape(self) -> tuple[int, ...]:
        return self.loc.shape[-1:]

    @property
    def support(self) -> str:
        return "real"

    @cached_property
    def _log_det_scale(self) -> Variable:
        # log det L = sum(log diag L); the covariance's is twice that.
        return F.sum(F.log(F.diagonal(self.scale_tril, 0, -2, -1)), axis=-1)

    @cached_property
    def _scale_tril_inv(self) -> Variable:
        d = self.d
        inverse = F.batch_inv(F.reshape(self.scale_tril, (-1, d, d)))
        return F.reshape(inverse, self.scale_tril.shape)

    def _whiten(self, vectors: Variable) -> Variable:
        # L^{-1} v for vectors of shape sample_shape + batch_shape + (d,).
        return F.matmul(self._scale_tril_inv, F.expand_dims(vectors, -1))[..., 0]

    def log_prob(self, x) -> Variable:
        z = self._whiten(utils.as_points(x, self.loc.dtype) - self.loc)
        return -0.5 * F.sum(F.square(z), axis=-1) - self._log_det_scale - self.d * LOG_SQRT_2PI

    @cached_property
    def entropy(self) -> Variable:
        return self._log_det_scale + self.d * (0.5 + LOG_SQRT_2PI)

    @property
    def mean(self) -> Variable:
        return self.loc

    @property
    def mode(self) -> Variable:
        return self.loc

    @cached_property
    def covariance(self) -> Variable:
        return F.matmul(self.scale_tril, self.scale_tril, transb=True)

    @cached_property
    def variance(self) -> Variable:
        return F.sum(F.square(self.scale_tril), axis=-1)

    def sample_n(self, n: int) -> Variable:
        utils.check_sample_count(n)
        eps = utils.random_array(
            self.xp, self.loc.dtype, "standard_normal", size=(n, *self.loc.shape)
        )
        return self.loc + F.matmul(self.scale_tril, eps[..., None])[..., 0]


@register_kl(MultivariateNormal, MultivariateNormal)
def _kl_multivariate_normal(dist1: MultivariateNormal, dist2: MultivariateNormal) -> Variable:
    # 0.5 (tr(S2^-1 S1) + |L2^-1 (m2 - m1)|^2 - d) + log det L2 - log det L1.
    trace = F.sum(F.square(F.matmul(dist2._scale_tril_inv, dist1.scale_tril)), axis=(-2, -1))
    mahalanobis = F.sum(F.square(dist2._whiten(dist2.loc - dist1.loc)), axis=-1)
    return 0.5 * (trace + mahalanobis - dist1.d) + dist2._log_det_scale - dist1._log_det_scale
