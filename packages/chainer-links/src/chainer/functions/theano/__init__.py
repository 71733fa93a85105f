"""Chainer v7's Theano bridge (``chainer.functions.theano``); see :mod:`.theano_function`."""

from chainer import _lazy

__getattr__, __dir__ = _lazy.attach_submodules(__name__)
