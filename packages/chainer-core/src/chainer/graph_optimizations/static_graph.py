"""Static subgraph optimization: ``@static_graph`` on a chain's ``__call__``/``forward``.

The first call of a static chain (for a given configuration and input signature) runs its
define-by-run code while recording every function it applies (a :class:`StaticSchedule`).
Later calls replay that schedule: each recorded ``FunctionNode.forward`` runs again on the
same arrays (the *static buffers*, refreshed in place: new inputs are copied into them and
results are copied over the first call's results), without creating Variables, function
nodes or type checks. The whole call is one :class:`StaticScheduleFunction` node in the
graph; its backward runs the recorded functions' ``backward`` in the order define-by-run
backward would, at array level where that is provably the same computation, and from the
second backward on as one compiled program (:mod:`._fused_backward`).
"""

from __future__ import annotations

import functools
import operator
import weakref
from collections.abc import Callable
from typing import Any

from chainer import backend
from chainer import variable as _variable
from chainer._function_hooks_registry import state as _hook_state
from chainer.configuration import config, using_config
from chainer.function_node import FunctionNode
from chainer.graph_optimizations import _backward_program, _fused_backward, _trace_checks
from chainer.graph_optimizations.static_graph_utilities import ScheduleInfo, _Trace, state

__all__ = [
    "ArrayInfo",
    "ScheduleInfo",
    "ScheduleManager",
    "StaticSchedule",
    "StaticScheduleFunction",
]


class ArrayInfo:
    """What a schedule needs to know of an array it does not own: its shape, dtype and
    device, and (through a weak reference) whether it still exists.

    Args:
        array: A NumPy, CuPy or ChainerX array (one that takes weak references).
    """

    def __init__(self, array: Any) -> None:
        self.weak_ref = weakref.ref(array)
        self.id = id(array)
        self.shape = array.shape
        self.dtype = array.dtype
        self.device = backend.get_device_from_array(array)

    def was_deleted(self) -> bool:
        """Whether the array has been garbage collected."""
        return self.weak_ref() is None

    def get_new_empty_array(self) -> Any:
        """A new uninitialized array of the same shape and dtype on the same device."""
        with self.device.create_context():
            return self.device.xp.empty(self.shape, self.dtype)

    def __repr__(self) -> str:
        state = "deleted" if self.was_deleted() else "alive"
        return f"ArrayInfo(shape={self.shape}, dtype={self.dtype}, device={self.device}, {state})"


