"""Argument/result structures of a static chain and the checks of a recorded trace.

A static chain takes Variables and arrays (alone or nested in lists and tuples) plus hashable
constants, and returns Variables (alone or nested). The checks turn what replaying cannot
reproduce into errors instead of silently stale results.
"""

from __future__ import annotations

from typing import Any

import numpy

from chainer import _variable_checks
from chainer.variable import Variable

_CONSTANT_TYPES = (type(None), bool, int, float, complex, str, bytes)


def _is_array(value) -> bool:
    return _variable_checks.is_supported_array(value)


def _reject_chainerx(array, path: str) -> None:
    if type(array).__module__.partition(".")[0] == "chainerx":
        raise RuntimeError(
            f"static_graph does not support ChainerX arrays ({path}); set "
            "chainer.config.use_static_graph = False to run this chain define-by-run"
        )


def flatten_arguments(obj, leaves: list, path: str):
    """Append the Variables/arrays in ``obj`` to ``leaves``; return a hashable signature."""
    if isinstance(obj, Variable):
        if obj.array is None:
            raise TypeError(f"static_graph: {path} is a Variable without data")
        _reject_chainerx(obj.array, path)
        leaves.append(obj)
        return ("V", obj.shape, obj.dtype, obj.requires_grad)
    if _is_array(obj):
        _reject_chainerx(obj, path)
        leaves.append(obj)
        return ("A", obj.shape, obj.dtype)
    if isinstance(obj, (list, tuple)):
        return (
            type(obj).__name__,
            tuple(flatten_arguments(v, leaves, f"{path}[{i}]") for i, v in enumerate(obj)),
        )
    if isinstance(obj, dict):
        return (
            "dict",
            tuple((k, flatten_arguments(v, leaves, f"{path}[{k!r}]")) for k, v in obj.items()),
        )
    if isinstance(obj, _CONSTANT_TYPES):
        return ("C", obj)
    raise TypeError(
        f"static_graph: {path} is a {type(obj).__name__}; a static chain takes Variables and "
        "arrays (alone or in lists/tuples) and constants (None, bool, int, float, str)"
    )


def flatten_call_arguments(args: tuple, kwargs: dict, leaves: list):
    """``flatten_arguments((args, kwargs), leaves, "arguments")``, faster for the common
    call with positional NumPy arrays and Variables only."""
    if not kwargs:
        signature: list[tuple] = []
        for arg in args:
            if type(arg) is numpy.ndarray:
                signature.append(("A", arg.shape, arg.dtype))
            elif type(arg) is Variable and type(arg._array) is numpy.ndarray:
                signature.append(("V", arg.shape, arg.dtype, arg.requires_grad))
            else:
                break
        else:
            leaves.extend(args)
            return ("tuple", (("tuple", tuple(signature)), ("dict", ())))
    return flatten_arguments((args, kwargs), leaves, "arguments")


def substitute(obj, replacements):
    """``obj`` with its Variables/arrays replaced, in order, by the items of ``replacements``."""
    if isinstance(obj, Variable) or _is_array(obj):
        return next(replacements)
    if isinstance(obj, (list, tuple)):
        return type(obj)(substitute(v, replacements) for v in obj)
    if isinstance(obj, dict):
        return {k: substitute(v, replacements) for k, v in obj.items()}
    return obj


def flatten_results(obj, results: list, path: str = "the result"):
    """Append the result Variables to ``results``; return the structure to rebuild."""
    if isinstance(obj, Variable):
        results.append(obj)
        return "V"
    if obj is None:
        return None
    if isinstance(obj, (list, tuple)):
        return (
            type(obj),
            tuple(flatten_results(v, results, f"{path}[{i}]") for i, v in enumerate(obj)),
        )
    raise TypeError(
        f"static_graph: {path} is a {type(obj).__name__}; a static chain returns Variables "
        "(alone or in lists/tuples)"
    )


def rebuild(structure, outputs):
    """The result of a call: ``structure`` with its Variables taken from ``outputs``."""
    if structure == "V":
        return next(outputs)
    if structure is None:
        return None
    kind, items = structure
    return kind(rebuild(item, outputs) for item in items)


def _array_args(obj):
    """The arrays in a static code call's arguments (searching lists, tuples and dicts)."""
    if _is_array(obj):
        yield obj
    elif isinstance(obj, (list, tuple)):
        for item in obj:
            yield from _array_args(item)
    elif isinstance(obj, dict):
        for item in obj.values():
            yield from _array_args(item)


def _is_view_of(array, ids: set) -> bool:
    base = getattr(array, "base", None)
    while base is not None:
        if id(base) in ids:
            return True
        base = getattr(base, "base", None)
    return False


def _outside_functions_error(what: str) -> RuntimeError:
    return RuntimeError(
        f"static_graph: {what} was computed outside Chainer functions, so later calls would "
        "not recompute it; compute it with chainer.functions or inside a @static_code "
        "function (or set chainer.config.use_static_graph = False)"
    )


class CheckedTrace:
    """A recorded trace with its arrays classified and the backward plan set.

    Every array a step reads is one of: an input buffer, a result of an earlier step, a
    parameter or persistent array of the chain (watched: replacing it re-records), or a
    constant created on the first call. An array derived from the inputs outside Chainer
    functions (a view of a known array) or a result not produced by a step is an error.
    """

    def __init__(
        self,
        chain,
        steps: list,
        input_buffers: list,
        requires_grad: list,
        results: list,
        result_structure,
    ) -> None:
        self.steps = steps
        self.result_structure = result_structure
        self.input_buffers = tuple(input_buffers)
        params_by_id = {id(p.array): p for p in chain.params() if p.array is not None}
        self.watched = [(p, "_array", p.array) for p in params_by_id.values()]
        for link in chain.links():
            for name in link._persistent:
                value = getattr(link, name, None)
                if _is_array(value):
                    self.watched.append((link, name, value))
        known = {id(b) for b in input_buffers} | {id(a) for _, _, a in self.watched}
        needs_grad = {id(b) for b, rg in zip(input_buffers, requires_grad) if rg}
        params: dict[int, Any] = {}
        for step in steps:
            arrays = step.args[0] if step.node is not None else list(_array_args(step.args))
            for array in arrays:
                key = id(array)
                if key in params_by_id and key not in params:
                    params[key] = params_by_id[key]
                    if params[key].requires_grad:
                        needs_grad.add(key)
                elif key not in known:
                    if _is_view_of(array, known):
                        raise _outside_functions_error(
                            f"an input of {step.func_name} (shape {array.shape}) is a view "
                            "of another array that"
                        )
                    known.add(key)  # a constant made by the first call
            known.update(id(y) for y in step.outputs)
            if step.node is not None and step.node.inputs is not None:
                step.grad_targets = tuple(i for i, a in enumerate(arrays) if id(a) in needs_grad)
                if step.grad_targets:
                    needs_grad.update(id(y) for y in step.outputs)
        self.params = tuple(params.values())
        #: Arrays and function nodes that every replay refreshes in place (or never changes).
        self.static_ids = known | {id(s.node) for s in steps if s.node is not None}
        for index, result in enumerate(results):
            if id(result.array) not in known:
                raise _outside_functions_error(f"result {index} (shape {result.shape})")
        self.outputs = tuple(result.array for result in results)
