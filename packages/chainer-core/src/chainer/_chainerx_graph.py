"""Chainer on ChainerX: the graph of a Variable over a ChainerX array lives in ChainerX.

A :class:`~chainer.Variable` that requires a gradient holds its ChainerX array connected to
ChainerX's graph (a leaf that requires grad, or the output of a recorded routine).
:meth:`FunctionNode.apply` on ChainerX arrays calls ``forward_chainerx``, whose routines
ChainerX records itself; Chainer records nothing. A function without a native path
(``forward_chainerx`` returns ``chainer.Fallback``) runs its NumPy/CuPy ``forward`` on views of
the same memory, and :func:`chainerx._core._function_node_forward` adds a node to ChainerX's
graph whose backward calls the function's Python ``backward``. Gradients live in the arrays
(``chainerx.ndarray.grad``); ``Variable.backward`` and ``chainer.grad`` are ChainerX's.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any, cast

from chainer import _variable_checks as _checks
from chainer.configuration import config, using_config
from chainer.variable import Variable, VariableNode, _new_variable, _object_new

if TYPE_CHECKING:
    from chainer.backends._chainerx import ChainerxDevice


def attach(array, requires_grad: bool):
    """The array a variable holds: ``array`` if it is in a graph, else a view that starts one.

    Raises:
        ValueError: ``array`` is in a graph but the variable must not require a gradient.
    """
    if array.is_grad_required():
        if not requires_grad:
            raise ValueError(
                "a Variable with requires_grad=False cannot hold a ChainerX array that is "
                "connected to a graph (use array.as_grad_stopped())"
            )
        return array
    view = array.view()
    if requires_grad and view.dtype.kind == "f":
        view.require_grad()
    return view


def wrap(array) -> Variable:
    """A variable over an array a routine returned (in the graph or not)."""
    return _new_variable(array, array.is_grad_required())


def check_inputs(node, in_data: tuple, first) -> None:
    """Every input is a ChainerX array (or None); ChainerX's routines check their devices."""
    array_type = type(first)
    for i, x in enumerate(in_data):
        if type(x) is not array_type and x is not None:
            raise TypeError(
                f"{node.label}: incompatible array types are mixed in the forward input: input "
                f"{i} is a {type(x).__module__}.{type(x).__name__}, the others are "
                "chainerx.ndarray (convert it with chainer.backend.to_chx or device.send)"
            )


def _check_devices(node, in_data: tuple, first) -> None:
    """Every input is on the device of ``first`` (before a fallback mixes them in NumPy)."""
    device = first.device
    for i, x in enumerate(in_data):
        if x is not None and x.device is not device and x.device != device:
            raise ValueError(
                f"{node.label}: the inputs are on different ChainerX devices: "
                f"{device.name} and {x.device.name} (input {i})"
            )


def forward_without_backprop(node, in_data: tuple):
    """``node.forward_chainerx`` with ChainerX recording no graph (``enable_backprop=False``)."""
    import chainerx

    with chainerx.no_backprop_mode():
        return node.forward_chainerx(in_data)


def fallback(node, in_data: tuple, first):
    """Run ``node.forward`` on NumPy/CuPy views; record it with its Python backward."""
    from chainer import backend

    _check_devices(node, in_data, first)
    device = cast("ChainerxDevice", backend.get_device_from_array(first))
    node.chainerx_device = device  # v7: set on the functions that fell back
    host = device.fallback_device
    for owner in _attribute_owners(node):
        _convert_attributes(
            owner, _checks.is_chainerx_array, lambda a: host.send(a.as_grad_stopped())
        )
    with backend.using_device(host):
        outputs = node.forward(
            tuple([None if x is None else host.send(x.as_grad_stopped()) for x in in_data])
        )
    if type(outputs) is not tuple:
        return outputs  # apply() reports it
    outputs = tuple([device.send(y) for y in outputs])
    if not config.enable_backprop or not any(
        x is not None and x.is_backprop_required() for x in in_data
    ):
        return outputs
    from chainerx import _core

    retain_in = node._input_indexes_to_retain or ()
    retain_out = node._output_indexes_to_retain or ()
    metas = tuple([None if x is None else (x.shape, x.dtype) for x in in_data])
    present = tuple([i for i, y in enumerate(outputs) if y is not None])  # v7 allows None
    # Outputs that cannot have a gradient (integers) get None in backward, as in v7.
    differentiable = frozenset([i for i in present if outputs[i].dtype.kind == "f"])
    position = {i: k for k, i in enumerate(present)}
    kept_out = [position[i] for i in retain_out if i in position]
    layout = (metas, retain_in, retain_out, present, differentiable, len(outputs))

    # The callback keeps the node, never the outputs (their graph nodes own the callback).
    def backward(target_indexes, grad_outputs, retained_inputs, retained_outputs):
        return _fallback_backward(
            node, layout, target_indexes, grad_outputs, retained_inputs, retained_outputs
        )

    connected = _core._function_node_forward(
        in_data, [outputs[i] for i in present], retain_in, kept_out, backward, node.label
    )
    result = [None] * len(outputs)
    for i, y in zip(present, connected, strict=True):
        result[i] = y
    return tuple(result)


