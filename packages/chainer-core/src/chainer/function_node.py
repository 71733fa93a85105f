"""``FunctionNode``: a differentiable operation and its node in the computational graph.

Subclass it, write ``forward`` (arrays in, a tuple of arrays out) and ``backward`` (gradient
variables in, gradient variables out, written with differentiable functions so that higher-order
derivatives come for free), then call :meth:`FunctionNode.apply`.
"""

from __future__ import annotations

import traceback
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy

from chainer import _chainerx_graph, _variable_checks
from chainer import _function_hooks_registry as _hooks
from chainer._function_hooks_registry import state as _hook_state
from chainer._variable_checks import is_chainerx_array
from chainer.configuration import config
from chainer.utils import type_check
from chainer.variable import (
    Variable,
    VariableNode,
    _new_constant_node,
    _new_output,
    _new_variable,
)

_ndarray = numpy.ndarray
_weakref = weakref.ref


class _FallbackType:
    """Type of :data:`Fallback`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "Fallback"


#: Returned by ``forward_chainerx`` to ask for the NumPy/CuPy implementation instead.
Fallback = _FallbackType()


class FunctionNode:
    """Base class of differentiable functions (new style).

    A function node is used once: :meth:`apply` runs the forward computation and, when any input
    requires a gradient and backprop is enabled, records the node in the graph.

    Example:
        >>> class MulAdd(chainer.FunctionNode):
        ...     def forward(self, inputs):
        ...         x, y, z = inputs
        ...         self.retain_inputs((0, 1))
        ...         return x * y + z,
        ...
        ...     def backward(self, target_input_indexes, grad_outputs):
        ...         x, y = self.get_retained_inputs()
        ...         gw, = grad_outputs
        ...         return y * gw, x * gw, gw
        >>> x, y, z = (chainer.Variable(numpy.array([v], numpy.float32)) for v in (2, 3, 4))
        >>> w, = MulAdd().apply((x, y, z))
        >>> w.grad = numpy.ones_like(w.array)  # the gradient backward starts from
        >>> w.backward()
        >>> w.array, x.grad, y.grad, z.grad  # doctest: +NORMALIZE_WHITESPACE
        (array([10.], dtype=float32), array([3.], dtype=float32),
         array([2.], dtype=float32), array([1.], dtype=float32))
    """

    # The input nodes and weak references to the output nodes: None until apply() records
    # the node (and inputs again after unchain()); backward runs only on recorded nodes.
    inputs: tuple[VariableNode, ...] = None  # type: ignore[assignment]
    outputs: tuple[Callable[[], Any], ...] = None  # type: ignore[assignment]
    rank = 0
    stack: traceback.StackSummary | None = None
    lazy_grad_sum = False
    is_elementwise = False
    chainerx_device: Any = None
    # (retained inputs, retained outputs) as variables while a ChainerX fallback's backward runs.
    _chainerx_retained: tuple[tuple, tuple] | None = None
    # A ChainerX fallback's backward runs on ChainerX arrays (False) or NumPy/CuPy views (True).
    _fallback_backward_on_host = False
    _input_indexes_to_retain: tuple[int, ...] | None = None
    _output_indexes_to_retain: tuple[int, ...] | None = None
    _retained_output_data: tuple | None = None
    _local_function_hooks: dict[str, Any] | None = None
    # Protected hook for Chainer's own hot functions (core ops, chainer.functions): a method
    # ``_check_arrays(in_data)`` that checks the input arrays directly and raises
    # ``type_check.InvalidType(expect, actual)``; apply() adds the function name and inputs.
    # When set, it replaces check_type_forward (which then only documents the rules).
    _check_arrays: Callable[[tuple], None] | None = None
    # Backprop calls backward_accumulate only for classes that override it.
    _overrides_backward_accumulate = False
    # Protected hook for Chainer's own hot functions: a method
    # ``_backward_fast(target_input_indexes, grad_outputs)`` returning exactly what ``backward``
    # would (one gradient Variable or None per target: bitwise the same arrays, the same
    # ``requires_grad``), computed on the arrays without applying function nodes, or None to
    # decline. Backprop calls it only where those nodes would record nothing and nobody could
    # observe them: ``enable_backprop`` off, not in debug mode, no function hook registered.
    _backward_fast: Callable[[tuple, tuple], tuple | None] | None = None

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        # A class flag replaces the property below (setattr: a plain assignment reads, to a
        # type checker, as overwriting the property).
        setattr(  # noqa: B010
            cls,
            "_checks_types",
            cls._check_arrays is not None
            or cls.check_type_forward is not FunctionNode.check_type_forward,
        )
        cls._overrides_backward_accumulate = (
            cls.backward_accumulate is not FunctionNode.backward_accumulate
        )

    @property
    def _checks_types(self) -> bool:
        # Read only on plain FunctionNode instances: __init_subclass__ gives every subclass a
        # class flag, so the hot path pays nothing. A check_type_forward set on the instance
        # (v7 honours it; its tests mock it) is then run.
        return "check_type_forward" in self.__dict__

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            f"{type(self).__name__} is a FunctionNode: call its apply() method with a tuple "
            "of inputs instead of calling the object"
        )

    @property
    def local_function_hooks(self) -> dict:
        """Hooks registered on this function only (name -> hook)."""
        if self._local_function_hooks is None:
            self._local_function_hooks = {}
        return self._local_function_hooks

    @property
    def label(self) -> str:
        """Short name of the function, used in graphs and error messages."""
        return type(self).__name__

    @property
    def _impl_name(self) -> str:
        """The class name (v7's private name for it; profiling hooks report it)."""
        return type(self).__name__

    @property
    def output_data(self) -> tuple:
        """The retained output arrays (``None`` for the ones not retained)."""
        if self._output_indexes_to_retain is None or self.outputs is None:
            raise RuntimeError(
                "output_data is available only after forward and only for retained outputs"
            )
        data = [None] * len(self.outputs)
        for index, array in zip(self._output_indexes_to_retain, self._retained_output_data or ()):
            data[index] = array
        return tuple(data)

    @property
    def input_layouts(self):
        return (None,) * len(self.inputs or ())

    @property
    def output_layouts(self):
        return (None,) * len(self.outputs or ())

    # -- forward ------------------------------------------------------------------------------

    def apply(self, inputs) -> tuple:
        """Compute the outputs of this function and record it in the graph.

        Args:
            inputs: Input variables or arrays.

        Returns:
            A tuple of output :class:`~chainer.Variable` objects.
        """
        # This is the hottest path of Chainer: keep it flat.
        arrays: list = []
        requires_grad = False
        for x in inputs:
            if isinstance(x, Variable):
                arrays.append(x._array)
                if x._requires_grad:
                    requires_grad = True
            elif type(x) is _ndarray or _variable_checks.is_supported_array(x):
                arrays.append(x)
            elif x is None:  # v7: a missing input (forward sees None; it gets no gradient)
                arrays.append(None)
            else:
                raise TypeError(
                    f"{self.label}: inputs must be Variables or arrays (numpy, cupy, "
                    f"chainerx), but input {len(arrays)} is a {type(x).__name__}"
                )
        in_data = tuple(arrays)

        if self._checks_types and config.type_check:
            try:
                check = self._check_arrays
                if check is not None:
                    check(in_data)
                else:
                    self._check_type_forward_fast(in_data)
            except type_check.InvalidType as e:
                _refuse_mixed_array_kinds(self, in_data)  # v7 reports that first
                raise type_check.InvalidType(
                    e.expect, e.actual, msg=_type_error_message(self, e, in_data)
                ) from None
        hooks: Sequence = ()
        if _hook_state.hooks or self._local_function_hooks:
            hooks = _hooks.active_hooks(self)
            for hook in hooks:
                hook.forward_preprocess(self, in_data)

        first = in_data[0] if in_data else None
        if type(first) is not _ndarray:
            if first is None and in_data:
                first = next((x for x in in_data if x is not None), None)
            if first is not None and is_chainerx_array(first):
                return self._apply_chainerx(in_data, first, hooks)
            _refuse_mixed_array_kinds(self, in_data)  # NumPy inputs first are checked by NumPy
        outputs = self.forward(in_data)
        if type(outputs) is not tuple:
            _refuse_forward_result(self, outputs)

        foreign = False  # an output that is not a NumPy array
        for y in outputs:
            if type(y) is not _ndarray:
                foreign = True
                if y is None:  # v7: a missing output (its variable holds None)
                    continue
                if not _variable_checks.is_supported_array(y):
                    raise TypeError(
                        f"{self.label}.forward output must be a tuple of ndarrays (or None), "
                        f"got {type(y).__name__} (wrap NumPy scalars with numpy.asarray)"
                    )
        if foreign:
            _refuse_mixed_array_kinds(self, outputs, "output")
        for hook in hooks:
            hook.forward_postprocess(self, in_data)
        if config.debug:
            _hooks.check_nan_in_forward(self, in_data, outputs)
            self.stack = traceback.extract_stack()  # errors in backward show where this ran

        if requires_grad and config.enable_backprop:
            return self._record(inputs, in_data, outputs)
        if len(outputs) == 1:
            return (_new_variable(outputs[0], requires_grad),)
        return tuple([_new_variable(y, requires_grad) for y in outputs])

    def _apply_chainerx(self, in_data: tuple, first, hooks) -> tuple:
        """Forward on ChainerX arrays: ChainerX records the graph (see chainer._chainerx_graph)."""
        if len(in_data) > 1:
            _chainerx_graph.check_inputs(self, in_data, first)
        if config.enable_backprop:
            outputs = self.forward_chainerx(in_data)
        else:
            outputs = _chainerx_graph.forward_without_backprop(self, in_data)
        if type(outputs) is not tuple:
            if outputs is not Fallback:
                raise TypeError(
                    f"{self.label}.forward_chainerx must return a tuple of arrays or "
                    f"chainer.Fallback, got {type(outputs).__name__}"
                )
            outputs = _chainerx_graph.fallback(self, in_data, first)
            if type(outputs) is not tuple:
                _refuse_forward_result(self, outputs)
        for hook in hooks:
            hook.forward_postprocess(self, in_data)
        if config.debug:
            _hooks.check_nan_in_forward(self, in_data, outputs)
        return tuple(
            [
                _new_variable(None, False) if y is None else _new_variable(y, y.is_grad_required())
                for y in outputs
            ]
        )

    def _record(self, inputs, in_data: tuple, outputs: tuple) -> tuple:
        """Connect this node with its input and output variable nodes."""
        nodes = []
        rank = 0
        for x in inputs:
            if isinstance(x, Variable):
                node = x._graph_node
                if node is None:
                    node = x._graph_node = VariableNode(x, x._name)
                elif node.rank > rank:
                    rank = node.rank
            else:  # a plain array input: a constant of the graph
                node = _new_constant_node(x)
            nodes.append(node)
        self.rank = rank
        self.inputs = node_tuple = tuple(nodes)
        if len(outputs) == 1:
            var, node = _new_output(outputs[0], self, rank + 1)
            self.outputs = (_weakref(node),)
            rets = (var,)
        else:
            pairs = [_new_output(y, self, rank + 1) for y in outputs]
            self.outputs = tuple([_weakref(node) for _, node in pairs])
            rets = tuple([var for var, _ in pairs])

        retain = self._input_indexes_to_retain
        if retain is not None:
            for index in retain:
                node_tuple[index].data = in_data[index]
        retain = self._output_indexes_to_retain
        if retain is not None:
            kept = []
            for index in retain:  # as in v7, a retained output's node holds its array
                y = outputs[index]
                kept.append(y)
                self.outputs[index]().data = y
            self._retained_output_data = tuple(kept)
        return rets

    def _check_type_forward_fast(self, in_data: tuple) -> None:
        """Run ``check_type_forward`` in light mode (plain values, no expression trees).

        Only when that fails, or the check does not support light mode, is it run again on
        symbolic types: that run raises the error with its Expect/Actual message.
        """
        try:
            with type_check.light_mode:
                self.check_type_forward(type_check.get_light_types(in_data))
            return
        except Exception:  # any failure: the symbolic run below decides
            pass
        self.check_type_forward(type_check.get_types(in_data, "in_types", False))

    def check_type_forward(self, in_types) -> None:
        """Check the types of inputs; override with ``type_check.expect(...)`` calls."""

    def check_layout_forward(self, inputs) -> None:
        """Memory layouts are not supported: nothing to check."""

    def forward(self, inputs: tuple) -> tuple:
        """Compute the outputs; by default dispatches to ``forward_cpu`` / ``forward_gpu``."""
        if inputs and type(inputs[0]) is not _ndarray:
            from chainer import backend

            if backend.get_array_module(*inputs) is not numpy:
                return self.forward_gpu(inputs)
        return self.forward_cpu(inputs)

    def forward_cpu(self, inputs: tuple) -> tuple:
        raise NotImplementedError(f"{self.label} does not implement forward_cpu")

    def forward_gpu(self, inputs: tuple) -> tuple:
        raise NotImplementedError(f"{self.label} does not implement forward_gpu")

    def forward_chainerx(self, inputs: tuple):
        """ChainerX implementation; return :data:`chainer.Fallback` to use ``forward``."""
        return Fallback

    # -- retention ----------------------------------------------------------------------------

    def retain_inputs(self, indexes) -> None:
        """Keep these inputs for backward (call it inside ``forward``)."""
        self._input_indexes_to_retain = tuple(indexes)

    def retain_outputs(self, indexes) -> None:
        """Keep these outputs for backward (call it inside ``forward``)."""
        self._output_indexes_to_retain = tuple(indexes)

    def get_retained_inputs(self) -> tuple:
        """The retained inputs as variables (connected to the graph: double backprop works)."""
        indexes = self._input_indexes_to_retain
        if indexes is None:
            return ()
        if self._chainerx_retained is not None:
            return self._chainerx_retained[0]
        if self.inputs is None:
            raise RuntimeError(f"{self.label}: retained inputs are available only in backward")
        inputs = self.inputs
        # A missing (None) input stays None, as in v7.
        return tuple(
            [None if inputs[i].dtype is None else inputs[i].get_variable() for i in indexes]
        )

    def get_retained_outputs(self) -> tuple:
        """The retained outputs as variables (connected to the graph: double backprop works)."""
        indexes = self._output_indexes_to_retain
        if indexes is None:
            return ()
        if self._chainerx_retained is not None:
            return self._chainerx_retained[1]
        if self.outputs is None:
            raise RuntimeError(f"{self.label}: retained outputs are available only in backward")
        rets: list[Variable | None] = []
        outputs = list(self.outputs)
        for index, array in zip(indexes, self._retained_output_data or ()):
            node = outputs[index]()
            if array is None:  # a missing output (forward returned None)
                rets.append(None)
            elif node is None:
                # The output variable and its node are gone: rebuild one on this creator.
                var = Variable(array)
                node = var.node
                node.creator_node = self
                node.rank = self.rank + 1
                node.data = array
                outputs[index] = weakref.ref(node)
                rets.append(var)
            else:
                if node.data is None:
                    node.data = array
                rets.append(node.get_variable())
        self.outputs = tuple(outputs)
        return tuple(rets)

    # -- backward -----------------------------------------------------------------------------

    def backward(self, target_input_indexes: tuple, grad_outputs: tuple) -> tuple:
        """Return the gradients of the inputs as variables.

        Args:
            target_input_indexes: Indexes of the inputs whose gradients are needed.
            grad_outputs: Gradient variables of the outputs (``None`` where unknown).

        Returns:
            A tuple with one gradient (or ``None``) per input, or per target index.
        """
        return (None,) * len(target_input_indexes)

    def backward_accumulate(self, target_input_indexes, grad_outputs, grad_inputs) -> tuple:
        """Like :meth:`backward`, plus the existing gradients ``grad_inputs`` to add.

        Backprop calls it instead of :meth:`backward` when a subclass overrides it, with the
        gradients gathered so far for the target inputs (``None`` where none); what it returns
        replaces them.
        """
        gxs = self._backward_target(target_input_indexes, grad_outputs)
        ret = []
        for gx, g_old in zip(gxs, grad_inputs):
            if g_old is None:
                ret.append(gx)
            elif gx is None:
                ret.append(g_old)
            else:
                ret.append(g_old + gx)
        return tuple(ret)

    def _backward_target(self, target_input_indexes: tuple, grad_outputs: tuple) -> tuple:
        """Call backward and return exactly one gradient per target index."""
        gxs = self.backward(target_input_indexes, grad_outputs)
        if type(gxs) is not tuple or len(gxs) != len(target_input_indexes):
            gxs = self._normalize_grads(target_input_indexes, gxs)
        return gxs

    def _normalize_grads(self, target_input_indexes: tuple, gxs) -> tuple:
        """Turn what backward returned into one gradient per target index (or raise)."""
        if isinstance(gxs, list):
            gxs = tuple(gxs)
        elif type(gxs) is not tuple:
            from chainer._backprop import _GradientTypeError

            raise _GradientTypeError(
                f"type of gradients returned from backward is incorrect: {self.label}.backward "
                f"must return a tuple, got {type(gxs).__name__}"
            )
        n_inputs = len(self.inputs)
        if len(gxs) == len(target_input_indexes):
            return gxs
        if len(gxs) == n_inputs:
            return tuple([gxs[i] for i in target_input_indexes])
        raise ValueError(
            f"number of gradients returned from backward is incorrect: {self.label}.backward "
            f"returned {len(gxs)} gradients; expected {len(target_input_indexes)} (one per "
            f"target input) or {n_inputs} (one per input)"
        )

    def unchain(self) -> None:
        """Purge this node from the graph: outputs forget their creator, inputs are released."""
        for ref in self.outputs or ():
            node = ref()
            if node is not None:
                node.unchain()
        self.inputs = None  # type: ignore[assignment]  # released, as before apply()

    # -- hooks --------------------------------------------------------------------------------

    def add_hook(self, hook, name: str | None = None) -> None:
        """Register a :class:`~chainer.FunctionHook` on this function only."""
        from chainer.function_hook import FunctionHook

        if not isinstance(hook, FunctionHook):
            raise TypeError(f"hook must be a FunctionHook, got {type(hook).__name__}")
        name = hook.name if name is None else name
        hooks = self.local_function_hooks
        if name in hooks:
            raise KeyError(f"hook {name!r} already exists on {self.label}")
        hooks[name] = hook
        hook.added(self)

    def delete_hook(self, name: str) -> None:
        hooks = self.local_function_hooks
        if name not in hooks:
            raise KeyError(f"no hook named {name!r} on {self.label}")
        hooks.pop(name).deleted(self)


def _refuse_forward_result(func: FunctionNode, outputs) -> None:
    raise TypeError(
        f"{func.label}.forward must return a tuple of arrays, got {type(outputs).__name__}"
    )


def _refuse_mixed_array_kinds(func: FunctionNode, arrays: tuple, which: str = "input") -> None:
    """Raise v7's ``TypeError`` when ``arrays`` (the forward's inputs or outputs) mix arrays
    that cannot be used together (NumPy and CuPy, or ChainerX and another kind)."""
    if len({type(a) for a in arrays if a is not None}) < 2:
        return
    from chainer import backend

    if not backend.is_arrays_compatible(arrays):
        kinds = ", ".join(f"{type(a).__module__}.{type(a).__name__}" for a in arrays)
        raise TypeError(
            f"incompatible array types are mixed in the forward {which} ({func.label}): "
            f"{kinds}; send every array to one device first"
        )


def _type_error_message(func: FunctionNode, error, in_data: tuple) -> str:
    lines = [
        f"Invalid operation is performed in: {func.label} (Forward)",
        "",
        f"Expect: {error.expect}",
        f"Actual: {error.actual}",
    ]
    lines.append("")
    lines.append("Inputs:")
    for i, x in enumerate(in_data):
        if x is None:
            lines.append(f"  [{i}] None")
        else:
            lines.append(f"  [{i}] shape={x.shape} dtype={x.dtype} ({type(x).__module__})")
    return "\n".join(lines)


def grad(
    outputs,
    inputs,
    grad_outputs=None,
    grad_inputs=None,
    set_grad=False,
    retain_grad=False,
    enable_double_backprop=False,
    loss_scale=None,
) -> list:
    """Gradients of ``outputs`` with respect to ``inputs``, without touching ``.grad``.

    Args:
        outputs: Variables to differentiate.
        inputs: Variables to differentiate with respect to (leaves or intermediates).
        grad_outputs: Initial gradients of the outputs; ``None`` (for all or one of them)
            means ones of the output's shape, whatever its size (as in Chainer v7).
        grad_inputs: Gradients added to the result for each input.
        set_grad: Also store the results in the inputs' ``grad_var``.
        retain_grad: Keep the gradients of intermediate variables in their ``grad_var``.
        enable_double_backprop: Record the computation, so results can be differentiated.
        loss_scale: Multiply initial gradients by this factor.

    Returns:
        A list with one gradient variable (or ``None``) per input.
    """
    from chainer import _backprop

    return _backprop.grad(
        outputs,
        inputs,
        grad_outputs,
        grad_inputs,
        set_grad,
        retain_grad,
        enable_double_backprop,
        loss_scale,
    )
