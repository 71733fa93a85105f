"""The interface of probability distributions and the Kullback-Leibler divergence registry.

Chainer exposes this module as ``chainer.distribution`` and its public names as
``chainer.Distribution``, ``chainer.kl_divergence``, ``chainer.cross_entropy`` and
``chainer.register_kl``. It lives in chainer-links because every distribution is built from
``chainer.functions``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable

import chainer.functions as F
from chainer import backend
from chainer.variable import Variable

__all__ = ["Distribution", "cross_entropy", "kl_divergence", "register_kl"]


class Distribution:
    """Interface of probability distributions.

    A distribution holds a batch of independent distributions of the same family: its
    parameters are :class:`~chainer.Variable` objects whose leading dimensions form
    :attr:`batch_shape`, and one draw of each has shape :attr:`event_shape`. Every computed
    quantity (``log_prob``, ``entropy``, ``mean``, reparameterized samples, ...) is a
    variable, so it can be backpropagated to the parameters.

    Subclasses implement :attr:`params`, :meth:`log_prob`, :meth:`sample_n` and whatever
    else has a closed form; the base class derives ``prob`` from ``log_prob``, ``cdf`` and
    ``log_cdf`` from each other, the survival functions from the cdf, and ``stddev`` and
    ``variance`` from each other. Anything else raises ``NotImplementedError``.

    Example:
        >>> class Dirac(Distribution):
        ...     def __init__(self, loc):
        ...         self.loc = chainer.as_variable(loc)
        ...     @property
        ...     def params(self):
        ...         return {'loc': self.loc}
        ...     @property
        ...     def mean(self):
        ...         return self.loc
        >>> Dirac(np.zeros(3, np.float32)).batch_shape
        (3,)
    """

    def _overrides(self, name: str) -> bool:
        return getattr(type(self), name) is not getattr(Distribution, name)

    def _missing(self, name: str) -> NotImplementedError:
        return NotImplementedError(f"{type(self).__name__} does not implement {name}")

    @property
    def params(self) -> dict[str, Variable]:
        """The parameters, as the keyword arguments that rebuild this distribution."""
        raise self._missing("params")

    @property
    def event_shape(self) -> tuple[int, ...]:
        """Shape of one draw of one distribution of the batch (``()`` for scalar events)."""
        return ()

    @property
    def batch_shape(self) -> tuple[int, ...]:
        """Shape of the batch of distributions: the parameters' shape less the event dims."""
        shape = next(iter(self.params.values())).shape
        return shape[: len(shape) - len(self.event_shape)]

    @property
    def xp(self):
        """The array module (``numpy`` or ``cupy``) of the parameters."""
        return backend.get_array_module(*self.params.values())

    @property
    def support(self) -> str:
        """The set of values with non-zero probability, in words (e.g. ``'real'``)."""
        raise self._missing("support")

    def log_prob(self, x) -> Variable:
        """Logarithm of the probability (density or mass) of ``x``.

        Args:
            x: Points of shape ``sample_shape + batch_shape + event_shape``.

        Returns:
            A variable of shape ``sample_shape + batch_shape``.
        """
        raise self._missing("log_prob")

    def prob(self, x) -> Variable:
        """Probability (density or mass) of ``x``; see :meth:`log_prob`."""
        return F.exp(self.log_prob(x))

    def cdf(self, x) -> Variable:
        """Cumulative distribution function ``P(X <= x)``."""
        if self._overrides("log_cdf"):
            return F.exp(self.log_cdf(x))
        raise self._missing("cdf")

    def log_cdf(self, x) -> Variable:
        """Logarithm of :meth:`cdf`."""
        if self._overrides("cdf"):
            return F.log(self.cdf(x))
        raise self._missing("log_cdf")

    def survival_function(self, x) -> Variable:
        """Survival function ``P(X > x) = 1 - cdf(x)``."""
        if self._overrides("log_survival_function"):
            return F.exp(self.log_survival_function(x))
        return 1.0 - self.cdf(x)

    def log_survival_function(self, x) -> Variable:
        """Logarithm of :meth:`survival_function`."""
        if self._overrides("survival_function"):
            return F.log(self.survival_function(x))
        return F.log1p(-self.cdf(x))

    def icdf(self, x) -> Variable:
        """Inverse of the cumulative distribution function (the quantile function)."""
        raise self._missing("icdf")

    def perplexity(self, x) -> Variable:
        """Perplexity of ``x``, ``exp(-log_prob(x))``."""
        return F.exp(-self.log_prob(x))

    @property
    def entropy(self) -> Variable:
        """Entropy of each distribution of the batch (shape ``batch_shape``)."""
        raise self._missing("entropy")

    @property
    def mean(self) -> Variable:
        """Mean (shape ``batch_shape + event_shape``)."""
        raise self._missing("mean")

    @property
    def mode(self) -> Variable:
        """Mode (shape ``batch_shape + event_shape``)."""
        raise self._missing("mode")

    @property
    def variance(self) -> Variable:
        """Variance of each element of the event (shape ``batch_shape + event_shape``)."""
        if self._overrides("stddev"):
            return F.square(self.stddev)
        raise self._missing("variance")

    @property
    def stddev(self) -> Variable:
        """Standard deviation, the square root of :attr:`variance`."""
        return F.sqrt(self.variance)

    @property
    def covariance(self) -> Variable:
        """Covariance matrix of the event (shape ``batch_shape + (d, d)``)."""
        raise self._missing("covariance")

    def sample_n(self, n: int) -> Variable:
        """Draw ``n`` samples from each distribution of the batch.

        Reparameterized distributions return samples that backpropagate to the parameters.

        Args:
            n: Number of samples.

        Returns:
            A variable of shape ``(n,) + batch_shape + event_shape``.
        """
        raise self._missing("sample_n")

    def sample(self, sample_shape: int | tuple[int, ...] = ()) -> Variable:
        """Draw samples arranged in ``sample_shape``.

        Args:
            sample_shape: An int or a tuple of ints.

        Returns:
            A variable of shape ``sample_shape + batch_shape + event_shape``.

        Example:
            >>> d = chainer.distributions.Normal(np.zeros(3, np.float32), np.ones(3, np.float32))
            >>> d.sample((4, 2)).shape
            (4, 2, 3)
        """
        if isinstance(sample_shape, numbers.Integral):
            sample_shape = (sample_shape,)
        sample_shape = tuple(sample_shape)
        if not all(
            isinstance(s, numbers.Integral) and not isinstance(s, bool) and s >= 0
            for s in sample_shape
        ):
            raise ValueError(
                f"sample_shape must be a non-negative int or a tuple of them, got {sample_shape!r}"
            )
        samples = self.sample_n(math.prod(sample_shape))
        return F.reshape(samples, sample_shape + samples.shape[1:])

    def __repr__(self) -> str:
        dtypes = sorted({str(p.dtype) for p in self.params.values()})
        return (
            f"{type(self).__name__}(batch_shape={self.batch_shape}, "
            f"event_shape={self.event_shape}, dtype={', '.join(dtypes)})"
        )