def _meta_node(meta) -> VariableNode:
    """A graph-less node standing for an input in a fallback's backward (shape and dtype)."""
    node = _object_new(VariableNode)
    node._variable = cast(Any, lambda: None)  # a dead reference: no variable behind it
    node.creator_node = None
    node.rank = 0
    node.data = None
    node.name = None
    node._requires_grad = meta is not None
    node.shape, node.dtype = (None, None) if meta is None else meta
    return node


def _attribute_owners(node) -> tuple:
    """The objects whose array attributes a fallback converts: the node (and the old-style
    Function an adapter runs)."""
    function = getattr(node, "_function", None)
    return (node,) if function is None else (node, function)


def _convert_attributes(owner, select, convert) -> None:
    """Replace the array attributes of ``owner`` that ``select`` picks by ``convert(array)``
    (v7: a fallback's forward sees NumPy/CuPy arrays, its backward ChainerX ones)."""
    for name, value in list(vars(owner).items()):
        if select(value):
            setattr(owner, name, convert(value))


def _fallback_backward(node, layout, target_indexes, grad_outputs, rin, rout) -> list:
    """Run ``node.backward`` on the gradients of its outputs (ChainerX arrays).

    As in v7 a FunctionNode's backward runs on ChainerX arrays (its array attributes are
    converted back too), so the gradients it computes with Chainer functions are in ChainerX's
    graph (double backprop); an old-style Function's runs on NumPy/CuPy views.
    """
    metas, retain_in, retain_out, present, differentiable, n_outputs = layout
    device = node.chainerx_device
    if not node._fallback_backward_on_host:
        as_variable = wrap
        for owner in _attribute_owners(node):
            _convert_attributes(owner, _is_host_array, device.send)
    else:
        host = device.fallback_device

        def as_variable(array):
            return _new_variable(host.send(array.as_grad_stopped()), False)

    gys: list[Variable | None] = [None] * n_outputs
    for i, gy in zip(present, grad_outputs, strict=True):
        if i in differentiable and gy is not None:
            gys[i] = as_variable(gy)
    kept = iter(rout)
    retained_outputs = [next(kept) if i in present else None for i in retain_out]
    node.inputs = tuple([_meta_node(meta) for meta in metas])
    node._input_indexes_to_retain = retain_in
    node._output_indexes_to_retain = retain_out
    node._chainerx_retained = (
        tuple([None if x is None else as_variable(x) for x in rin]),
        tuple([None if y is None else as_variable(y) for y in retained_outputs]),
    )
    for index, x in zip(retain_in, node._chainerx_retained[0], strict=True):
        if x is not None:
            node.inputs[index].data = x._array  # as on a recorded node (read by old-style ones)
    node.outputs = (None,) * n_outputs  # for output_data (the arrays retained)
    node._retained_output_data = tuple(
        [None if v is None else v._array for v in node._chainerx_retained[1]]
    )
    try:
        gxs = node._backward_target(tuple(target_indexes), tuple(gys))
    finally:
        node._chainerx_retained = node._retained_output_data = None
        node.inputs = node.outputs = None
    return [
        None if gx is None else device.send(gx._array if isinstance(gx, Variable) else gx)
        for gx in gxs
    ]


def _is_host_array(value) -> bool:
    return _checks.is_supported_array(value) and not _checks.is_chainerx_array(value)


# -- gradients of a variable -----------------------------------------------------------------


def _set_initial_grad(array, given, caller: str, retain_grad: bool) -> None:
    """Set the gradient backward starts from at ``array``: given, its own, or ones."""
    g = array.grad if given is None else _initial_of(array, given)
    if g is None:
        if array.size != 1:
            raise ValueError(
                f"{caller}: the output of shape {array.shape} has no gradient; set its .grad "
                "(only single-element outputs start automatically)"
            )
        if array.ndim != 0:
            warnings.warn(
                f"{caller}: starting from 1 at an output of shape {array.shape} (one element, "
                "not a scalar) is deprecated, as in Chainer v7; squeeze it to shape () or set "
                "its .grad",
                DeprecationWarning,
                stacklevel=5,
            )
        if not retain_grad:
            return  # ChainerX starts an output without a gradient from ones
        import chainerx

        g = chainerx.ones_like(array.as_grad_stopped())
    array.set_grad(g)