class StaticSchedule:
    """The recorded steps of one static chain call and the static arrays they work on.

    Attributes:
        steps: The :class:`ScheduleInfo` steps in forward order.
        input_buffers: The static arrays the call's input arrays are copied into.
        outputs: The static arrays holding the call's outputs.
        params: The parameters the steps read (inputs of the graph node, for gradients).
    """

    def __init__(self, trace: _trace_checks.CheckedTrace, verbosity_level: int) -> None:
        self.steps = trace.steps
        self.input_buffers = trace.input_buffers
        self.outputs = trace.outputs
        self.params = trace.params
        self.result_structure = trace.result_structure
        self._watched = trace.watched
        self._forward_calls = [s.compile() for s in self.steps if s.func is not None]
        self._backward_steps = _fused_backward.backward_order(self.steps, self.outputs)
        # (step, which incoming gradients are absent) -> BackwardProgram or UNSAFE
        self._programs: dict[tuple, Any] = {}
        # which outputs have no gradient -> FusedBackward or UNSAFE
        self._fused: dict[tuple, Any] = {}
        self._static_ids = trace.static_ids
        self.generation = 0
        self._owner: Any = None  # weakref to the graph node whose backward still needs the buffers
        if verbosity_level >= 1:
            print(f"static_graph: recorded {self}")
        if verbosity_level >= 2:
            for step in self.steps:
                print(f"  {step!r}")

    def __repr__(self) -> str:
        names = ", ".join(step.func_name for step in self.steps)
        return f"<StaticSchedule of {len(self.steps)} steps: {names}>"

    def __reduce__(self):
        # Copies and pickles of a chain record their own schedules (see ScheduleManager).
        return (_no_schedule, ())

    def is_empty(self) -> bool:
        return not self.steps

    def is_free(self) -> bool:
        """Whether no graph still waits for a backward through this schedule's arrays."""
        return self._owner is None or self._owner() is None

    def is_current(self) -> bool:
        """Whether the parameters and persistents it read still hold the same arrays."""
        for owner, name, array in self._watched:
            if getattr(owner, name) is not array:
                return False
        return True

    def release(self) -> None:
        self._owner = None

    def run(self, in_arrays: tuple) -> None:
        """Replay the forward steps on ``in_arrays`` (copied into the input buffers)."""
        for buffer, array in zip(self.input_buffers, in_arrays):
            if array is not buffer:
                buffer[...] = array
        for call in self._forward_calls:
            call()
        self.generation += 1

    def backward(self, target_input_indexes: tuple, grad_outputs: tuple) -> tuple:
        """Gradients of the node inputs (inputs, then params) from the outputs' gradients."""
        missing = tuple([gy is None for gy in grad_outputs])
        fused: Any = self._fused.get(missing)
        if fused is None:
            fused = _fused_backward.compile_backward(self, missing)
            if fused is not None:
                self._fused[missing] = fused
        if fused is not None and fused is not _backward_program.UNSAFE:
            grads = fused.run(grad_outputs)
        else:
            grads = self._backward_by_steps(grad_outputs)
        new_variable = _variable._new_variable
        return tuple(
            [
                None if grads[i] is None else new_variable(grads[i], False)
                for i in target_input_indexes
            ]
        )

    def _backward_by_steps(self, grad_outputs: tuple) -> list:
        """The step-by-step backward, which records each step's program on first use."""
        gys = tuple([None if gy is None else gy.array for gy in grad_outputs])
        return _fused_backward.walk(self, gys, self._run_step, operator.add)

    def _run_step(self, step: ScheduleInfo, gys: list, missing: tuple) -> list:
        """The gradients of one step's targets: by its program, recording it on first use."""
        key = (id(step), missing)
        program = self._programs.get(key)
        if program is None:
            gxs, self._programs[key] = _backward_program.record(
                step.node, step.grad_targets, gys, self._static_ids
            )
            return gxs
        if program is _backward_program.UNSAFE:
            return _backward_on_variables(step, gys)
        return program.run(gys)


def _no_schedule() -> None:
    return None


def _backward_on_variables(step: ScheduleInfo, grads: list) -> list:
    new_variable = _variable._new_variable
    gys = tuple([None if g is None else new_variable(g, False) for g in grads])
    # The function checked its inputs on the first call; shapes are static.
    with using_config("type_check", False):
        gxs = step.node._backward_target(step.grad_targets, gys)
    return [None if gx is None else gx.array for gx in gxs]


class StaticScheduleFunction(FunctionNode):
    """One call of a static chain as a single graph node (inputs, then parameters).

    Args:
        schedule: The :class:`StaticSchedule` this call runs.
        replay: Whether forward replays the schedule (``False`` right after recording it,
            when its buffers already hold this call's results).
    """

    def __init__(self, schedule: StaticSchedule, replay: bool = True) -> None:
        self.schedule = schedule
        self._replay = replay
        self.generation: int | None = None

    @property
    def label(self) -> str:
        return "StaticScheduleFunction"

    def forward(self, inputs: tuple) -> tuple:
        schedule = self.schedule
        if self._replay:
            schedule.run(inputs[: len(schedule.input_buffers)])
        self.generation = schedule.generation
        # Copies: the buffers are overwritten by the next call of the schedule.
        return tuple([y.copy() for y in schedule.outputs])

    def backward(self, target_input_indexes: tuple, grad_outputs: tuple) -> tuple:
        schedule = self.schedule
        if schedule.generation != self.generation:
            raise RuntimeError(
                "the static chain was called again (and reused this call's static arrays) "
                "before backward reached this call; call backward before the next call, or "
                "set chainer.config.use_static_graph = False for this model"
            )
        if config.enable_backprop:
            raise NotImplementedError(
                "static_graph does not support higher-order gradients (double backprop); set "
                "chainer.config.use_static_graph = False to differentiate this model twice"
            )
        try:
            return schedule.backward(target_input_indexes, grad_outputs)
        finally:
            schedule.release()


