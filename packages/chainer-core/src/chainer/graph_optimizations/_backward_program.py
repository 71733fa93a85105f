"""Replaying the backward of one recorded function at array level.

The first time a static schedule runs backward, each recorded function's ``backward`` runs
on Variables while a trace records the functions it applies (their ``forward`` on arrays).
That recording becomes a :class:`BackwardProgram` when replaying it is provably the same
computation: every array it reads is a static array of the forward schedule (refreshed in
place by each replay), an incoming gradient, or the result of an earlier recorded function;
and every array the recorded functions hold is a static array. Otherwise (say, a gradient
function built around a mask computed with NumPy inside ``backward``) the function keeps
running its ``backward`` on Variables.
"""

from __future__ import annotations

from chainer import _variable_checks
from chainer.function_node import FunctionNode
from chainer.graph_optimizations.static_graph_utilities import _Trace, state
from chainer.variable import _new_variable

#: The step's backward cannot be replayed at array level: call ``backward`` every time.
UNSAFE = "unsafe"


class BackwardProgram:
    """The gradient functions of one forward step, replayed on arrays.

    Args:
        grad_records: The incoming gradient arrays of the recording (``None`` where absent).
        steps: The recorded gradient functions (:class:`ScheduleInfo` with their node).
        results: The gradient arrays the recording returned, one per target input.
    """

    __slots__ = ("grad_records", "steps", "results")

    def __init__(self, grad_records: tuple, steps: list, results: tuple) -> None:
        self.grad_records = grad_records
        self.steps = steps
        self.results = results

    def run(self, grads: list) -> list:
        current = {id(r): g for r, g in zip(self.grad_records, grads) if r is not None}
        get = current.get
        for step in self.steps:
            inputs = tuple([get(id(a), a) for a in step.args[0]])
            for record, y in zip(step.outputs, step.node.forward(inputs)):
                current[id(record)] = y
        return [None if r is None else get(id(r), r) for r in self.results]


def record(node: FunctionNode, targets: tuple, grads: list, static_ids: set):
    """Run ``node``'s backward on Variables; return its gradients and its program.

    The program is :data:`UNSAFE` when replaying the recording could differ from calling
    ``backward`` again.
    """
    trace = _Trace()
    state.trace = trace
    try:
        with trace:
            gys = tuple([None if g is None else _new_variable(g, False) for g in grads])
            gxs = node._backward_target(targets, gys)
    finally:
        state.trace = None
    results = tuple([None if gx is None else gx.array for gx in gxs])
    grad_records = tuple(grads)
    program: BackwardProgram | str
    if _replayable(trace.steps, grad_records, results, static_ids):
        program = BackwardProgram(grad_records, trace.steps, results)
    else:
        program = UNSAFE
    return list(results), program


def _replayable(steps: list, grad_records: tuple, results: tuple, static_ids: set) -> bool:
    readable = set(static_ids) | {id(g) for g in grad_records if g is not None}
    for step in steps:
        if step.node is None or step.func is None:  # static code: not replayed here
            return False
        if any(id(a) not in readable for a in step.args[0]):
            return False
        if not _holds_only_static_arrays(step.node, static_ids):
            return False
        readable.update(id(y) for y in step.outputs)
    return all(r is None or id(r) in readable for r in results)


def _holds_only_static_arrays(node: FunctionNode, static_ids: set) -> bool:
    """Whether the arrays in the node's attributes (two levels deep) are static arrays."""
    pending = [(value, 0) for value in vars(node).values()]
    while pending:
        value, depth = pending.pop()
        if _variable_checks.is_supported_array(value):
            if id(value) not in static_ids:
                return False
        elif isinstance(value, FunctionNode):
            if id(value) not in static_ids:  # only forward nodes of the schedule are fresh
                return False
        elif isinstance(value, (tuple, list)):
            pending.extend((v, depth) for v in value)
        elif isinstance(value, dict):
            pending.extend((v, depth) for v in value.values())
        elif hasattr(value, "__dict__") and not isinstance(value, type):
            if depth >= 2:
                return False
            pending.extend((v, depth + 1) for v in vars(value).values())
    return True
