"""The backward engine: order the graph by rank, then walk it once from the outputs.

``_run`` is the whole algorithm. Functions are popped from a heap keyed by rank (highest
first), so every function runs after all the functions that consume its outputs; gradients
flowing into the same variable node are summed before its creator runs.
"""

from __future__ import annotations

import heapq
import traceback
import warnings
import weakref
from typing import Any

import numpy

from chainer import _function_hooks_registry as _hooks
from chainer import _grad_ready
from chainer.configuration import config, using_config
from chainer.variable import Variable, VariableNode


def walk_creators(var: Variable):
    """Every function node reachable backward from ``var`` (each once)."""
    node = var._graph_node
    start = None if node is None else node.creator_node
    if start is None:
        return
    seen = {id(start)}
    stack = [start]
    while stack:
        func = stack.pop()
        yield func
        for x in func.inputs or ():
            creator = x.creator_node
            if creator is not None and id(creator) not in seen:
                seen.add(id(creator))
                stack.append(creator)


# The nodes of gradients that an old-style Function's backward computed while a graph was
# recorded (double backprop): backprop reaching one refuses, even after its variable died.
old_style_grad_nodes: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# Whether any node was ever registered there (reading the dictionary costs Python calls).
_any_old_style_grad = False


def register_old_style_grad(node: VariableNode, label: str) -> None:
    """Remember that ``node``'s gradient came from the old-style Function ``label``."""
    global _any_old_style_grad
    old_style_grad_nodes[node] = label
    _any_old_style_grad = True


def _refuse_old_style_grad(var: Variable) -> None:
    _refuse_old_style_label(var._old_style_grad_generator)


def _refuse_old_style_label(label: str | None) -> None:
    raise RuntimeError(
        f"cannot differentiate a gradient computed by the old-style Function "
        f"{label!r} again: its backward works on arrays (use a "
        "FunctionNode for higher-order gradients)"
    )


def _as_grad_variable(grad) -> Variable:
    """A gradient given as an array or a variable, as a variable."""
    return grad if isinstance(grad, Variable) else Variable(grad, requires_grad=False)


def _scaled(gv: Variable, loss_scale) -> Variable:
    return gv if loss_scale is None else gv * loss_scale


def _initial_grad(var: Variable, given, loss_scale, caller: str):
    """The gradient backprop starts from at ``var``: given, its ``grad``, or 1 for a scalar.

    An empty output (a ChainerMN delegate variable) starts from an empty gradient.
    """
    if given is not None:
        return _scaled(_as_grad_variable(given), loss_scale)
    gv = var._grad_var
    if gv is None:
        array = var._array
        if array is None or array.size > 1:
            shape = None if array is None else array.shape
            raise ValueError(
                f"{caller}: the output of shape {shape} has no gradient; set its .grad "
                "(only single-element and empty outputs start automatically)"
            )
        if array.ndim != 0 and array.size == 1:
            warnings.warn(
                f"{caller}: starting from 1 at an output of shape {array.shape} (one element, "
                "not a scalar) is deprecated, as in Chainer v7; squeeze it to shape () or set "
                "its .grad",
                DeprecationWarning,
                stacklevel=4,
            )
        if type(array) is numpy.ndarray and array.ndim == 0:  # a loss: ones_like, for less
            one = numpy.array(1, array.dtype)
        else:
            one = var.xp.ones_like(array)
        gv = Variable(one, requires_grad=False)
        var._grad_var = gv
    return _scaled(gv, loss_scale)


def backward_from(
    outputs, grad_outputs, retain_grad, enable_double_backprop, loss_scale, caller
) -> None:
    """Backprop from ``outputs`` and accumulate into the ``grad`` of every leaf reached."""
    if outputs and outputs[0]._chainerx_graph_array() is not None:
        from chainer import _chainerx_graph

        _chainerx_graph.backward_many(
            outputs, grad_outputs, retain_grad, enable_double_backprop, loss_scale, caller
        )
        return
    roots = []
    for i, y in enumerate(outputs):
        given = None if grad_outputs is None else grad_outputs[i]
        if y._old_style_grad_generator is not None:
            _refuse_old_style_grad(y)
        if y._graph_node is None or y._graph_node.creator_node is None:
            continue  # a leaf: nothing to propagate
        roots.append((y.node, _initial_grad(y, given, loss_scale, caller)))
    if not roots:
        return
    with using_config("enable_backprop", enable_double_backprop):
        _run(roots, retain_grad, loss_scale, None)
    if not retain_grad:
        # The output gradients were consumed (v6+): only retain_grad keeps them.
        for node, _ in roots:
            var = node._variable()
            if var is not None:
                var._grad_var = None


