"""chainer.links: layers with parameters (shipped by the chainer-links distribution).

Each link lives in its own module inside a family package, where Chainer kept it
(``chainer.links.connection.linear``, ``chainer.links.normalization.batch_normalization``,
...); every link class is re-exported here, so ``chainer.links.Linear`` is
``chainer.links.connection.linear.Linear``. The names are listed in ``__init__.pyi`` and each
is imported from its module on first access, so ``import chainer.links`` loads only what a
program uses.
"""

from chainer._links_distribution import check_core as _check_core

_check_core()

from chainer import _lazy  # noqa: E402 (after the core version check)

__getattr__, __dir__, __all__ = _lazy.attach_stub(__name__, __file__)