class ScheduleManager:
    """The cached schedules of one static chain.

    A schedule is reused by a later call with the same configuration (``train``,
    ``enable_backprop``) and input signature (shapes, dtypes, constants) once no graph needs
    its arrays any more (its backward ran, or the graph is gone). Calling the chain several
    times before backward records one schedule per call.

    Args:
        minimize_cache_size: Drop the schedules of other signatures whenever the signature
            changes (for example the training mode or the batch size).
        verbosity_level: ``1`` prints each recorded schedule, ``2`` also its steps.
    """

    def __init__(self, minimize_cache_size: bool = True, verbosity_level: int = 0) -> None:
        self.minimize_cache_size = minimize_cache_size
        self.verbosity_level = verbosity_level
        self.schedules: dict[tuple, list[StaticSchedule]] = {}
        self._last_key: tuple | None = None

    def __reduce__(self):
        # A copied or unpickled chain has its own parameters: it records its own schedules.
        return (ScheduleManager, (self.minimize_cache_size, self.verbosity_level))

    def get_schedule(self, key: tuple) -> StaticSchedule | None:
        """A free, current schedule recorded for ``key``, or ``None`` (record a new one)."""
        if self.minimize_cache_size and key != self._last_key:
            self.schedules = {key: self.schedules.get(key, [])}
        self._last_key = key
        cached = self.schedules.get(key, [])
        for schedule in cached:
            if schedule.is_free():
                if schedule.is_current():
                    return schedule
                # Parameters or persistents were replaced: record again.
                cached.remove(schedule)
                return None
        return None

    def add(self, key: tuple, schedule: StaticSchedule) -> None:
        self.schedules.setdefault(key, []).append(schedule)

    def end_forward(self) -> None:
        """Declare the forward pass over: every schedule may be reused by the next call."""
        for schedules in self.schedules.values():
            for schedule in schedules:
                schedule.release()


def static_graph(*args: Any, **kwargs: Any) -> Callable:
    """Decorator marking a Chain's ``__call__``/``forward`` as a static subgraph.

    The decorated method must call the same Chainer functions and links on every call (no
    data-dependent control flow). Its define-by-run code runs on the first call only (per
    training mode, backprop mode and input shapes/dtypes); later calls replay the recorded
    functions. Other code in the method (side effects such as counters, printing, arrays
    computed with NumPy) therefore runs once: put it in a ``@static_code`` function.

    Restrictions, each reported with an error: arguments are Variables or arrays, alone or
    in lists/tuples (other arguments must be hashable constants and become part of the
    signature); results are Variables (alone or in lists/tuples) computed by Chainer
    functions; static chains do not nest; ChainerX arrays and double backprop are not
    supported (set ``chainer.config.use_static_graph = False`` to run define-by-run).

    Use it bare (``@static_graph``) or with options:

    Args:
        force_test_mode: Always run the chain with ``chainer.config.train = False``.
        minimize_cache_size: Keep only the schedules of the latest signature.
        verbosity_level: ``1`` prints each recorded schedule, ``2`` also its steps.
        enable_double_backprop: Must be ``False`` (double backprop is not supported).

    Example:
        >>> class MLP(chainer.Chain):
        ...     def __init__(self):
        ...         super().__init__()
        ...         with self.init_scope():
        ...             self.l1 = L.Linear(None, 5)
        ...             self.l2 = L.Linear(None, 2)
        ...     @static_graph
        ...     def __call__(self, x):
        ...         return self.l2(F.relu(self.l1(x)))
    """
    if len(args) == 1 and not kwargs and callable(args[0]):
        return _decorate(args[0], {})
    if args:
        raise TypeError(
            "static_graph is used as @static_graph or @static_graph(option=value, ...); got "
            f"positional arguments {args!r}"
        )
    options = {
        "force_test_mode": False,
        "minimize_cache_size": False,
        "verbosity_level": 0,
        "enable_double_backprop": False,
    }
    unknown = set(kwargs) - set(options)
    if unknown:
        raise TypeError(
            f"unknown static_graph options {sorted(unknown)}; expected some of {sorted(options)}"
        )
    options.update(kwargs)
    if options["enable_double_backprop"]:
        raise NotImplementedError(
            "static_graph(enable_double_backprop=True) is not supported: run the model with "
            "chainer.config.use_static_graph = False to take higher-order gradients"
        )
    return lambda func: _decorate(func, options)


