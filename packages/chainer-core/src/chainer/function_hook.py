"""``FunctionHook``: code that runs before and after every function application."""

from __future__ import annotations

from chainer._function_hooks_registry import get_function_hooks


class FunctionHook:
    """Base class of function hooks.

    Use it as a context manager to hook every function applied in the block (in this thread),
    or register it on one function with :meth:`FunctionNode.add_hook`.

    Example:
        >>> class CountHook(chainer.FunctionHook):
        ...     name = 'CountHook'
        ...     def __init__(self):
        ...         self.count = 0
        ...     def forward_preprocess(self, function, in_data):
        ...         self.count += 1
        >>> x = chainer.Variable(numpy.ones(3, numpy.float32))
        >>> with CountHook() as hook:
        ...     y = x * 2 + 1
        >>> hook.count
        2
    """

    name = "FunctionHook"

    def __enter__(self) -> FunctionHook:
        hooks = get_function_hooks()
        if self.name in hooks:
            raise KeyError(f"hook {self.name!r} already exists")
        hooks[self.name] = self
        self.added(None)
        return self

    def __exit__(self, *exc_info) -> None:
        get_function_hooks().pop(self.name, None)
        self.deleted(None)

    def added(self, function) -> None:
        """Called when the hook is registered (``function`` is None for a global hook)."""

    def deleted(self, function) -> None:
        """Called when the hook is unregistered (``function`` is None for a global hook)."""

    def forward_preprocess(self, function, in_data) -> None:
        """Called before ``function`` computes its forward pass on ``in_data`` (arrays)."""

    def forward_postprocess(self, function, in_data) -> None:
        """Called after the forward pass of ``function``."""

    def backward_preprocess(self, function, in_data, out_grad) -> None:
        """Called before backward of ``function`` (``out_grad``: output gradient arrays)."""

    def backward_postprocess(self, function, in_data, out_grad) -> None:
        """Called after backward of ``function``."""
