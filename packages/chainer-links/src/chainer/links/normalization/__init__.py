"""Normalization links: batch, batch re-, decorrelated batch, group and layer normalization."""

from chainer import _lazy

__getattr__, __dir__ = _lazy.attach_submodules(__name__)
