"""Activation links: activations with learnt parameters (PReLU, Swish, Maxout, ...)."""

from chainer import _lazy

__getattr__, __dir__ = _lazy.attach_submodules(__name__)
