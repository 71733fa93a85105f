"""chainer.functions.normalization: batch, layer, group and response normalizations."""

from chainer import _lazy

__getattr__, __dir__ = _lazy.attach_submodules(__name__)
