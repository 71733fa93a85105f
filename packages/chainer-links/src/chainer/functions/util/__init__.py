"""chainer.functions.util: utility functions (each in its own module)."""

from chainer import _lazy

__getattr__, __dir__ = _lazy.attach_submodules(__name__)
