"""Recording the functions a static chain runs: ``static_code`` and the trace of a first call.

While a :func:`~chainer.graph_optimizations.static_graph.static_graph` chain runs define-by-run
for the first time, a :class:`_Trace` is active in the thread: every
:class:`~chainer.FunctionNode` applied and every ``@static_code`` call is appended to it as a
:class:`ScheduleInfo` step, with the very array objects it read and wrote. Later calls replay
those steps on the same arrays (the *static buffers*, refreshed in place), so nothing else of
the define-by-run code runs again.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any

from chainer.function_hook import FunctionHook


class _State(threading.local):
    trace: Any = None  # the _Trace of the static chain being recorded in this thread
    running = False  # whether a static chain is being called in this thread


state = _State()


class ScheduleInfo:
    """One step of a static schedule: a function applied to fixed (static) arrays.

    Args:
        func: What to call: a :class:`~chainer.FunctionNode`'s ``forward`` or a
            ``@static_code`` function; ``None`` for a node that only takes part in backward
            (its forward is made of static code steps).
        args: Positional arguments of every call (the static input arrays for a node).
        kwargs: Keyword arguments of every call.
        outputs: The static arrays the results are copied into on each call.
        func_name: Name shown in schedule listings.
        node: The :class:`~chainer.FunctionNode` of the step (``None`` for static code).
    """

    __slots__ = ("func", "args", "kwargs", "outputs", "func_name", "node", "grad_targets")

    def __init__(
        self,
        func: Callable,
        args: tuple,
        kwargs: dict,
        outputs: tuple,
        func_name: str,
        node=None,
    ) -> None:
        self.func = func
        self.args = args
        self.kwargs = kwargs
        self.outputs = outputs
        self.func_name = func_name
        self.node = node
        #: Input indexes whose gradients backward computes (set when the schedule is built).
        self.grad_targets: tuple[int, ...] = ()

    def __call__(self) -> None:
        results = self.func(*self.args, **self.kwargs)
        if self.node is None:
            if results is None:
                return
            if not isinstance(results, (tuple, list)):
                results = (results,)
        for buffer, result in zip(self.outputs, results):
            if result is not buffer:
                buffer[...] = result

    def compile(self) -> Callable[[], None]:
        """A call equivalent to ``self()`` with less work per replay.

        A function node may offer ``_static_kernel(in_data, outputs)``: a callable that writes
        into ``outputs`` (the static output arrays) what ``forward(in_data)`` returns, bitwise,
        or ``None`` where it cannot. Otherwise a node with one output becomes a closure
        calling ``forward`` and copying its result.
        """
        node = self.node
        if node is None or self.func is None or self.kwargs:
            return self
        (in_data,) = self.args
        make_kernel = getattr(node, "_static_kernel", None)
        kernel = None if make_kernel is None else make_kernel(in_data, self.outputs)
        if kernel is not None:
            return kernel
        if len(self.outputs) != 1:
            return self
        (buffer,) = self.outputs
        func = replay_forward(node)

        def call() -> None:
            result = func(in_data)[0]
            if result is not buffer:
                buffer[...] = result

        return call

    def __repr__(self) -> str:
        shapes = ", ".join(str(getattr(a, "shape", type(a).__name__)) for a in self.outputs)
        return f"<ScheduleInfo {self.func_name} -> ({shapes})>"


def replay_forward(node) -> Callable[[tuple], tuple]:
    """What replays ``node.forward``: its ``_static_forward()`` where it offers one.

    A function node may define ``_static_forward()``, returning a callable equivalent to its
    ``forward`` on inputs of the recorded shapes and dtypes (with the work that only depends
    on those done once), or ``None``.
    """
    make = getattr(node, "_static_forward", None)
    fast = None if make is None else make()
    return node.forward if fast is None else fast


class _Trace(FunctionHook):
    """The recording of one static chain call (a function hook active while it runs)."""

    name = "static_graph_trace"

    def __init__(self) -> None:
        self.steps: list[ScheduleInfo] = []
        self._inside_node = 0  # >0 while a recorded node's own forward runs

    def forward_preprocess(self, function, in_data) -> None:
        if self._inside_node:
            return  # a function applied inside another function's forward: part of that one
        static_forward_optimizations(function, in_data)

    def add_static_code(self, func, args, kwargs, result, func_name: str) -> None:
        if self._inside_node:
            return  # runs again as part of the replayed forward of the enclosing node
        outputs: tuple
        if result is None:
            outputs = ()
        elif isinstance(result, (tuple, list)):
            outputs = tuple(result)
        else:
            outputs = (result,)
        self.steps.append(ScheduleInfo(func, args, kwargs, outputs, func_name))


def static_forward_optimizations(func, inputs) -> None:
    """Record ``func`` (a FunctionNode about to run its forward on ``inputs``) in the trace.

    A function's ``forward`` is replayed on the same input arrays, its outputs copied into the
    arrays it returned the first time. A function that declares
    ``_supports_static_optimizations = True`` is not replayed as a whole: only the
    ``@static_code`` calls its forward makes are (they write into its output arrays).
    """
    trace = state.trace
    if trace is None:
        return
    original = func.forward
    static_support = getattr(func, "_supports_static_optimizations", False)

    def recording_forward(in_data):
        trace._inside_node += 0 if static_support else 1
        try:
            outputs = original(in_data)
        finally:
            trace._inside_node -= 0 if static_support else 1
            del func.forward  # back to the class's method
        run = None if static_support else original
        step = ScheduleInfo(run, (tuple(in_data),), {}, tuple(outputs), func.label, func)
        trace.steps.append(step)
        return outputs

    func.forward = recording_forward


def static_code(*dec_args: Any, **dec_kwargs: Any) -> Callable:
    """Mark a function or method as code a static chain must run on every call.

    The define-by-run code of a :func:`~chainer.static_graph` chain runs only on its first
    call; a ``@static_code`` function called from it is recorded and called again, with the
    same arguments, by every later call. Pass arrays in lists (``inputs=[x]``,
    ``outputs=[y]``) and write results into the output arrays in place; a function may also
    return arrays, which are then copied into the arrays it returned the first time. Outside
    a static chain it is an ordinary call.

    Use it bare (``@static_code``) or with ``func_name='name'`` for schedule listings.
    """
    if len(dec_args) == 1 and not dec_kwargs and callable(dec_args[0]):
        return _static_code(dec_args[0], None)
    if dec_args or set(dec_kwargs) - {"func_name"}:
        raise TypeError(
            "static_code is used as @static_code or @static_code(func_name='...'); got "
            f"arguments {dec_args!r} {dec_kwargs!r}"
        )
    return lambda func: _static_code(func, dec_kwargs.get("func_name"))


def _static_code(func: Callable, func_name: str | None) -> Callable:
    name = func_name or func.__qualname__

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        result = func(*args, **kwargs)
        trace = state.trace
        if trace is not None:
            trace.add_static_code(func, args, kwargs, result, name)
        return result

    return wrapped
