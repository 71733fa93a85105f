"""chainer.optimizers (shipped by the chainer-training distribution).

Each optimizer is a :class:`~chainer.optimizer.GradientMethod` whose update rule applies its
formula in place: on NumPy through cache-sized chunks and reusable scratch buffers, on CuPy as
one elementwise kernel.
"""

from chainer._training_distribution import check_core as _check_core

_check_core()

from chainer.optimizers.ada_delta import AdaDelta  # noqa: E402
from chainer.optimizers.ada_grad import AdaGrad  # noqa: E402
from chainer.optimizers.adam import AdaBound, Adam, AdamW, AMSBound, AMSGrad  # noqa: E402
from chainer.optimizers.corrected_momentum_sgd import CorrectedMomentumSGD  # noqa: E402
from chainer.optimizers.momentum_sgd import MomentumSGD  # noqa: E402
from chainer.optimizers.msvag import MSVAG  # noqa: E402
from chainer.optimizers.nesterov_ag import NesterovAG  # noqa: E402
from chainer.optimizers.rmsprop import RMSprop  # noqa: E402
from chainer.optimizers.rmsprop_graves import RMSpropGraves  # noqa: E402
from chainer.optimizers.sgd import SGD  # noqa: E402
from chainer.optimizers.smorms3 import SMORMS3  # noqa: E402

__all__ = [
    "MSVAG",
    "SGD",
    "SMORMS3",
    "AMSBound",
    "AMSGrad",
    "AdaBound",
    "AdaDelta",
    "AdaGrad",
    "Adam",
    "AdamW",
    "CorrectedMomentumSGD",
    "MomentumSGD",
    "NesterovAG",
    "RMSprop",
    "RMSpropGraves",
]
