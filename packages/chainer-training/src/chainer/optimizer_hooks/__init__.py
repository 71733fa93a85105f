"""chainer.optimizer_hooks (shipped by the chainer-training distribution)."""

from chainer._training_distribution import check_core as _check_core

_check_core()
