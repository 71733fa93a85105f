"""``LinkHook``: code that runs before and after the forward pass of links.

A hook is registered either on one link (:meth:`chainer.Link.add_hook`) or, used as a context
manager, globally for every link called in the ``with`` block of the current thread.
"""

from __future__ import annotations

import threading
import typing as tp

if tp.TYPE_CHECKING:
    import chainer

__all__ = ["LinkHook"]


class _State(threading.local):
    # A class attribute, so that the check in Link.__call__ is cheap in threads with no hooks.
    hooks: dict | None = None


_state = _State()


def _get_link_hooks() -> dict:
    """The link hooks registered globally in this thread (name -> hook), in order."""
    hooks = _state.hooks
    if hooks is None:
        hooks = _state.hooks = {}
    return hooks


class _ForwardPreprocessCallbackArgs:
    """What :meth:`LinkHook.forward_preprocess` receives.

    Attributes:
        link: The link being called.
        forward_name: Name of the method that runs the forward pass (``'forward'``).
        args: Positional arguments of the call (a tuple).
        kwargs: Keyword arguments of the call (a dict).
    """

    __slots__ = ("link", "forward_name", "args", "kwargs")
    _fields: tuple[str, ...] = __slots__

    def __init__(self, link: chainer.Link, forward_name: str, args: tuple, kwargs: dict) -> None:
        self.link = link
        self.forward_name = forward_name
        self.args = args
        self.kwargs = kwargs

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"<{type(self).__name__} {fields}>"


class _ForwardPostprocessCallbackArgs(_ForwardPreprocessCallbackArgs):
    """What :meth:`LinkHook.forward_postprocess` receives: the preprocess fields and ``out``.

    Attributes:
        out: What the forward method returned.
    """

    __slots__ = ("out",)
    _fields = (*_ForwardPreprocessCallbackArgs._fields, "out")

    def __init__(
        self, link: chainer.Link, forward_name: str, args: tuple, kwargs: dict, out: tp.Any
    ) -> None:
        super().__init__(link, forward_name, args, kwargs)
        self.out = out


def _call_with_hooks(
    link: chainer.Link,
    forward: tp.Callable,
    args: tuple,
    kwargs: dict,
    global_hooks: dict | None,
    local_hooks: dict | None,
) -> tp.Any:
    # Link.__call__ with hooks registered: global hooks first, then the link's own (a local
    # hook replaces a global one of the same name); post-processing runs in the same order.
    hooks = dict(global_hooks or ())
    hooks.update(local_hooks or ())
    pre = _ForwardPreprocessCallbackArgs(link, "forward", args, kwargs)
    for hook in hooks.values():
        hook.forward_preprocess(pre)
    out = forward(*args, **kwargs)
    post = _ForwardPostprocessCallbackArgs(link, "forward", args, kwargs, out)
    for hook in hooks.values():
        hook.forward_postprocess(post)
    return out


class LinkHook:
    """Base class of link hooks.

    Override any of :meth:`added`, :meth:`deleted`, :meth:`forward_preprocess` and
    :meth:`forward_postprocess`; the base versions do nothing. Hooks are identified by
    :attr:`name`: two hooks with the same name cannot be registered at one place.

    Example:
        >>> class PrintShapes(chainer.LinkHook):
        ...     name = 'PrintShapes'
        ...     def forward_postprocess(self, args):
        ...         print(type(args.link).__name__, args.out.shape)
        >>> model = chainer.Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 2))
        >>> x = numpy.ones((1, 3), numpy.float32)
        >>> with PrintShapes():
        ...     y = model(x)  # every link called in the block reports its output shape
        Linear (1, 4)
        Linear (1, 2)
        Sequential (1, 2)
        >>> model.add_hook(PrintShapes())  # or only for calls of ``model`` itself
        Sequential(...)
    """

    name = "LinkHook"

    def __enter__(self) -> LinkHook:
        hooks = _get_link_hooks()
        if self.name in hooks:
            raise KeyError(f"link hook {self.name!r} already exists in this thread")
        hooks[self.name] = self
        self.added(None)
        return self

    def __exit__(self, *exc_info: tp.Any) -> None:
        _get_link_hooks().pop(self.name, None)
        self.deleted(None)

    def added(self, link: chainer.Link | None) -> None:
        """Called when the hook is registered (``link`` is ``None`` for a global hook)."""

    def deleted(self, link: chainer.Link | None) -> None:
        """Called when the hook is unregistered (``link`` is ``None`` for a global hook)."""

    def forward_preprocess(self, args: _ForwardPreprocessCallbackArgs) -> None:
        """Called before the forward pass of a link, with the link and its call arguments."""

    def forward_postprocess(self, args: _ForwardPostprocessCallbackArgs) -> None:
        """Called after the forward pass of a link; ``args.out`` holds what it returned."""
