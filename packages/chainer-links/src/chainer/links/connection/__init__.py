"""Connection links: linear maps, convolutions, embeddings and the blocks built from them."""

from chainer import _lazy

__getattr__, __dir__ = _lazy.attach_submodules(__name__)