KLFunction = Callable[[Distribution, Distribution], Variable]

# (class of dist1, class of dist2) -> function computing KL(dist1 || dist2).
_KL_REGISTRY: dict[tuple[type, type], KLFunction] = {}


def register_kl(Dist1: type, Dist2: type) -> Callable[[KLFunction], KLFunction]:
    """Decorator that registers the KL divergence between two distribution classes.

    :func:`kl_divergence` picks the function registered for the most specific classes in the
    method resolution order of its arguments, so a subclass inherits its parent's formula.

    Args:
        Dist1: Class of the first distribution (a subclass of :class:`Distribution`).
        Dist2: Class of the second distribution.

    Returns:
        A decorator that registers and returns ``kl(dist1, dist2)``.

    Example:
        >>> from chainer.distributions import Normal
        >>> class Sharp(Normal):  # a subclass would inherit Normal's formula otherwise
        ...     pass
        >>> @register_kl(Sharp, Sharp)
        ... def _kl_sharp(dist1, dist2):
        ...     return F.square(dist1.loc - dist2.loc)
        >>> p = Sharp(np.zeros(1, np.float32), np.ones(1, np.float32))
        >>> kl_divergence(p, Sharp(np.ones(1, np.float32), np.ones(1, np.float32))).array
        array([1.], dtype=float32)
    """
    for name, cls in (("Dist1", Dist1), ("Dist2", Dist2)):
        if not (isinstance(cls, type) and issubclass(cls, Distribution)):
            raise TypeError(f"register_kl: {name} must be a Distribution subclass, got {cls!r}")

    def register(kl: KLFunction) -> KLFunction:
        _KL_REGISTRY[Dist1, Dist2] = kl
        return kl

    return register


def _find_kl(type1: type, type2: type) -> KLFunction | None:
    for cls1 in type1.__mro__:
        for cls2 in type2.__mro__:
            kl = _KL_REGISTRY.get((cls1, cls2))
            if kl is not None:
                return kl
    return None


def kl_divergence(dist1: Distribution, dist2: Distribution) -> Variable:
    """Kullback-Leibler divergence ``KL(dist1 || dist2)``, batched.

    Args:
        dist1: The distribution expectations are taken over.
        dist2: The other distribution, of the same batch shape.

    Returns:
        A variable of shape ``batch_shape``.

    Raises:
        NotImplementedError: No formula is registered for the two classes.

    Example:
        >>> from chainer.distributions import Normal
        >>> p = Normal(np.zeros(2, np.float32), np.ones(2, np.float32))
        >>> q = Normal(np.ones(2, np.float32), np.ones(2, np.float32))
        >>> kl_divergence(p, q).array
        array([0.5, 0.5], dtype=float32)
    """
    kl = _find_kl(type(dist1), type(dist2))
    if kl is None:
        raise NotImplementedError(
            f"Kullback-Leibler divergence between {type(dist1).__name__} and "
            f"{type(dist2).__name__} is not registered (see chainer.register_kl)"
        )
    return kl(dist1, dist2)


def cross_entropy(dist1: Distribution, dist2: Distribution) -> Variable:
    """Cross entropy ``H(dist1, dist2) = H(dist1) + KL(dist1 || dist2)``, batched.

    Args:
        dist1: The distribution expectations are taken over.
        dist2: The other distribution.

    Returns:
        A variable of shape ``batch_shape``.
    """
    return dist1.entropy + kl_divergence(dist1, dist2)