def backward(outputs, grad_outputs=None, **kwargs) -> None:
    """Backprop from several outputs at once (``chainer.backward``).

    Args:
        outputs: A sequence of output variables.
        grad_outputs: Their initial gradients (arrays, variables or ``None`` for an output's
            own ``grad``), a tuple or list.
        enable_double_backprop: Record the backward computation (keyword only).
        loss_scale: Scale of the initial gradients (keyword only).

    As in v7, an output with no gradient at all (not even a single-element one) is skipped
    with a ``RuntimeWarning``, and an output given twice is used once (with a warning).
    """
    enable_double_backprop = kwargs.pop("enable_double_backprop", False)
    loss_scale = kwargs.pop("loss_scale", None)
    if kwargs:
        raise TypeError(f"backward() got unexpected keyword arguments: {sorted(kwargs)}")
    if not isinstance(outputs, (tuple, list)):
        raise TypeError(f"outputs must be a tuple or list of Variables, got {type(outputs)}")
    for y in outputs:
        if not isinstance(y, Variable):
            raise TypeError(f"each output must be a Variable, got {type(y).__name__}")
    if grad_outputs is not None:
        if not isinstance(grad_outputs, (tuple, list)):
            raise TypeError(
                "grad_outputs must be a tuple or list of gradients, got "
                f"{type(grad_outputs).__name__}"
            )
        if len(grad_outputs) != len(outputs):
            raise ValueError(
                f"grad_outputs has {len(grad_outputs)} entries but there are {len(outputs)} "
                "outputs"
            )
    pairs = []
    seen = set()
    for i, y in enumerate(outputs):
        if id(y) in seen:
            warnings.warn(
                f"chainer.backward: output {i} is given more than once; it is used once",
                RuntimeWarning,
                stacklevel=2,
            )
            continue
        seen.add(id(y))
        gy = None if grad_outputs is None else grad_outputs[i]
        if gy is None and y._grad_var is None:
            warnings.warn(
                f"chainer.backward: output {i} has no gradient (neither in grad_outputs nor "
                "in its grad); it is skipped",
                RuntimeWarning,
                stacklevel=2,
            )
            continue
        pairs.append((y, gy))
    backward_from(
        [y for y, _ in pairs],
        [gy for _, gy in pairs],
        False,
        enable_double_backprop,
        loss_scale,
        "chainer.backward",
    )


def grad(
    outputs,
    inputs,
    grad_outputs,
    grad_inputs,
    set_grad,
    retain_grad,
    enable_double_backprop,
    loss_scale,
) -> list:
    """See :func:`chainer.grad`."""
    for name, seq in (("outputs", outputs), ("inputs", inputs)):
        if not isinstance(seq, (tuple, list)):
            raise TypeError(f"{name} must be a tuple or a list, not {type(seq).__name__}")
        for v in seq:
            if not isinstance(v, Variable):
                raise TypeError(f"{name} must contain only Variables, got {type(v).__name__}")
            if v._old_style_grad_generator is not None and name == "outputs":
                _refuse_old_style_grad(v)
    for name, seq, ref in (
        ("grad_outputs", grad_outputs, outputs),
        ("grad_inputs", grad_inputs, inputs),
    ):
        if seq is not None and not isinstance(seq, (tuple, list)):
            raise TypeError(f"{name} must be a tuple or a list, not {type(seq).__name__}")
        if seq is not None and len(seq) != len(ref):
            raise ValueError(f"{name} must have {len(ref)} entries, got {len(seq)}")

    if outputs and outputs[0]._chainerx_graph_array() is not None:
        from chainer import _chainerx_graph

        return _chainerx_graph.grad(
            outputs, inputs, grad_outputs, grad_inputs, set_grad, enable_double_backprop,
            loss_scale,
        )  # fmt: skip
    targets: dict[VariableNode, Any] = {}
    for x in inputs:
        targets.setdefault(x.node, None)
    roots = []
    if grad_inputs is not None:
        # An initial gradient of an input flows on through the graph like an output's (v7):
        # it reaches the inputs that input depends on.
        for x, gx in zip(inputs, grad_inputs):
            if gx is None:
                continue
            gx = _as_grad_variable(gx)
            if x.node.creator_node is not None:
                roots.append((x.node, gx))
            else:
                targets[x.node] = _add(targets[x.node], gx)
    for i, y in enumerate(outputs):
        given = None if grad_outputs is None else grad_outputs[i]
        g = _initial_grad_for_grad(y, given, loss_scale)
        if y.node.creator_node is not None:
            roots.append((y.node, g))  # reaches targets[y.node] when its creator runs
        elif y.node in targets:
            targets[y.node] = _add(targets[y.node], g)
    with using_config("enable_backprop", enable_double_backprop):
        if roots:
            _run(roots, retain_grad, loss_scale, targets)
    results = [targets[x.node] for x in inputs]
    if set_grad:
        for x, gx in zip(inputs, results):
            x._grad_var = gx
    return results


