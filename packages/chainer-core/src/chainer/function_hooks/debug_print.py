"""``PrintHook``: print each function and a summary of its inputs as it runs."""

from __future__ import annotations

import sys
import warnings
from typing import TextIO

from chainer.backend import get_array_module
from chainer.function_hook import FunctionHook
from chainer.variable import Variable


class PrintHook(FunctionHook):
    """Function hook that prints debug information of every forward and backward call.

    Before a function runs it prints ``function\\t<label>``, then ``input data`` and, for each
    input array, the text of :meth:`Variable.debug_print` (device, backend, shape, dtype and
    statistics); ``(removed)`` stands for an input that backward no longer holds. Before a
    backward call it also prints ``output gradient`` and the statistics of each gradient.

    Args:
        sep: Deprecated and ignored (Chainer's argument; setting it warns).
        end: Text written after each printed item.
        file: Where to write.
        flush: Flush ``file`` after each call.

    Example:
        >>> import sys
        >>> x = chainer.Variable(numpy.ones(3, numpy.float32))
        >>> hook = chainer.function_hooks.PrintHook(file=sys.stdout)
        >>> with hook:  # doctest: +ELLIPSIS +NORMALIZE_WHITESPACE
        ...     y = F.relu(x)
        function	ReLU
        input data
        <variable at 0x...>
        - device: CPU
        - backend: <class 'numpy.ndarray'>
        - shape: (3,)
        - dtype: float32
        - statistics: mean=1.00000000, std=0.00000000
        - grad: None
    """

    name = "PrintHook"

    def __init__(
        self,
        sep: str | None = None,
        end: str = "\n",
        file: TextIO = sys.stdout,
        flush: bool = True,
    ) -> None:
        if sep is not None:
            warnings.warn(
                "the sep argument of chainer.function_hooks.PrintHook is deprecated and ignored",
                DeprecationWarning,
                stacklevel=2,
            )
        self.sep = sep
        self.end = end
        self.file = file
        self.flush = flush

    def _print(self, text: str) -> None:
        self.file.write(text + self.end)

    def _print_call(self, function, in_data, out_grad=None) -> None:
        self._print(f"function\t{function.label}")
        self._print("input data")
        for x in in_data:
            # Backward sees None for an input whose array was not retained.
            self._print("(removed)" if x is None else Variable(x).debug_print())
        if out_grad:
            self._print("output gradient")
            for gy in out_grad:
                self._print(_gradient_text(gy))
        if self.flush and hasattr(self.file, "flush"):
            self.file.flush()

    def forward_preprocess(self, function, in_data) -> None:
        self._print_call(function, in_data)

    def backward_preprocess(self, function, in_data, out_grad) -> None:
        self._print_call(function, in_data, out_grad)


def _gradient_text(gy) -> str:
    """The debug text of a variable holding ``gy`` as its gradient (zeros as its data)."""
    if gy is None:
        return Variable().debug_print()
    holder = Variable(get_array_module(gy).zeros_like(gy))
    holder.grad = gy
    return holder.debug_print()