def backward(var: Variable, retain_grad: bool, enable_double_backprop: bool, loss_scale) -> None:
    """``Variable.backward`` on a ChainerX array: ChainerX's backward into the leaves' grads."""
    backward_many(
        [var], None, retain_grad, enable_double_backprop, loss_scale, "Variable.backward"
    )


def backward_many(
    outputs, grad_outputs, retain_grad: bool, enable_double_backprop: bool, loss_scale, caller
) -> None:
    """Backprop from several ChainerX outputs at once, into the ``grad`` of the leaves.

    ``loss_scale`` is accepted and the gradients come out unscaled, as v7's ChainerX backward
    gives them (optimizers then do not divide them); intermediate gradients are not scaled.
    """
    arrays = []
    for i, y in enumerate(outputs):
        array = y._array
        if not _checks.is_chainerx_array(array):
            raise TypeError(
                f"{caller}: output {i} holds a {type(array).__module__}.{type(array).__name__}; "
                "outputs backpropagated together must all be ChainerX arrays"
            )
        if array.is_grad_required():
            given = None if grad_outputs is None else grad_outputs[i]
            _set_initial_grad(array, given, caller, retain_grad)
            arrays.append(array)
    if not arrays:
        return
    import chainerx

    if enable_double_backprop:  # v7: the gradient differentiates to the given output grads
        for array in arrays:
            g = array.grad
            if g is not None and not g.is_grad_required():
                g.require_grad()
    with using_config("enable_backprop", enable_double_backprop):
        chainerx.backward(
            arrays, enable_double_backprop=enable_double_backprop, retain_grad=retain_grad
        )
    if not retain_grad:
        for array in arrays:
            if array._has_creator():  # a leaf keeps its gradient
                array.cleargrad()


def grad(
    outputs, inputs, grad_outputs, grad_inputs, set_grad, enable_double_backprop, loss_scale
) -> list:
    """``chainer.grad`` on ChainerX arrays: ChainerX's grad, as Variables.

    ``loss_scale`` is accepted and the gradients come out unscaled, as in v7.
    """
    import chainerx

    ys = [y._array for y in outputs]
    xs = [x._array for x in inputs]
    seeds = []
    for i, y in enumerate(ys):
        given = None if grad_outputs is None else grad_outputs[i]
        g = chainerx.ones_like(y.as_grad_stopped()) if given is None else _initial_of(y, given)
        seeds.append(g)  # loss_scale: unscaled results, as v7's ChainerX grad
    for i, x in enumerate(xs):
        if not x.is_grad_required():
            raise ValueError(
                f"chainer.grad: input {i} is not in a ChainerX graph (a Variable with "
                "requires_grad=False or an integer array)"
            )
    # An output out of the graph (an empty or constant gradient of a first backward, say)
    # contributes nothing, as on NumPy.
    connected = [(y, g) for y, g in zip(ys, seeds, strict=True) if y.is_grad_required()]
    gxs: list = [None] * len(xs)
    if connected:
        with using_config("enable_backprop", enable_double_backprop):
            gxs = chainerx.grad(
                [y for y, _ in connected],
                xs,
                enable_double_backprop=enable_double_backprop,
                grad_outputs=[g for _, g in connected],
            )
    results = []
    for i, gx in enumerate(gxs):
        extra = None if grad_inputs is None else grad_inputs[i]
        if extra is not None:
            extra = _as_array(extra)
            gx = extra if gx is None else gx + extra
        results.append(None if gx is None else wrap(gx))
    if set_grad:
        for x, gx in zip(inputs, results, strict=True):
            x.grad_var = gx
    return results


def _initial_of(output, given):
    """A given initial gradient in the output's dtype (NumPy's backprop accepts others too)."""
    g = _as_array(given)
    return g.astype(output.dtype) if g.dtype != output.dtype else g


def _as_array(value):
    return value._array if isinstance(value, Variable) else value


def grad_var(var: Variable, array) -> Variable | None:
    """``var.grad_var`` for ``array`` in a graph: the cached variable while it holds the
    gradient ChainerX has (the same memory), else a new one."""
    g = array.grad
    if g is None:
        var._grad_var = None
        return None
    gv = var._grad_var
    if gv is not None and gv._array.data_ptr == g.data_ptr and gv._array.shape == g.shape:
        return gv
    gv = var._grad_var = wrap(g)
    return gv


def add_grad(array, g) -> None:
    """Accumulate ``g`` into the gradient of ``array``."""
    old = array.grad
    array.set_grad(g.copy() if old is None else old + g)
