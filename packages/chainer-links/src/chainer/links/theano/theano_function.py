"""``TheanoFunction``: Chainer v7's link around a Theano graph (not available here)."""

from __future__ import annotations

from chainer.functions.theano.theano_function import UNAVAILABLE_MESSAGE
from chainer.link import Link


class TheanoFunction(Link):
    """Would wrap the Theano graph from ``inputs`` to ``outputs`` as a link.

    This implementation has no Theano bridge: constructing it raises :class:`RuntimeError`
    saying why and what to use instead.

    Args:
        inputs: Theano input variables.
        outputs: Theano output variables.
    """

    def __init__(self, inputs, outputs) -> None:
        raise RuntimeError(UNAVAILABLE_MESSAGE)
