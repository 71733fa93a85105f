"""Loss links: output layers that own parameters (negative sampling, BlackOut, CRF, ...)."""

from chainer import _lazy

__getattr__, __dir__ = _lazy.attach_submodules(__name__)
