"""Old-style ``Function`` (forward and backward on arrays) and the backprop-mode switches."""

from __future__ import annotations

import contextlib
import sys
import weakref
from collections.abc import Iterator

from chainer import _backprop, _variable_checks
from chainer.configuration import config, using_config
from chainer.function_node import FunctionNode
from chainer.variable import Variable


def _chainerx_mode(name: str):
    """ChainerX's own mode switch of the same name, if ChainerX is in use (imported)."""
    chainerx = sys.modules.get("chainerx")
    if chainerx is None or not hasattr(chainerx, name):
        return contextlib.nullcontext()
    return getattr(chainerx, name)()


@contextlib.contextmanager
def no_backprop_mode() -> Iterator[None]:
    """Do not record graphs in this block (``enable_backprop=False``) to save memory.

    ChainerX arrays record no graph in it either (``chainerx.no_backprop_mode``).
    """
    with using_config("enable_backprop", False), _chainerx_mode("no_backprop_mode"):
        yield


@contextlib.contextmanager
def force_backprop_mode() -> Iterator[None]:
    """Record graphs in this block even inside :func:`no_backprop_mode` (ChainerX's too)."""
    with using_config("enable_backprop", True), _chainerx_mode("force_backprop_mode"):
        yield


class FunctionAdapter(FunctionNode):
    """Runs an old-style :class:`Function` as a node of the graph.

    Old-style backward works on arrays, so gradients of gradients are not available through it.
    """

    # On ChainerX arrays without a native path, backward runs on NumPy/CuPy views too (v7).
    _fallback_backward_on_host = True

    def __init__(self, function: Function) -> None:
        super().__init__()
        self._function = function

    @property
    def function(self) -> Function:
        return self._function

    @property
    def label(self) -> str:
        return self._function.label

    @property
    def _impl_name(self) -> str:
        return type(self._function).__name__

    def check_type_forward(self, in_types) -> None:
        self._function.check_type_forward(in_types)

    def forward(self, inputs: tuple) -> tuple:
        # Old-style functions see every input in backward: keep them all by default.
        self.retain_inputs(tuple(range(len(inputs))))
        outputs = self._function.forward(inputs)
        if not isinstance(outputs, tuple):
            raise TypeError(
                f"{self.label}.forward must return a tuple of arrays, got {type(outputs).__name__}"
            )
        self._output_zeros = [
            None if y is None else (y.shape, y.dtype, _array_module(y)) for y in outputs
        ]
        retained = self._function._output_indexes
        if retained is None:
            retained = tuple(range(len(outputs)))
        self.retain_outputs(retained)
        inputs_to_retain = self._function._input_indexes
        if inputs_to_retain is not None:
            self.retain_inputs(inputs_to_retain)
        return outputs

    def backward(self, target_input_indexes: tuple, grad_outputs: tuple) -> tuple:
        in_data = tuple([x.data for x in self.inputs])
        out_data = self.output_data
        grads = tuple([None if g is None else g.array for g in grad_outputs])
        # Old-style backward receives zero arrays where the gradient of a floating output is
        # unknown; non-floating outputs never have one (None).
        if any(g is None for g in grads):
            grads = tuple(
                _zeros(spec) if g is None and spec is not None and spec[1].kind == "f" else g
                for g, spec in zip(grads, self._output_zeros)
            )
        self._function._out_data = out_data
        gxs = self._function.backward(in_data, grads)
        if isinstance(gxs, list):
            gxs = tuple(gxs)
        if not isinstance(gxs, tuple):
            raise TypeError(
                f"{self.label}.backward must return a tuple (or list) of arrays, got "
                f"{type(gxs).__name__}"
            )
        if len(gxs) != len(self.inputs):
            raise ValueError(
                f"{self.label}.backward returned {len(gxs)} gradients for "
                f"{len(self.inputs)} inputs"
            )
        return tuple([self._gradient_variable(i, gxs[i]) for i in target_input_indexes])

    def _gradient_variable(self, index: int, gx) -> Variable | None:
        """Check an array from the old-style backward and wrap it; backprop refuses to
        differentiate it again (the variable requires a gradient so that it is reached)."""
        if gx is None:
            return None
        node = self.inputs[index]
        problem = None
        if not _variable_checks.is_supported_array(gx):
            problem = f"must be an array, got {type(gx).__name__}"
        elif node.dtype is not None and gx.dtype != node.dtype:
            problem = f"has dtype {gx.dtype}, but the input has dtype {node.dtype}"
        if problem is not None:
            raise TypeError(f"{self.label}.backward: the gradient of input {index} {problem}")
        g = Variable(gx)
        g._old_style_grad_generator = self.label
        if config.enable_backprop:  # double backprop: the gradient may enter a graph
            _backprop.register_old_style_grad(g.node, self.label)
        return g


