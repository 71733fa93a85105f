"""The ``rng`` option of the random initializers and the source they draw from by default."""

from __future__ import annotations

from typing import Any

import numpy

from chainer.initializers._arrays import array_module


def pop_rng(kwargs: dict[str, Any], owner: str, method: str) -> Any:
    """Take the ``rng`` keyword out of ``kwargs``, rejecting any other keyword.

    Args:
        kwargs: The extra keyword arguments given to the initializer.
        owner: The initializer's class name, for error messages.
        method: The sampling method the initializer calls on ``rng`` (``'normal'``, ...).

    Returns:
        The random number generator, or ``None`` for the default source.
    """
    rng = kwargs.pop("rng", None)
    if kwargs:
        names = ", ".join(repr(name) for name in sorted(kwargs))
        raise TypeError(
            f"{owner} got unexpected keyword argument(s) {names}; only 'rng' is accepted"
        )
    if rng is not None and not callable(getattr(rng, method, None)):
        raise TypeError(
            f"{owner} needs an rng with a {method}() method such as numpy.random.RandomState "
            f"or numpy.random.Generator, got {type(rng).__name__}"
        )
    return rng


def random_source(rng: Any, array: Any, *, on_host: bool = False) -> Any:
    """Return what to draw from for ``array``: ``rng`` when given, else the global generator.

    The global generator is ``numpy.random`` (so ``numpy.random.seed`` makes results
    reproducible), or ``cupy.random`` for CuPy arrays unless ``on_host`` asks for host draws.
    """
    if rng is not None:
        return rng
    xp = array_module(array)
    if xp.__name__ == "cupy" and not on_host:
        return xp.random
    return numpy.random
