"""``Variable``, ``Parameter`` and ``VariableNode``: arrays that remember how they were made.

A :class:`Variable` wraps an array. When a :class:`~chainer.FunctionNode` is applied to variables
that require gradients, each output gets a :class:`VariableNode` whose ``creator_node`` is that
function: this is the computational graph that :meth:`Variable.backward` walks. The node is
created lazily, so variables that never enter a graph cost no more than their array.
"""

from __future__ import annotations

import warnings
import weakref
from typing import TYPE_CHECKING, Any

import numpy

from chainer import _variable_checks as _checks

if TYPE_CHECKING:
    from chainer.function_node import FunctionNode


class VariableNode:
    """The node of a variable in the computational graph.

    It holds what backward needs after the variable itself may have been freed: its creator,
    rank, dtype/shape and, when a function retained it, the array.
    """

    __slots__ = (
        "_variable",
        "creator_node",
        "rank",
        "data",
        "name",
        "_requires_grad",
        "dtype",
        "shape",
        "__weakref__",
    )

    def __init__(self, variable: Variable, name: str | None = None, **kwargs) -> None:
        if kwargs:
            raise ValueError(
                f"VariableNode() got unexpected keyword arguments {sorted(kwargs)}; a gradient "
                "is set on the Variable (Variable.grad), not on its node"
            )
        self._variable = weakref.ref(variable)
        self.creator_node: FunctionNode | None = None
        self.rank = 0
        self.data: Any = None
        self.name = name
        self._requires_grad = variable._requires_grad
        array = variable._array
        self.dtype: Any  # None while the variable has no array
        self.shape: Any
        if array is None:
            self.dtype = self.shape = None
        else:
            self.dtype = array.dtype
            self.shape = array.shape

    @property
    def _rank(self) -> int:
        """v7 compatibility: v7's private name of :attr:`rank`."""
        return self.rank

    @_rank.setter
    def _rank(self, rank: int) -> None:
        self.rank = rank

    @property
    def creator(self):
        """The creator as a function object (old-style ``Function`` if it was one)."""
        node = self.creator_node
        if node is None:
            return None
        return getattr(node, "_function", node)

    @creator.setter
    def creator(self, func) -> None:
        self.set_creator(func)

    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @property
    def label(self) -> str:
        """Short text for graphs: ``(2, 3), float32``."""
        if self.shape is None:
            return "None"
        if self.shape == ():
            return str(self.dtype)
        return f"({', '.join(map(str, self.shape))}), {self.dtype}"

    @property
    def grad(self):
        var = self._variable()
        return None if var is None else var.grad

    @property
    def grad_var(self):
        var = self._variable()
        return None if var is None else var.grad_var

    def get_variable(self) -> Variable:
        """Return the variable of this node, re-creating it from retained data if it died."""
        var = self._variable()
        if var is not None:
            return var
        var = Variable(self.data, name=self.name, requires_grad=self._requires_grad)
        var._graph_node = self
        self._variable = weakref.ref(var)
        return var

    def get_variable_or_none(self) -> Variable | None:
        return self._variable()

    def set_creator(self, creator) -> None:
        self.set_creator_node(None if creator is None else creator.node)

    def set_creator_node(self, creator_node) -> None:
        """Make ``creator_node`` the creator (``None``: none, the rank is kept, as v7)."""
        self.creator_node = creator_node
        if creator_node is not None:
            self.rank = creator_node.rank + 1

    def unchain(self) -> None:
        self.creator_node = None

    def retain_data(self) -> None:
        """Keep the variable's array in the node, for backward after the variable is gone."""
        var = self._variable()
        if var is None:
            raise RuntimeError("cannot retain the data of a variable that has been freed")
        self.data = var._array

    def _set_data_type(self, array) -> None:
        if array is None:
            self.dtype = self.shape = None
        else:
            self.dtype = array.dtype
            self.shape = array.shape
        if self.data is not None:
            self.data = array

    def __repr__(self) -> str:
        return f"<VariableNode name={self.name!r} shape={self.shape} dtype={self.dtype}>"


