"""chainer.functions.loss: loss functions (each in its own module, at Chainer's path)."""

from chainer import _lazy

__getattr__, __dir__ = _lazy.attach_submodules(__name__)
