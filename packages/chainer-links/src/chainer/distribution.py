"""chainer.distribution: the base class and KL registry of probability distributions.

Chainer kept these here; the implementation lives in ``chainer.distributions.distribution``
(shipped by chainer-links, like every distribution).
"""

from chainer.distributions.distribution import (
    Distribution,
    cross_entropy,
    kl_divergence,
    register_kl,
)

__all__ = ["Distribution", "cross_entropy", "kl_divergence", "register_kl"]