class Variable:
    """An array with a gradient and a place in the computational graph.

    Args:
        data: The initial array (NumPy, CuPy or ChainerX ndarray) or ``None``.
        name: Name of the variable, shown in graphs and summaries.
        grad: Initial gradient array.
        requires_grad: Whether backward computes a gradient for this variable.
        layout: Memory layout of ``data``; only ``None`` (the standard layout) is supported.

    Example:
        >>> x = chainer.Variable(numpy.array(5.0, dtype=numpy.float32))
        >>> y = x ** 2 - 2 * x + 1
        >>> y.backward()
        >>> x.grad
        array(8., dtype=float32)
    """

    __slots__ = (
        "_array",
        "_grad_var",
        "_graph_node",
        "_requires_grad",
        "_name",
        "_loss_scale",
        "__dict__",
        "__weakref__",
    )
    # Let NumPy defer to Variable's reflected operators (ndarray * Variable -> Variable).
    __array_priority__ = 200
    __array_ufunc__ = None
    # The label of the old-style Function whose backward computed this gradient variable:
    # backprop refuses to differentiate it again (its backward worked on arrays).
    _old_style_grad_generator: str | None = None
    # The device of the last to_device() (None: the array's own device, worked out when asked).
    _target_device = None
    # The graph-free view of a ChainerX array in a graph that ``array`` returns (cached).
    _chainerx_view = None

    if TYPE_CHECKING:  # the operators chainer._ops installs on import, for type checkers

        def __add__(self, other: Any) -> Variable: ...
        def __radd__(self, other: Any) -> Variable: ...
        def __sub__(self, other: Any) -> Variable: ...
        def __rsub__(self, other: Any) -> Variable: ...
        def __mul__(self, other: Any) -> Variable: ...
        def __rmul__(self, other: Any) -> Variable: ...
        def __truediv__(self, other: Any) -> Variable: ...
        def __rtruediv__(self, other: Any) -> Variable: ...
        def __floordiv__(self, other: Any) -> Variable: ...
        def __rfloordiv__(self, other: Any) -> Variable: ...
        def __pow__(self, other: Any) -> Variable: ...
        def __rpow__(self, other: Any) -> Variable: ...
        def __matmul__(self, other: Any) -> Variable: ...
        def __rmatmul__(self, other: Any) -> Variable: ...
        def __getitem__(self, other: Any) -> Variable: ...
        def __neg__(self) -> Variable: ...
        def __abs__(self) -> Variable: ...
        def __pos__(self) -> Variable: ...

    def __init__(
        self, data=None, *, name=None, grad=None, requires_grad=True, layout=None
    ) -> None:
        if layout is not None:  # v7's argument; only the standard layout is supported
            raise ValueError(f"memory layouts are not supported; got layout {layout!r}")
        if data is not None and type(data) is not numpy.ndarray:
            _checks.check_array_type(data, "data")
            if _checks.is_chainerx_array(data):
                from chainer import _chainerx_graph

                data = _chainerx_graph.attach(data, requires_grad)
        self._array = data
        self._grad_var: Variable | None = None
        self._graph_node: VariableNode | None = None
        self._requires_grad = requires_grad
        self._name = name
        self._loss_scale = None
        if grad is not None:
            self.grad = grad

    @classmethod
    def _init_unchecked(
        cls, data=None, name=None, grad=None, requires_grad=True, is_chainerx_array=None
    ) -> Variable:
        """v7 compatibility: a variable made without checking ``data`` (the ChainerX flag is
        derived from the array, so ``is_chainerx_array`` is accepted and not needed)."""
        if (
            data is not None
            and type(data) is not numpy.ndarray
            and _checks.is_chainerx_array(data)
        ):
            from chainer import _chainerx_graph

            data = _chainerx_graph.attach(data, requires_grad)
        var = _new_variable(data, requires_grad)
        var._name = name
        if grad is not None:
            var.grad = grad
        return var

    # -- graph ------------------------------------------------------------------------------

    @property
    def node(self) -> VariableNode:
        """The :class:`VariableNode` of this variable (created on first use)."""
        node = self._graph_node
        if node is None:
            node = self._graph_node = VariableNode(self, self._name)
        return node

    _node = node  # v7 compatibility: v7's private name of the node, read by its tests

    @property
    def creator_node(self):
        node = self._graph_node
        return None if node is None else node.creator_node

    @creator_node.setter
    def creator_node(self, func) -> None:
        self.node.set_creator_node(func)

    @property
    def creator(self):
        node = self._graph_node
        return None if node is None else node.creator

    @creator.setter
    def creator(self, func) -> None:
        self.node.set_creator(func)

    def set_creator(self, gen_func) -> None:
        self.node.set_creator(gen_func)

    def set_creator_node(self, fnode) -> None:
        self.node.set_creator_node(fnode)

    @property
    def rank(self) -> int:
        node = self._graph_node
        return 0 if node is None else node.rank

    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    def unchain(self) -> None:
        """Cut the link to the creator: this variable becomes a leaf of a new graph."""
        if self._chainerx_graph_array() is not None:
            array = self._array.as_grad_stopped()
            self._array = array.require_grad() if self._requires_grad else array
            self._chainerx_view = None
            return
        node = self._graph_node
        if node is not None:
            node.creator_node = None

    def unchain_backward(self) -> None:
        """Cut every creator link reachable backward from this variable."""
        from chainer._backprop import walk_creators

        if self._chainerx_graph_array() is not None:  # ChainerX's graph is cut at this array
            self.unchain()
            return
        for func in list(walk_creators(self)):  # walk first: unchain() drops the inputs
            func.unchain()
        self.unchain()

    def retain_data(self) -> None:
        self.node.retain_data()

    # -- array and gradient -------------------------------------------------------------

    @property
    def array(self):
        """The underlying array (``data`` is an alias).

        A ChainerX array is returned out of the graph (a view of the same memory, as in v7);
        :attr:`chx_array` is the one in the graph.
        """
        array = self._array
        if type(array) is numpy.ndarray or array is None:
            return array
        view = self._chainerx_view
        if view is not None:
            return view
        if _checks.is_chainerx_array(array) and array.is_grad_required():
            view = self._chainerx_view = array.as_grad_stopped()
            return view
        return array

    @array.setter
    def array(self, d) -> None:
        if d is not None and type(d) is not numpy.ndarray:
            _checks.check_array_type(d, "array")
            if _checks.is_chainerx_array(d):
                from chainer import _chainerx_graph

                d = _chainerx_graph.attach(d, self._requires_grad)
        self._array = d
        if self._chainerx_view is not None:
            self._chainerx_view = None
        if self._target_device is not None:
            self._target_device = None
        if self._graph_node is not None:
            self._graph_node._set_data_type(d)

    data = array

    @property
    def _has_chainerx_array(self) -> bool:
        """v7 compatibility: whether the array is a ChainerX array."""
        return _checks.is_chainerx_array(self._array)

    @property
    def _grad(self):
        """v7 compatibility: v7's private name of :attr:`grad`."""
        return self.grad

    @property
    def raw_array(self):
        return self._array

    @property
    def chx_array(self):
        """The ChainerX array itself, connected to the graph (a ChainerX variable only)."""
        if not _checks.is_chainerx_array(self._array):
            raise ValueError(
                "chx_array is available only for a Variable over a ChainerX array; this one "
                f"holds {type(self._array).__module__}.{type(self._array).__name__}"
            )
        return self._array

    def _chainerx_graph_array(self):
        """The ChainerX array if it is in a graph (its gradient lives there), else None."""
        array = self._array
        if type(array) is numpy.ndarray or array is None:
            return None
        if _checks.is_chainerx_array(array) and array.is_grad_required():
            return array
        return None

    def _chainerx_grad_target(self):
        """The ChainerX array a gradient is set on, or None for other arrays.

        Raises:
            RuntimeError: The array is a ChainerX array out of the graph (``requires_grad``
                is False, or an integer dtype): it cannot hold a gradient (as in v7).
        """
        array = self._array
        if type(array) is numpy.ndarray or array is None or not _checks.is_chainerx_array(array):
            return None
        if not array.is_grad_required():
            raise RuntimeError(
                "cannot set a gradient on a Variable over a ChainerX array that does not "
                f"require grad (requires_grad={self._requires_grad}, dtype {array.dtype})"
            )
        return array

    @property
    def grad(self):
        """The gradient array, or ``None``."""
        array = self._array
        if type(array) is not numpy.ndarray and array is not None:
            if _checks.is_chainerx_array(array):  # ChainerX keeps it in the array
                try:
                    return array.grad
                except _checks.chainerx_error():  # out of the graph: no gradient
                    return None
        gv = self._grad_var
        return None if gv is None else gv._array

    @grad.setter
    def grad(self, g) -> None:
        self._set_grad(g)

    def _set_grad(self, g) -> None:
        if g is None:
            self._clear_grad()  # not cleargrad(): a Parameter's would change its initial grad
            return
        _checks.check_grad(self, g)
        array = self._chainerx_grad_target()
        if array is not None:
            if array.is_backprop_required():  # a view double backprop may put in the graph
                g = g.view()
            array.set_grad(g)
            self._grad_var = _new_variable(g, True)  # cached for grad_var (same array)
            return
        self._grad_var = Variable(g)  # v7: a gradient set by hand can be differentiated

    @property
    def grad_var(self) -> Variable | None:
        """The gradient as a :class:`Variable` (it has a graph after double backprop)."""
        array = self._chainerx_graph_array()
        if array is not None:
            from chainer import _chainerx_graph

            return _chainerx_graph.grad_var(self, array)
        return self._grad_var

    @grad_var.setter
    def grad_var(self, g: Variable | None) -> None:
        self._set_grad_var(g)

    def _set_grad_var(self, g: Variable | None) -> None:
        if g is None:
            self._clear_grad()  # not cleargrad(): a Parameter's would change its initial grad
            return
        _checks.check_grad(self, g._array)
        array = self._chainerx_grad_target()
        if array is not None:
            array.set_grad(g._array)
        self._grad_var = g

    def cleargrad(self) -> None:
        """Forget the gradient (set it to ``None``)."""
        self._clear_grad()

    def _clear_grad(self) -> None:
        self._grad_var = None
        array = self._array
        if type(array) is not numpy.ndarray and array is not None:
            if _checks.is_chainerx_array(array):
                try:
                    array.cleargrad()
                except _checks.chainerx_error():  # out of the graph: it has none
                    pass

    def zerograd(self) -> None:
        """Set the gradient to zeros of the array's shape and dtype.

        .. deprecated:: v7 (a ``DeprecationWarning``): use :meth:`cleargrad`, which is cheaper.
        """
        warnings.warn(
            "Variable.zerograd is deprecated. Use Variable.cleargrad instead.",
            DeprecationWarning,
            stacklevel=2,
        )
        self._zerograd()

    def _zerograd(self) -> None:
        array = self._array
        if array is None:
            self._grad_var = None
            return
        chx = self._chainerx_graph_array()
        if chx is not None:
            g = chx.grad
            if g is None:
                chx.set_grad(self.xp.zeros_like(chx.as_grad_stopped()))
            else:
                g[...] = 0  # in place, as v7 (refused for a gradient in a graph)
            return
        zeros = self.xp.zeros_like(array)
        gv = self._grad_var
        if gv is not None and gv._array is not None:
            gv._array[...] = 0
            gv.unchain()
        else:
            self._grad_var = Variable(zeros, requires_grad=False)

    def addgrad(self, var: Variable) -> None:
        """Add ``var``'s gradient to this variable's, moving it to this device if needed."""
        if _checks.is_chainerx_array(self._array) != _checks.is_chainerx_array(var._array):
            if self._array is not None and var._array is not None:
                raise RuntimeError(
                    "addgrad between a ChainerX variable and a NumPy/CuPy variable is not "
                    "supported (as in v7): move one with to_device first"
                )
        src = var.grad_var
        if src is None:
            return
        if self._array is None:
            raise RuntimeError("addgrad: the destination variable has no array yet")
        src_array = self.device.send(src._array)
        chx = self._chainerx_graph_array()
        if chx is not None:
            from chainer import _chainerx_graph

            _chainerx_graph.add_grad(chx, src_array)
            return
        dst = self._grad_var
        if dst is None:
            self._grad_var = Variable(src_array.copy(), requires_grad=False)
        else:
            self._grad_var = Variable(dst._array + src_array, requires_grad=False)

    def copydata(self, var: Variable) -> None:
        """Copy ``var``'s array into this variable's array (across devices if needed)."""
        src = var._array
        dst = self._array
        if src is None and dst is not None and isinstance(var, Parameter):
            var.initialize(dst.shape)  # v7: an uninitialized source takes this shape
            src = var._array
        if dst is None:
            # An uninitialized parameter takes a copy on its own device.
            self.array = (
                None if src is None else self.device.send(var.xp.array(var.array, copy=True))
            )
            return
        from chainer import backend

        backend.copyto(self.array, var.array)  # out of ChainerX's graph: an in-place copy

    # -- array-like properties ------------------------------------------------------------

    @property
    def shape(self):
        return self._array.shape

    @property
    def ndim(self) -> int:
        return self._array.ndim

    @property
    def size(self) -> int:
        return self._array.size

    @property
    def dtype(self):
        return self._array.dtype

    @property
    def xp(self):
        """The array module of the array (numpy, cupy or chainerx)."""
        array = self._array
        if array is None or type(array) is numpy.ndarray:
            return numpy
        from chainer import backend

        return backend.get_array_module(array)

    @property
    def device(self):
        """The device of the array: the one given to the last :meth:`to_device` (kept as given,
        so a user-defined device is reported, as v7) until the array is replaced."""
        target = self._target_device
        if target is not None:
            return target
        from chainer import backend

        if self._array is None:
            return backend.CpuDevice()
        return backend.get_device_from_array(self._array)

    @property
    def name(self) -> str | None:
        return self._name

    @name.setter
    def name(self, n: str | None) -> None:
        self._name = n
        if self._graph_node is not None:
            self._graph_node.name = n

    @property
    def label(self) -> str:
        return self.node.label

    @property
    def layout(self):
        return None

    def as_layout(self, layout):
        if layout is not None:
            raise ValueError(f"memory layouts are not supported; got layout {layout!r}")
        return self

    def item(self):
        """The single element as a Python scalar."""
        return self._array.item()

    def __len__(self) -> int:
        if self._array.ndim == 0:
            raise TypeError("len() of a 0-dimensional variable")
        return len(self._array)

    def __bool__(self) -> bool:
        if self._array.size != 1:
            raise TypeError(
                f"the truth value of a variable of shape {self._array.shape} is ambiguous; "
                "only single-element variables convert to bool"
            )
        return bool(self._array)

    __hash__ = object.__hash__

    # -- devices --------------------------------------------------------------------------

    def to_device(self, device) -> None:
        """Move the array and gradient to ``device`` (a device object or spec like '@numpy')."""
        from chainer import backend

        self._to_device(backend.get_device(device))

    def _to_device(self, device) -> None:
        grad = self.grad
        array = self._array
        if array is not None:
            if self._chainerx_graph_array() is not None and not device.is_array_supported(array):
                if not isinstance(self, Parameter) and not isinstance(
                    device, _chainerx_device_type()
                ):
                    raise RuntimeError(
                        "a Variable over a ChainerX array that requires grad cannot move to "
                        f"the non-ChainerX device {device} (as in v7): its graph is ChainerX's"
                    )
                array = array.as_grad_stopped()  # leaves its graph
            self._set_array_keeping_graph(device.send(array))
        gv = self._grad_var
        if grad is not None:
            if _checks.is_chainerx_array(grad) and not device.is_array_supported(grad):
                grad = grad.as_grad_stopped()
            grad = device.send(grad)
            if self._chainerx_graph_array() is not None:  # ChainerX keeps it in the array
                self._grad_var = None
                self._array.set_grad(grad)
            elif gv is not None:
                gv._set_array_keeping_graph(grad)
            else:
                self._grad_var = Variable(grad, requires_grad=False)
        self._target_device = device

    def _set_array_keeping_graph(self, array) -> None:
        if type(array) is not numpy.ndarray and _checks.is_chainerx_array(array):
            if not array.is_grad_required() and self._requires_grad and array.dtype.kind == "f":
                array = array.view().require_grad()
        self._array = array
        self._chainerx_view = None
        if self._graph_node is not None:
            self._graph_node._set_data_type(array)

    def to_cpu(self) -> None:
        self.to_device("@numpy")

    def to_gpu(self, device=None) -> None:
        from chainer.backends import cuda

        self._to_device(cuda.GpuDevice(cuda._cuda_device(device)))

    def to_intel64(self) -> None:
        self.to_device("@intel64")

    def to_chx(self) -> None:
        """Move to the ChainerX device that shares memory with the current device."""
        from chainer.backends._chainerx import ChainerxDevice

        self._to_device(ChainerxDevice.from_fallback_device(self.device))

    def from_chx(self) -> None:
        """Move from a ChainerX device back to its NumPy/CuPy counterpart."""
        from chainer import backend

        device = self.device
        if isinstance(device, backend.ChainerxDevice):
            self._to_device(device.fallback_device)

    # -- text -----------------------------------------------------------------------------

    def __repr__(self) -> str:
        return _checks.array_text(self, repr_style=True)

    def __str__(self) -> str:
        return _checks.array_text(self, repr_style=False)

    def summary(self) -> str:
        """``<variable NAME>``, or ``<variable at 0xID>`` for an unnamed one (as v7)."""
        name = self._name if self._name is not None else f"at 0x{id(self):x}"
        return f"<variable {name}>"

    def debug_print(self) -> str:
        """A multi-line description with statistics of the array and gradient."""
        return _checks.debug_text(self)

    # -- backward -------------------------------------------------------------------------

    def backward(self, retain_grad=False, enable_double_backprop=False, loss_scale=None) -> None:
        """Run backprop from this variable and accumulate gradients into the leaves.

        Args:
            retain_grad: Keep the gradients of intermediate variables too.
            enable_double_backprop: Record the backward computation as a graph, so the
                gradients can be differentiated again.
            loss_scale: Multiply the initial gradient by this factor (mixed precision).
        """
        if self._chainerx_graph_array() is not None:
            from chainer import _chainerx_graph

            _chainerx_graph.backward(self, retain_grad, enable_double_backprop, loss_scale)
            return
        from chainer import _backprop

        _backprop.backward_from(
            [self], None, retain_grad, enable_double_backprop, loss_scale, "Variable.backward"
        )

    # -- shape helpers (differentiable) -------------------------------------------------------

    def reshape(self, *shape: Any) -> Variable:
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        from chainer._ops import array_ops

        return array_ops.reshape(self, tuple(shape))

    def transpose(self, *axes: Any) -> Variable:
        chosen: Any = axes
        if len(axes) == 0:
            chosen = None
        elif len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
            chosen = axes[0]
        from chainer._ops import array_ops

        return array_ops.transpose(self, chosen)

    @property
    def T(self) -> Variable:
        from chainer._ops import array_ops

        return array_ops.transpose(self, None)

    def mean(self, axis=None, *, weights=None, keepdims=False) -> Variable:
        """Mean (optionally weighted) over ``axis``."""
        from chainer._ops import array_ops

        return array_ops.mean(self, axis, weights, keepdims)