def _decorate(func: Callable, options: dict) -> Callable:
    force_test_mode = options.get("force_test_mode", False)

    @functools.wraps(func)
    def wrapped(chain, *args, **kwargs):
        if not config.use_static_graph:
            return func(chain, *args, **kwargs)
        if state.running:
            raise RuntimeError(
                f"static_graph chains cannot be nested: {type(chain).__name__}.{func.__name__} "
                "was called inside another static chain; decorate only the outermost chain"
            )
        if force_test_mode:
            with using_config("train", False):
                return _call(chain, func, options, args, kwargs)
        return _call(chain, func, options, args, kwargs)

    return wrapped


def _manager_of(chain, options: dict) -> ScheduleManager:
    manager = chain.__dict__.get("schedule_manager")
    if manager is None or chain.__dict__.get("_static_graph_owner") != id(chain):
        # Missing, or inherited by a (shallow) copy of the chain: record anew.
        manager = ScheduleManager(
            options.get("minimize_cache_size", False), options.get("verbosity_level", 0)
        )
        chain.schedule_manager = manager
        chain._static_graph_owner = id(chain)
    return manager


def _call(chain, func: Callable, options: dict, args: tuple, kwargs: dict):
    leaves: list = []
    signature = _trace_checks.flatten_call_arguments(args, kwargs, leaves)
    key = (func, bool(config.train), bool(config.enable_backprop), signature)
    manager = _manager_of(chain, options)
    schedule = manager.get_schedule(key)
    replay = schedule is not None
    if schedule is None:
        state.running = True
        try:
            checked = _record(chain, func, args, kwargs, leaves)
        finally:
            state.running = False
        schedule = StaticSchedule(checked, manager.verbosity_level)
        manager.add(key, schedule)
    node = StaticScheduleFunction(schedule, replay)
    inputs = (*leaves, *schedule.params)
    if replay and not _hook_state.hooks and not config.debug:
        outputs = _apply_checked(node, inputs)
    else:
        outputs = node.apply(inputs)
    if outputs and outputs[0].creator_node is node:
        schedule._owner = weakref.ref(node)
    if chain.__dict__.get("static_schedule") is not schedule:
        chain.static_schedule = schedule
    return _trace_checks.rebuild(schedule.result_structure, iter(outputs))


def _apply_checked(node: StaticScheduleFunction, inputs: tuple) -> tuple:
    """``node.apply(inputs)`` without the checks a replay does not need.

    The inputs match the recorded signature (Variables and NumPy arrays, then parameters),
    the outputs are copies of NumPy arrays, and no function hook is active.
    """
    Variable = _variable.Variable
    in_data = tuple([x._array if isinstance(x, Variable) else x for x in inputs])
    outputs = node.forward(in_data)
    requires_grad = any(x._requires_grad for x in inputs if isinstance(x, Variable))
    if requires_grad and config.enable_backprop:
        return node._record(inputs, in_data, outputs)
    new_variable = _variable._new_variable
    return tuple([new_variable(y, requires_grad) for y in outputs])


def _record(
    chain, func: Callable, args: tuple, kwargs: dict, leaves: list
) -> _trace_checks.CheckedTrace:
    """Run ``func`` define-by-run on copies of the inputs while recording a trace."""
    buffers = [_variable.as_array(leaf).copy() for leaf in leaves]
    substitutes = iter(
        [
            _variable.Variable(buf, requires_grad=leaf.requires_grad)
            if isinstance(leaf, _variable.Variable)
            else buf
            for leaf, buf in zip(leaves, buffers)
        ]
    )
    new_args, new_kwargs = _trace_checks.substitute((args, kwargs), substitutes)
    trace = _Trace()
    state.trace = trace
    try:
        with trace:
            result = func(chain, *new_args, **new_kwargs)
    finally:
        state.trace = None
    results: list = []
    result_structure = _trace_checks.flatten_results(result, results)
    requires_grad = [getattr(leaf, "requires_grad", False) for leaf in leaves]
    return _trace_checks.CheckedTrace(
        chain, trace.steps, buffers, requires_grad, results, result_structure
    )
