"""``ChainerxFallbackHook``: counts the calls on ChainerX arrays that fell back to NumPy/CuPy."""

from __future__ import annotations

import collections

from chainer.function_hook import FunctionHook


class ChainerxFallbackHook(FunctionHook):
    """Counts, per function, the calls on ChainerX arrays that had no native path.

    Such a call (``forward_chainerx`` returned ``chainer.Fallback``) runs the function's
    NumPy/CuPy ``forward`` on views of the same memory and its Python ``backward``; the counts
    show which functions keep a model off ChainerX's native routines.

    Example:
        >>> hook = chainer.function_hooks.ChainerxFallbackHook()
        >>> with hook:
        ...     y = chainer.functions.identity(numpy.ones(2, numpy.float32))
        >>> hook.total  # NumPy arrays: nothing falls back
        0

    Attributes:
        counts: ``collections.Counter`` from function label to the number of fallen-back calls.
    """

    name = "ChainerxFallbackHook"

    def __init__(self) -> None:
        self.counts: collections.Counter = collections.Counter()

    @property
    def total(self) -> int:
        """The number of calls that fell back, all functions together."""
        return sum(self.counts.values())

    def forward_postprocess(self, function, in_data) -> None:
        # chainer._chainerx_graph sets chainerx_device on a function exactly when it falls back.
        if function.chainerx_device is not None:
            self.counts[function.label] += 1