# The getter itself (Parameter.grad calls it without a property lookup).
_variable_grad = vars(Variable)["grad"].fget


class Parameter(Variable):
    """A variable that is a parameter of a link: initialized lazily, updated by an optimizer.

    Args:
        initializer: An initializer (callable filling an array), a scalar, an array, or
            ``None`` (NaN, as in Chainer v7). An array becomes the data directly.
        shape: Shape of the array to initialize now; ``None`` delays initialization until
            :meth:`initialize` is called (e.g. when the first input size is known).
        name: Name of the parameter.

    Example:
        >>> p = chainer.Parameter(chainer.initializers.Zero(), (2, 3))
        >>> p.array.shape
        (2, 3)
    """

    def __init__(self, initializer=None, shape=None, name=None, *, layout=None) -> None:
        if layout is not None:
            raise ValueError(f"memory layouts are not supported; got layout {layout!r}")
        from chainer import initializers

        if isinstance(initializer, (numpy.ndarray,)) or _checks.is_supported_array(initializer):
            # An array given directly is the data.
            super().__init__(initializer, name=name)
            self.initializer = initializers.Constant(initializer)
            self._initial_device = None
            self._grad_filler: float | None = None
        else:
            if initializer is None:
                initializer = initializers.NaN()
            elif numpy.isscalar(initializer):
                initializer = initializers.Constant(initializer)
            super().__init__(None, name=name)
            self.initializer = initializer
            self._initial_device = None
            # The gradient :meth:`initialize` creates: NaN until cleared (v7), zero after
            # zerograd(), none after cleargrad().
            self._grad_filler = numpy.nan
            if shape is not None:
                self.initialize(shape)
        self.update_rule = None

    @property
    def is_initialized(self) -> bool:
        return self._array is not None

    @property
    def dtype(self):
        """The array's dtype; before initialization, the initializer's (``RuntimeError`` for an
        initializer without a ``dtype`` attribute, as v7)."""
        if self._array is not None:
            return self._array.dtype
        if not hasattr(self.initializer, "dtype"):
            raise RuntimeError(
                "the dtype of an uninitialized Parameter is not known: its initializer "
                f"{type(self.initializer).__name__} has no dtype attribute"
            )
        return self._initial_dtype()

    def _initial_dtype(self):
        from chainer._dtypes import get_dtype

        # mixed16 makes float16 parameters, as in v7 (links that need float32 ask for it).
        return get_dtype(getattr(self.initializer, "dtype", None))

    @property
    def grad(self):
        """The gradient array; reading it before the parameter is initialized raises
        ``RuntimeError`` (as v7) unless :meth:`cleargrad` or :meth:`zerograd` was called."""
        if self._array is None:
            self._check_grad_available()
        return _variable_grad(self)

    @grad.setter
    def grad(self, g) -> None:
        self._set_grad(g)

    @property
    def grad_var(self) -> Variable | None:
        if self._array is None:
            self._check_grad_available()
        return super().grad_var

    @grad_var.setter
    def grad_var(self, g: Variable | None) -> None:
        self._set_grad_var(g)

    def _check_grad_available(self) -> None:
        filler = self._grad_filler
        if filler is None or filler == 0:  # cleared: None until initialized
            return
        name = "" if self._name is None else f" {self._name!r}"
        raise RuntimeError(
            f"the gradient of the uninitialized parameter{name} is not available: initialize "
            "it first (or call cleargrad() to make it None)"
        )

    def initialize(self, shape) -> None:
        """Create the array with ``shape`` using the initializer.

        The gradient is NaN-filled (as in Chainer v7, so that a gradient never cleared shows
        up), zero-filled after :meth:`zerograd`, or ``None`` after :meth:`cleargrad`.
        """
        from chainer import initializers

        device = self._initial_device
        dtype = self._initial_dtype()
        xp = numpy if device is None else device.xp
        array = initializers.generate_array(self.initializer, shape, xp, dtype, device=device)
        self.array = array
        if device is not None:
            self._target_device = device
        self._grad_var = None
        if self._grad_filler is not None:
            self.grad = xp.full_like(self.array, self._grad_filler)

    @property
    def device(self):
        """The device of the array; for an uninitialized parameter, where it will be made."""
        if self._array is None:
            from chainer import backend

            return self._initial_device or backend.CpuDevice()
        return super().device

    def _to_device(self, device) -> None:
        # Every to_* method lands here: an uninitialized parameter remembers the target.
        if self._array is None:
            self._initial_device = device
        else:
            super()._to_device(device)

    def cleargrad(self) -> None:
        super().cleargrad()
        if self._array is None:
            self._grad_filler = None

    def addgrad(self, var: Variable) -> None:
        """Add ``var``'s gradient; an uninitialized parameter is first initialized with
        ``var``'s shape (its gradient then starts as :meth:`initialize` makes it)."""
        if self._array is None and var.grad_var is not None:
            self.initialize(var.shape)
        super().addgrad(var)

    def _zerograd(self) -> None:
        if self._array is None:
            self._grad_filler = 0
            return
        super()._zerograd()

    def update(self) -> None:
        """Update the array with its update rule (set by an optimizer's ``setup``)."""
        if self.update_rule is not None:
            self.update_rule.update(self)

    def __reduce__(self):
        return _recover_parameter, (
            self._array,
            self._name,
            self._grad_var,
            self.initializer,
            self.update_rule,
            self._initial_device,
            self._requires_grad,
            self._grad_filler,
        )


