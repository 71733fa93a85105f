"""Make a Python function appear as one function node, so that it exports as one ONNX node."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import chainer


def _flatten(value: Any, leaves: list, is_leaf: Callable[[Any], bool]) -> Any:
    """Replace each leaf of nested lists/tuples/dicts by its index in ``leaves``; keep shape."""
    if is_leaf(value):
        leaves.append(value)
        return _Leaf(len(leaves) - 1)
    if isinstance(value, (list, tuple)):
        return type(value)(_flatten(v, leaves, is_leaf) for v in value)
    if isinstance(value, dict):
        return {k: _flatten(v, leaves, is_leaf) for k, v in value.items()}
    return value


def _unflatten(template: Any, leaves: Sequence[Any]) -> Any:
    if isinstance(template, _Leaf):
        return leaves[template.index]
    if isinstance(template, (list, tuple)):
        return type(template)(_unflatten(v, leaves) for v in template)
    if isinstance(template, dict):
        return {k: _unflatten(v, leaves) for k, v in template.items()}
    return template


class _Leaf:
    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index


def _is_variable(value: Any) -> bool:
    return isinstance(value, chainer.Variable)


def _is_output(value: Any) -> bool:
    return isinstance(value, chainer.Variable) or isinstance(value, chainer.get_array_types())


class WrappedFunctionNode(chainer.FunctionNode):
    """Function node running a Python function; its name is what the converters see.

    The non-Variable arguments of the call become attributes of the node (by parameter name,
    renamed by ``rename_attributes``), so a converter reads them as ``params.func.<name>``.
    """

    def __init__(self, name: str, func: Callable, template: tuple, attributes: dict) -> None:
        self.custom_function_node_name = name
        self.func = func
        self._template = template
        self._output_template = None
        for key, value in attributes.items():
            setattr(self, key, value)

    def _call(self, variables: Sequence[Any]) -> tuple[Any, list]:
        args, kwargs = _unflatten(self._template, variables)
        result = self.func(*args, **kwargs)
        leaves: list = []
        template = _flatten(result, leaves, _is_output)
        return template, leaves

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        variables = [chainer.Variable(x, requires_grad=False) for x in inputs]
        with chainer.no_backprop_mode():
            self._output_template, leaves = self._call(variables)
        xp = chainer.backend.get_array_module(*inputs) if inputs else np
        return tuple(
            xp.asarray(leaf.array if isinstance(leaf, chainer.Variable) else leaf)
            for leaf in leaves
        )

    def backward(self, indexes, grad_outputs):
        inputs = [chainer.Variable(x.array) for x in self.get_retained_inputs()]
        with chainer.using_config("enable_backprop", True):
            _, leaves = self._call(inputs)
        if not all(isinstance(leaf, chainer.Variable) for leaf in leaves):
            raise ValueError(
                f"{self.custom_function_node_name}: the replaced function returned arrays, not "
                "chainer.Variable; gradients cannot flow through it"
            )
        grads = [
            g if g is not None else chainer.Variable(leaf.xp.zeros_like(leaf.array))
            for g, leaf in zip(grad_outputs, leaves)
        ]
        targets = [inputs[i] for i in indexes]
        return tuple(chainer.grad(leaves, targets, grads))


def fake_as_funcnode(
    alt_func: Callable,
    name: str,
    rename_attributes: Sequence[tuple[Any, str]] | None = None,
    experimental_warning: bool = True,
) -> Callable:
    """Wrap ``alt_func`` so that a call runs as one function node named ``name``.

    Use it for code Chainer cannot trace (NumPy on ``.array``) or to export a block as one custom
    ONNX operator (with a converter in ``export(external_converters=...)``). Variables anywhere in
    the arguments (nested in lists, tuples, dicts) become the node's inputs; every other argument
    becomes an attribute named after the parameter. ``rename_attributes`` is a list of
    ``(parameter name or position, attribute name)``.

    Returns:
        A function with ``alt_func``'s signature returning Variables in ``alt_func``'s structure.
    """
    if experimental_warning:
        chainer.utils.experimental("onnx_chainer.replace_func.fake_as_funcnode")
    renames = dict(rename_attributes or ())
    try:
        signature = inspect.signature(alt_func)
    except (TypeError, ValueError):
        signature = None

    @functools.wraps(alt_func)
    def wrapped(*args, **kwargs):
        attributes: dict[str, Any] = {}
        if signature is not None:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            positions = list(signature.parameters)
            for key, value in bound.arguments.items():
                leaves: list = []
                _flatten(value, leaves, _is_variable)
                if leaves:
                    continue
                new_name = renames.get(key, renames.get(positions.index(key), key))
                attributes[new_name] = value
        variables: list = []
        template = _flatten((tuple(args), dict(kwargs)), variables, _is_variable)
        node = WrappedFunctionNode(name, alt_func, template, attributes)
        outputs = node.apply(tuple(variables))
        structure = node._output_template
        if isinstance(structure, _Leaf):
            return outputs[0]
        return _unflatten(structure, outputs)

    return wrapped


def as_funcnode(name: str, rename_attributes: Sequence[tuple[Any, str]] | None = None):
    """Decorator form of :func:`fake_as_funcnode`.

    Example:
        >>> chainer.disable_experimental_feature_warning = True  # or it warns: experimental
        >>> @as_funcnode('NumpyFull')
        ... def full(xs, value=0):
        ...     return np.full(xs.array.shape, value, dtype=np.float32)
        >>> y = full(chainer.Variable(np.zeros((2, 3), np.float32)), value=1)
        >>> y.creator.custom_function_node_name, y.array  # the name the ONNX node gets
        ('NumpyFull', array([[1., 1., 1.],
               [1., 1., 1.]], dtype=float32))
        >>> chainer.disable_experimental_feature_warning = False
    """

    def decorator(func: Callable) -> Callable:
        return fake_as_funcnode(func, name, rename_attributes=rename_attributes)

    return decorator
