"""Model links: complete models such as the ``Classifier`` wrapper."""

from chainer import _lazy

__getattr__, __dir__ = _lazy.attach_submodules(__name__)