def _recover_parameter(
    array,
    name,
    grad_var,
    initializer,
    update_rule,
    initial_device=None,
    requires_grad=True,
    grad_filler=numpy.nan,
):
    p = Parameter(array if array is not None else initializer, name=name)
    p._grad_filler = grad_filler
    p.initializer = initializer
    p._grad_var = grad_var
    p.update_rule = update_rule
    p._initial_device = initial_device
    p._requires_grad = requires_grad
    return p


def as_variable(obj) -> Variable:
    """Return ``obj`` if it is a variable, else wrap the array in one with no gradient."""
    if isinstance(obj, Variable):
        return obj
    if isinstance(obj, VariableNode):
        raise TypeError("as_variable() expects an array or a Variable, not a VariableNode")
    return Variable(obj, requires_grad=False)


def as_array(obj):
    """Return the array of a variable, or ``obj`` itself if it is an array."""
    if isinstance(obj, Variable):
        return obj.array
    return obj


def _new_output(array, creator, rank: int) -> tuple:
    """A function's output variable and its node (skips the constructors' checks)."""
    var = _object_new(Variable)
    var._array = array
    var._grad_var = None
    var._requires_grad = True
    var._name = None
    var._loss_scale = None
    node = var._graph_node = _object_new(VariableNode)
    node._variable = _weakref(var)
    node.creator_node = creator
    node.rank = rank
    node.data = None
    node.name = None
    node._requires_grad = True
    if array is None:  # a missing output of a function (v7 allows them)
        node.dtype = node.shape = None
    else:
        node.dtype = array.dtype
        node.shape = array.shape
    return var, node


_weakref = weakref.ref


def _chainerx_device_type() -> type:
    from chainer.backends._chainerx import ChainerxDevice

    return ChainerxDevice


def _new_variable(array, requires_grad: bool) -> Variable:
    """A variable for a function's output array (skips ``__init__``'s argument checks)."""
    var = _object_new(Variable)
    var._array = array
    var._grad_var = None
    var._graph_node = None
    var._requires_grad = requires_grad
    var._name = None
    var._loss_scale = None
    return var


def _new_constant_node(array) -> VariableNode:
    """The node of a plain array input of a function: a constant of the graph.

    The node of a temporary variable that is gone (no creator, rank 0, no gradient), as
    ``VariableNode(Variable(array, requires_grad=False))``, without the constructors' checks.
    """
    _, node = _new_output(array, None, 0)  # the variable dies on return, its reference dead
    node._requires_grad = False
    return node


_object_new = object.__new__


# Operators (+, -, *, /, **, @, [], comparisons, abs) are installed by chainer._ops.
