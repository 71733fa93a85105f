"""chainer.functions.evaluation: metrics of predictions (not differentiable)."""

from chainer import _lazy

__getattr__, __dir__ = _lazy.attach_submodules(__name__)