def _initial_grad_for_grad(y: Variable, given, loss_scale):
    """For ``chainer.grad``: the given gradient, or ones (``y.grad`` is not consulted)."""
    if given is None:
        return _scaled(Variable(y.xp.ones_like(y._array), requires_grad=False), loss_scale)
    return _scaled(_as_grad_variable(given), loss_scale)


def _add(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return a + b


def _run(roots, retain_grad: bool, loss_scale, targets) -> None:
    """Walk the graph from ``roots`` ((node, grad) pairs) down to the leaves.

    Gradients flowing into one node are collected in a list and summed once, by a single
    n-ary add, when the node is reached (for leaves: at the end). With ``targets``
    (``chainer.grad``), gradients reaching those nodes are summed into it and leaves' ``grad``
    are left alone; otherwise leaves accumulate into their ``grad``.
    """
    # VariableNode -> its gradient variable, or a list of them once a second one arrives
    grads: dict = {}
    leaf_grads: dict = {}
    heap: list = []
    seen: set = set()
    heappush = heapq.heappush
    heappop = heapq.heappop
    debug = config.debug
    # Functions' _backward_fast may replace backward where nothing would be recorded.
    fast = not debug and not config.enable_backprop
    hook_state = _hooks.state

    for node, g in roots:
        _collect(grads, node, g)
        func = node.creator_node
        if func not in seen:
            seen.add(func)
            heappush(heap, (-func.rank, len(seen), func))

    keep_outputs = retain_grad or targets is not None
    tracker = _grad_ready.LeafTracker(roots) if targets is None and _grad_ready.active() else None
    # A function found while the heap is empty waits here instead (in a straight chain, every
    # one does); it joins the heap, with its place in the order, if others are found too.
    upcoming = None
    upcoming_order = 0
    while True:
        if upcoming is not None:
            func = upcoming
            upcoming = None
        elif heap:
            func = heappop(heap)[2]
        else:
            break
        outputs = func.outputs
        if len(outputs) == 1:  # the common case, without the generic loop
            gy = grads.pop(outputs[0](), None)
            if gy is None:
                continue  # no gradient reached this function
            out_grads = (_sum(gy) if type(gy) is list else gy,)
        else:
            out_grads = tuple([_sum(grads.pop(ref(), None)) for ref in outputs])
            if out_grads.count(None) == len(out_grads):  # tuple of None/Variable: no ==
                continue
        if keep_outputs:
            _keep_output_grads(func, out_grads, retain_grad, targets)
        in_nodes = func.inputs
        n_inputs = len(in_nodes)
        if n_inputs == 1:
            target_indexes: tuple[int, ...] = (0,) if in_nodes[0]._requires_grad else ()
        elif n_inputs == 2:  # binary operators: no generic loop either
            if in_nodes[0]._requires_grad:
                target_indexes = (0, 1) if in_nodes[1]._requires_grad else (0,)
            else:
                target_indexes = (1,) if in_nodes[1]._requires_grad else ()
        else:
            target_indexes = tuple([i for i, x in enumerate(in_nodes) if x._requires_grad])
        if not target_indexes:
            continue
        if func._overrides_backward_accumulate:
            gxs = _call_backward_accumulate(
                func, target_indexes, out_grads, grads, leaf_grads, debug
            )
        else:
            fast_gxs = None
            if (
                fast
                and func._backward_fast is not None
                and not (hook_state.hooks or func._local_function_hooks)
            ):
                fast_gxs = func._backward_fast(target_indexes, out_grads)
            if fast_gxs is None:
                gxs = _call_backward(func, target_indexes, out_grads, debug)
            else:
                gxs = fast_gxs

        for i, gx in zip(target_indexes, gxs):
            if gx is None:
                continue
            x = in_nodes[i]
            creator = x.creator_node
            if creator is not None:
                gs = grads.get(x)
                if gs is None:
                    grads[x] = gx
                elif type(gs) is list:
                    gs.append(gx)
                else:
                    grads[x] = [gs, gx]
                if creator not in seen:
                    seen.add(creator)
                    if heap or upcoming is not None:
                        heappush(heap, (-creator.rank, len(seen), creator))
                    else:
                        upcoming = creator
                        upcoming_order = len(seen)
            elif targets is None or x in targets:
                gs = leaf_grads.get(x)
                if gs is None:
                    leaf_grads[x] = [gx]
                else:
                    gs.append(gx)
        del gxs, out_grads
        if upcoming is not None and heap:
            heappush(heap, (-upcoming.rank, upcoming_order, upcoming))
            upcoming = None
        if tracker is not None:
            tracker.function_done(
                func, leaf_grads, lambda x, gs: _accumulate_into_leaf(x, _sum(gs), loss_scale)
            )

    for x, gs in leaf_grads.items():
        if targets is None:
            _accumulate_into_leaf(x, _sum(gs), loss_scale)
        else:
            targets[x] = _add(targets[x], _sum(gs))
    if tracker is not None:
        tracker.finish(leaf_grads)


def _collect(table: dict, node, g) -> None:
    gs = table.get(node)
    if gs is None:
        table[node] = [g]
    else:
        gs.append(g)


def _sum(gs):
    """Sum a list of gradient variables with one n-ary add (``None`` for none; a single
    variable, not in a list, is returned as it is)."""
    if gs is None or type(gs) is not list:
        return gs
    if len(gs) == 1:
        return gs[0]
    from chainer._ops.basic_math import add

    return add(*gs)


def _keep_output_grads(func, out_grads: tuple, retain_grad: bool, targets) -> None:
    """Record the final gradients of ``func``'s outputs (retain_grad / chainer.grad)."""
    for ref, gy in zip(func.outputs, out_grads):
        y = ref()
        if y is None or gy is None:
            continue
        if targets is not None and y in targets:
            targets[y] = _add(targets[y], gy)
        if retain_grad:
            var = y._variable()
            if var is not None:
                var._grad_var = gy


def _call_backward_accumulate(
    func, target_indexes, out_grads, grads, leaf_grads, debug: bool
) -> tuple:
    """Hand the gradients gathered so far for the targets to ``func.backward_accumulate``.

    Its results replace those gradients (they include them).
    """
    in_nodes = func.inputs
    gathered = []
    for i in target_indexes:
        x = in_nodes[i]
        table = grads if x.creator_node is not None else leaf_grads
        gathered.append(_sum(table.pop(x, None)))
    return _call_backward(func, target_indexes, out_grads, debug, tuple(gathered))


def _call_backward(
    func, target_indexes: tuple, out_grads: tuple, debug: bool, grad_inputs=None
) -> tuple:
    """Run ``func.backward`` (with hooks) and check what it returned."""
    hooks = _hooks.active_hooks(func) if (_hooks.state.hooks or func._local_function_hooks) else ()
    if hooks:
        in_data = tuple([x.data for x in func.inputs])
        out_arrays = tuple([None if g is None else g._array for g in out_grads])
        for hook in hooks:
            hook.backward_preprocess(func, in_data, out_arrays)
    try:
        if grad_inputs is None:
            gxs = func.backward(target_indexes, out_grads)
        else:
            gxs = func.backward_accumulate(target_indexes, out_grads, grad_inputs)
    except Exception as e:
        if debug and func.stack and e.args and isinstance(e.args[0], str):
            e.args = (e.args[0] + _stack_text(func),) + e.args[1:]
        raise
    in_nodes = func.inputs
    if type(gxs) is not tuple or len(gxs) != len(target_indexes):
        gxs = func._normalize_grads(target_indexes, gxs)
    for i, gx in zip(target_indexes, gxs):
        if gx is None:
            continue
        if not isinstance(gx, Variable):
            raise _GradientTypeError(
                f"type of gradients returned from backward is incorrect: {func.label}.backward "
                f"must return Variables (or None), got {type(gx).__name__}; wrap arrays with "
                "chainer.Variable"
            )
        node = in_nodes[i]
        if gx._array.shape != node.shape and node.shape is not None:
            raise ValueError(
                f"shape of gradients returned from backward is incorrect: {func.label}.backward "
                f"returned a gradient of shape {gx._array.shape} for input {i} of shape "
                f"{node.shape}" + _stack_text(func)
            )
        if debug and node.dtype is not None and gx._array.dtype != node.dtype:
            raise ValueError(
                f"dtype of gradients returned from backward is incorrect: {func.label}.backward "
                f"returned a gradient of dtype {gx._array.dtype} for input {i} of dtype "
                f"{node.dtype}"
            )
    for hook in hooks:
        hook.backward_postprocess(func, in_data, out_arrays)
    if debug:
        _hooks.check_nan_in_backward(func, gxs, tuple([x.data for x in func.inputs]))
    return gxs


def _stack_text(func) -> str:
    """Where ``func`` was applied (recorded in debug mode), for error messages."""
    if not func.stack:
        return ""
    return "\nStacktrace of the function is below:\n" + "".join(traceback.format_list(func.stack))


class _GradientTypeError(TypeError, ValueError):
    """backward returned something other than a Variable (v7 code catches ValueError)."""


def _accumulate_into_leaf(node, gx, loss_scale) -> None:
    if _any_old_style_grad and node in old_style_grad_nodes:
        _refuse_old_style_label(old_style_grad_nodes[node])
    var = node.get_variable_or_none()
    if var is None:
        return
    old = var._grad_var
    var._grad_var = gx if old is None else old + gx
    if loss_scale is not None:
        var._loss_scale = loss_scale
