"""The whole backward of a static schedule as one flat program over a register list.

Once every forward step has a :class:`~._backward_program.BackwardProgram` for the pattern of
incoming gradients it sees, the step-by-step backward of
:class:`~.static_graph.StaticSchedule` (dictionaries keyed by array ids, one program per
step, gradients summed as they meet) always makes the same calls on the same static arrays.
:func:`compile_backward` runs that walk once symbolically and writes down those calls: every
value (static array or gradient) gets a slot in a register list, and each instruction is a
recorded gradient function's ``forward`` (or the sum of two gradients) reading and writing
slots. Replaying it computes the very same arrays without the per-step bookkeeping.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from operator import itemgetter
from typing import Any

from chainer.graph_optimizations._backward_program import UNSAFE
from chainer.graph_optimizations.static_graph_utilities import replay_forward


def backward_order(steps: list, outputs: tuple) -> list:
    """The steps that compute gradients, in the order the backward engine would call them.

    Define-by-run backward pops functions by rank (highest first), ties in the order they
    were reached from the outputs; gradients meeting at one array are summed in that order.
    Following it makes the schedule's sums (and so its gradients) bitwise those of
    define-by-run.
    """
    producer = {id(y): step for step in steps if step.grad_targets for y in step.outputs}
    heap: list = []
    reached: set = set()

    def reach(array) -> None:
        step = producer.get(id(array))
        if step is not None and id(step) not in reached:
            reached.add(id(step))
            heapq.heappush(heap, (-step.node.rank, len(reached), step))

    for y in outputs:
        reach(y)
    order = []
    while heap:
        step = heapq.heappop(heap)[2]
        order.append(step)
        args = step.args[0]
        for index in step.grad_targets:
            reach(args[index])
    return order


def _add_pair(pair: tuple) -> tuple:
    return (pair[0] + pair[1],)


class FusedBackward:
    """A compiled backward: instructions over registers, and the registers of the results.

    Args:
        initial: The register list before a run (static arrays filled in, gradients ``None``).
        grad_slots: The registers of the incoming gradients, one per schedule output
            (``None`` where the pattern has no gradient).
        instructions: ``(function, argument getter, output registers)`` in execution order.
        result_slots: Per graph node input, the register of its gradient (``None``: none).
    """

    __slots__ = ("initial", "grad_slots", "instructions", "result_slots")

    def __init__(
        self, initial: list, grad_slots: tuple, instructions: list, result_slots: tuple
    ) -> None:
        self.initial = initial
        self.grad_slots = grad_slots
        self.instructions = instructions
        self.result_slots = result_slots

    def run(self, grad_outputs: tuple) -> list:
        """The gradient arrays of every graph node input (``None`` where there is none)."""
        regs = self.initial.copy()
        for slot, gy in zip(self.grad_slots, grad_outputs):
            if slot is not None:
                regs[slot] = gy.array
        for func, getter, out in self.instructions:
            ys = func(getter(regs))
            if type(out) is int:
                regs[out] = ys[0]
            else:
                for slot, y in zip(out, ys):
                    regs[slot] = y
        return [None if slot is None else regs[slot] for slot in self.result_slots]


class _Builder:
    """Registers and instructions collected by the symbolic walk."""

    def __init__(self) -> None:
        self.initial: list = []
        self.constants: dict[int, int] = {}  # id(static array) -> register
        self.instructions: list = []

    def new(self) -> int:
        self.initial.append(None)
        return len(self.initial) - 1

    def constant(self, array) -> int:
        slot = self.constants.get(id(array))
        if slot is None:
            slot = self.new()
            self.initial[slot] = array
            self.constants[id(array)] = slot
        return slot

    def emit(self, func, in_slots: list, out_slots: tuple) -> None:
        if len(in_slots) == 1:
            only = in_slots[0]
            getter = lambda regs: (regs[only],)  # noqa: E731 (itemgetter(i) is no tuple)
        else:
            getter = itemgetter(*in_slots)
        out: Any = out_slots[0] if len(out_slots) == 1 else out_slots
        self.instructions.append((func, getter, out))

    def add(self, a: int, b: int) -> int:
        """Emit ``a + b``; return the register of the sum."""
        total = self.new()
        self.emit(_add_pair, [a, b], (total,))
        return total


class _NotCompilable(Exception):
    def __init__(self, program) -> None:
        self.program = program


def walk(schedule, grad_outputs: tuple, run_step: Callable, add: Callable) -> list:
    """The step-by-step backward of ``schedule``; the values are arrays or registers.

    ``grad_outputs`` holds one value (or ``None``) per schedule output; ``run_step(step,
    gys, missing)`` returns the gradients of the step's ``grad_targets``, and ``add(a, b)``
    sums two gradients meeting at one array. Returns the value per graph node input.
    """
    grads: dict = {}  # id(forward array) -> gradient value

    def accumulate(key: int, g) -> None:
        old = grads.get(key)
        grads[key] = g if old is None else add(old, g)

    for y, gy in zip(schedule.outputs, grad_outputs):
        if gy is not None:
            accumulate(id(y), gy)
    for step in schedule._backward_steps:
        gys = [grads.pop(id(y), None) for y in step.outputs]
        missing = tuple([g is None for g in gys])
        if all(missing):
            continue
        gxs = run_step(step, gys, missing)
        args = step.args[0]
        for index, gx in zip(step.grad_targets, gxs):
            if gx is not None:
                accumulate(id(args[index]), gx)
    sources = (*schedule.input_buffers, *(p.array for p in schedule.params))
    return [grads.get(id(source)) for source in sources]


def compile_backward(schedule, missing: tuple) -> FusedBackward | str | None:
    """The fused backward of ``schedule`` for outputs whose gradient is absent per ``missing``.

    Returns :data:`UNSAFE` when some step must run its backward on Variables, and ``None``
    when a step has no recorded program yet for the pattern it sees (run the step-by-step
    backward once more, which records it).
    """
    builder = _Builder()
    grad_slots = tuple([None if absent else builder.new() for absent in missing])
    programs = schedule._programs

    def inline_step(step, gys: list, step_missing: tuple) -> list:
        program = programs.get((id(step), step_missing))
        if program is None or program is UNSAFE:
            raise _NotCompilable(program)
        return _inline(builder, program, gys)

    try:
        result_slots = walk(schedule, grad_slots, inline_step, builder.add)
    except _NotCompilable as e:
        return e.program
    return FusedBackward(builder.initial, grad_slots, builder.instructions, tuple(result_slots))


def _inline(builder: _Builder, program, gy_slots: list) -> list:
    """Emit ``program``'s gradient functions; return the registers of its results."""
    current = {id(r): s for r, s in zip(program.grad_records, gy_slots) if r is not None}

    def slot_of(array) -> int:
        slot = current.get(id(array))
        return builder.constant(array) if slot is None else slot

    for step in program.steps:
        in_slots = [slot_of(a) for a in step.args[0]]
        out_slots = tuple([builder.new() for _ in step.outputs])
        builder.emit(replay_forward(step.node), in_slots, out_slots)
        for record, slot in zip(step.outputs, out_slots):
            current[id(record)] = slot
    return [None if r is None else slot_of(r) for r in program.results]
