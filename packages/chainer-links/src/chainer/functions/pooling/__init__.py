"""chainer.functions.pooling: spatial pooling, unpooling and ROI pooling functions."""

from chainer import _lazy

__getattr__, __dir__ = _lazy.attach_submodules(__name__)
