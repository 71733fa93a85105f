"""chainer.functions.connection: convolutions, linear maps, embeddings and their relatives."""

from chainer import _lazy

__getattr__, __dir__ = _lazy.attach_submodules(__name__)
