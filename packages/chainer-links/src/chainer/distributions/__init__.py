"""chainer.distributions: probability distributions (shipped by the chainer-links distribution).

Every distribution is built from :mod:`chainer.functions`, so log-densities, entropies,
moments, KL divergences and reparameterized samples backpropagate to the parameters. The
base class and the KL registry are in :mod:`chainer.distributions.distribution` (exposed by
Chainer as ``chainer.Distribution``, ``chainer.kl_divergence``, ``chainer.cross_entropy`` and
``chainer.register_kl``).
"""

from chainer._links_distribution import check_core as _check_core

_check_core()

from chainer.distributions import distribution, utils  # noqa: E402
from chainer.distributions.bernoulli import Bernoulli  # noqa: E402
from chainer.distributions.beta import Beta  # noqa: E402
from chainer.distributions.categorical import Categorical  # noqa: E402
from chainer.distributions.cauchy import Cauchy  # noqa: E402
from chainer.distributions.chisquare import Chisquare  # noqa: E402
from chainer.distributions.dirichlet import Dirichlet  # noqa: E402
from chainer.distributions.exponential import Exponential  # noqa: E402
from chainer.distributions.gamma import Gamma  # noqa: E402
from chainer.distributions.geometric import Geometric  # noqa: E402
from chainer.distributions.gumbel import Gumbel  # noqa: E402
from chainer.distributions.independent import Independent  # noqa: E402
from chainer.distributions.laplace import Laplace  # noqa: E402
from chainer.distributions.log_normal import LogNormal  # noqa: E402
from chainer.distributions.multivariate_normal import MultivariateNormal  # noqa: E402
from chainer.distributions.normal import Normal  # noqa: E402
from chainer.distributions.one_hot_categorical import OneHotCategorical  # noqa: E402
from chainer.distributions.pareto import Pareto  # noqa: E402
from chainer.distributions.poisson import Poisson  # noqa: E402
from chainer.distributions.uniform import Uniform  # noqa: E402

__all__ = [
    "Bernoulli",
    "Beta",
    "Categorical",
    "Cauchy",
    "Chisquare",
    "Dirichlet",
    "Exponential",
    "Gamma",
    "Geometric",
    "Gumbel",
    "Independent",
    "Laplace",
    "LogNormal",
    "MultivariateNormal",
    "Normal",
    "OneHotCategorical",
    "Pareto",
    "Poisson",
    "Uniform",
]
