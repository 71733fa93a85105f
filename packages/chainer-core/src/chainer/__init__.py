"""Chainer: a flexible framework of neural networks (define-by-run autograd core).

Reading order for the core: ``variable`` (Variable, Parameter, VariableNode), ``function_node``
(FunctionNode.apply), ``_backprop`` (the backward engine).
"""

__path__ = __import__("pkgutil").extend_path(__path__, __name__)  # shared namespace: see DESIGN

from chainer import _siblings
from chainer._version import __version__

_siblings.install_finder()


def __getattr__(name):
    # Subpackages shipped by chainer-links / chainer-training resolve on first access.
    if name in _siblings.PROVIDERS:
        return _siblings.import_sibling(name)
    raise AttributeError(f"module 'chainer' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_siblings.PROVIDERS))
