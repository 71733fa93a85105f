"""chainer.functions: every differentiable function of Chainer (shipped by chainer-links).

Each function lives in its own module inside a family package (``activation``, ``array``,
``math``, ...), exactly where Chainer kept it: ``chainer.functions.activation.relu`` is the
module and ``chainer.functions.relu`` the function. The names are listed in ``__init__.pyi``
and each is imported from its module on first access, so ``import chainer.functions`` loads
only what a program uses.
"""

from chainer._links_distribution import check_core as _check_core

_check_core()

from chainer import _lazy  # noqa: E402 (after the core version check)

__getattr__, __dir__, __all__ = _lazy.attach_stub(__name__, __file__)
