"""Recurrent links: stateful and stateless cells, stacked ``NStep`` networks, TreeLSTMs."""

from chainer import _lazy

__getattr__, __dir__ = _lazy.attach_submodules(__name__)
