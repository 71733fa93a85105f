"""chainer.optimizer_hooks (shipped by the chainer-training distribution).

Hooks that change gradients before (or after) an update. Those with ``call_for_each_param``
work both as optimizer hooks (``optimizer.add_hook``) and as update-rule hooks
(``param.update_rule.add_hook``); :class:`GradientClipping` needs every gradient at once and
is an optimizer hook only.
"""

from chainer._training_distribution import check_core as _check_core

_check_core()

from chainer.optimizer_hooks.gradient_clipping import GradientClipping  # noqa: E402
from chainer.optimizer_hooks.gradient_hard_clipping import GradientHardClipping  # noqa: E402
from chainer.optimizer_hooks.gradient_lars import GradientLARS  # noqa: E402
from chainer.optimizer_hooks.gradient_noise import GradientNoise  # noqa: E402
from chainer.optimizer_hooks.lasso import Lasso  # noqa: E402
from chainer.optimizer_hooks.weight_decay import WeightDecay  # noqa: E402

__all__ = [
    "GradientClipping",
    "GradientHardClipping",
    "GradientLARS",
    "GradientNoise",
    "Lasso",
    "WeightDecay",
]