def _zeros(spec: tuple):
    shape, dtype, xp = spec
    return xp.zeros(shape, dtype)


def _array_module(array):
    from chainer import backend

    return backend.get_array_module(array)


class Function:
    """Base class of old-style functions: ``forward`` and ``backward`` both on arrays.

    Prefer :class:`~chainer.FunctionNode` for new code: it supports higher-order gradients.

    Example:
        >>> class Square(chainer.Function):
        ...     def forward(self, inputs):
        ...         x, = inputs
        ...         return x * x,
        ...     def backward(self, inputs, grad_outputs):
        ...         x, = inputs
        ...         gy, = grad_outputs
        ...         return 2 * x * gy,
        >>> x = chainer.Variable(numpy.array([1., 2., 3.], numpy.float32))
        >>> y = Square()(x)
        >>> y.grad = numpy.ones(3, numpy.float32)
        >>> y.backward()
        >>> y.array, x.grad
        (array([1., 4., 9.], dtype=float32), array([2., 4., 6.], dtype=float32))
    """

    _input_indexes = None
    _output_indexes = None
    _out_data: tuple | None = None
    _node_ref = None
    _owned_node = None

    def __call__(self, *inputs):
        node = self.node
        if node.outputs is not None:
            # Called again: a fresh node for this call, with the hooks added to this function.
            used = node
            node = FunctionAdapter(self)
            if used._local_function_hooks:
                node._local_function_hooks = dict(used._local_function_hooks)
            self._node_ref = weakref.ref(node)
        # From here the graph holds the adapter strongly; the function only refers to it.
        self._owned_node = None
        ret = node.apply(inputs)
        return ret[0] if len(ret) == 1 else ret

    @property
    def node(self) -> FunctionAdapter:
        """The graph node of this function (made on first use, so hooks can be added before
        the call)."""
        node = None if self._node_ref is None else self._node_ref()
        if node is None:
            node = self._owned_node = FunctionAdapter(self)
            self._node_ref = weakref.ref(node)
        return node

    @property
    def label(self) -> str:
        return type(self).__name__

    @property
    def inputs(self):
        return self.node.inputs

    @property
    def outputs(self):
        return self.node.outputs

    @property
    def rank(self) -> int:
        return self.node.rank

    @property
    def stack(self):
        return self.node.stack

    @property
    def output_data(self):
        return self.node.output_data

    @property
    def local_function_hooks(self) -> dict:
        return self.node.local_function_hooks

    def add_hook(self, hook, name=None) -> None:
        self.node.add_hook(hook, name)

    def delete_hook(self, name) -> None:
        self.node.delete_hook(name)

    def check_type_forward(self, in_types) -> None:
        """Check input types with ``type_check.expect``; override when needed."""

    def forward(self, inputs: tuple) -> tuple:
        """Dispatch to ``forward_cpu`` or ``forward_gpu`` by the array type."""
        from chainer import backend

        if backend.get_array_module(*inputs).__name__ == "numpy":
            return self.forward_cpu(inputs)
        return self.forward_gpu(inputs)

    def forward_cpu(self, inputs: tuple) -> tuple:
        raise NotImplementedError(f"{self.label} does not implement forward_cpu")

    def forward_gpu(self, inputs: tuple) -> tuple:
        raise NotImplementedError(f"{self.label} does not implement forward_gpu")

    def backward(self, inputs: tuple, grad_outputs: tuple) -> tuple:
        """Dispatch to ``backward_cpu`` or ``backward_gpu`` by the array type."""
        from chainer import backend

        arrays = [x for x in inputs + grad_outputs if x is not None]
        if not arrays or backend.get_array_module(*arrays).__name__ == "numpy":
            return self.backward_cpu(inputs, grad_outputs)
        return self.backward_gpu(inputs, grad_outputs)

    def backward_cpu(self, inputs: tuple, grad_outputs: tuple) -> tuple:
        return (None,) * len(inputs)

    def backward_gpu(self, inputs: tuple, grad_outputs: tuple) -> tuple:
        return (None,) * len(inputs)

    def retain_inputs(self, indexes) -> None:
        """Retain only these inputs for backward (others are ``None`` there)."""
        self._input_indexes = tuple(indexes)

    def retain_outputs(self, indexes, retain_after_backward=False) -> None:
        """Retain only these outputs for backward."""
        self._output_indexes = tuple(indexes)

    def unchain(self) -> None:
        node = self.node
        if node is not None:
            node.unchain()
