"""``Link``, ``Chain`` and ``ChainList``: the building blocks of models.

A :class:`Link` owns parameters (:class:`~chainer.Parameter`) and persistent values; a
:class:`Chain` also owns child links by attribute name, a :class:`ChainList` by position. The
whole tree is traversed, copied, moved between devices and serialized as one.

Traversal order is deterministic: a link's own parameters by name, then its children (by name
for a chain, by position for a chain list), depth first, as in Chainer. The walks keep an
explicit stack and build each link's path once, so they cost O(number of links + parameters)
however deep the tree is.
"""

from __future__ import annotations

import contextlib
import copy as copy_module
import typing as tp
import warnings
from collections.abc import Iterator, MutableSequence, Sequence

import numpy

from chainer import _link_tree, initializers, link_hook
from chainer.backend import CpuDevice, GpuDevice, get_array_types
from chainer.backend import copyto as _copyto
from chainer.device_resident import DeviceResident
from chainer.variable import Parameter

if tp.TYPE_CHECKING:
    import chainer

__all__ = ["Chain", "ChainList", "Link"]

# The type of ``self`` in the copying methods (a copy has the class of the original).
_LinkT = tp.TypeVar("_LinkT", bound="Link")
_ChainT = tp.TypeVar("_ChainT", bound="Chain")
_ChainListT = tp.TypeVar("_ChainListT", bound="ChainList")


def _check_link_initialized(link: Link) -> None:
    """Raise v7's error (word for word: code matches it) when Link.__init__ was skipped."""
    if "_params" not in link.__dict__:
        raise RuntimeError("Link.__init__() has not been called.")


class Link(DeviceResident):
    """Building block of model definitions: a set of parameters and persistent values.

    Register parameters by assigning :class:`~chainer.Parameter` objects to attributes inside
    :meth:`init_scope` (or with :meth:`add_param`), and define the computation in ``forward``;
    calling the link runs ``forward`` with the registered link hooks around it.

    A parameter created with ``shape=None`` is *uninitialized*: it has no array until the link
    knows its shape, typically from the first input (call ``param.initialize(shape)`` in
    ``forward``). Such parameters are skipped by ``params(include_uninit=False)``.

    Args:
        params: Old-style registration: ``name=shape`` or ``name=(shape, dtype)`` adds a
            parameter filled with NaN (prefer :meth:`init_scope`).

    Example:
        >>> class Affine(chainer.Link):
        ...     def __init__(self, out_size, in_size=None):
        ...         super().__init__()
        ...         with self.init_scope():
        ...             self.W = chainer.Parameter(initializers.LeCunNormal(), None)
        ...             self.b = chainer.Parameter(0.0, (out_size,))
        ...         self.out_size = out_size
        ...         if in_size is not None:
        ...             self.W.initialize((out_size, in_size))
        ...
        ...     def forward(self, x):
        ...         if self.W.array is None:  # lazy: the input size is known only now
        ...             self.W.initialize((self.out_size, x.shape[1]))
        ...         return x @ self.W.T + self.b
        >>> y = Affine(3)(numpy.ones((2, 5), numpy.float32))  # W becomes (3, 5)
    """

    name: str | None
    # Class defaults make __setattr__ safe before __init__ has run.
    _within_init_scope = False
    _local_link_hooks: dict | None = None
    _params: tuple = ()
    _persistent: tuple = ()

    def __init__(self, **params: tp.Any) -> None:
        super().__init__()
        self._params = ()
        self._persistent = ()
        self._within_init_scope = False
        self.name = None
        for name, value in params.items():
            shape, dtype = _link_tree.shape_and_dtype(value)
            self.add_param(name, shape, dtype=dtype)

    # -- registration -----------------------------------------------------------------------

    @property
    def within_init_scope(self) -> bool:
        """``True`` inside :meth:`init_scope`, where assigned parameters are registered."""
        return self._within_init_scope

    @contextlib.contextmanager
    def init_scope(self) -> Iterator[None]:
        """Context in which assigning a :class:`~chainer.Parameter` (or, for a
        :class:`Chain`, a :class:`Link`) to an attribute registers it.

        Outside the scope such assignments make plain attributes.
        """
        _check_link_initialized(self)
        previous = self._within_init_scope
        self._within_init_scope = True
        try:
            yield
        finally:
            self._within_init_scope = previous

    def __setattr__(self, name: str, value: tp.Any) -> None:
        if self._within_init_scope:
            self._register_attribute(name, value)
        object.__setattr__(self, name, value)

    def _register_attribute(self, name: str, value: tp.Any) -> None:
        # Called for each assignment inside init_scope(), before the attribute is set.
        if isinstance(value, Parameter):
            value.name = name
            self._params = _link_tree.insert_name(self._params, name)
            self._persistent = _link_tree.remove_name(self._persistent, name)

    def __delattr__(self, name: str) -> None:
        self._params = _link_tree.remove_name(self._params, name)
        self._persistent = _link_tree.remove_name(self._persistent, name)
        object.__delattr__(self, name)

    def add_param(
        self,
        name: str,
        shape: int | Sequence[int] | None = None,
        dtype: tp.Any = numpy.float32,
        initializer: tp.Any = None,
    ) -> None:
        """Register a new parameter (prefer assigning a Parameter in :meth:`init_scope`).

        Args:
            name: Attribute name of the parameter.
            shape: Shape of the array, or ``None`` to leave the parameter uninitialized.
            dtype: Dtype of the array when ``initializer`` is ``None`` or a scalar.
            initializer: An initializer, scalar or array; ``None`` fills the array with NaN.

        Raises:
            AttributeError: The link already has an attribute called ``name``.
        """
        _check_link_initialized(self)
        if name in self.__dict__:
            raise AttributeError(f"cannot register a new parameter {name}: attribute exists")
        if initializer is None:
            initializer = initializers.NaN(dtype)
        elif isinstance(initializer, (int, float, numpy.number)):
            initializer = initializers.Constant(initializer, dtype)
        param = Parameter(initializer, shape)
        if type(self._device) is not CpuDevice:  # a link on a GPU gets its new parameter there
            param.to_device(self._device)
        with self.init_scope():
            setattr(self, name, param)

    def add_persistent(self, name: str, value: tp.Any) -> None:
        """Register a persistent value: an array or object that is serialized with the link
        and (arrays) moved between devices with it. It is read as ``link.<name>``.

        Raises:
            AttributeError: The link already has an attribute called ``name``.
        """
        if name in self.__dict__:
            raise AttributeError(
                f"cannot register a new persistent value {name}: attribute exists"
            )
        self._persistent = _link_tree.insert_name(self._persistent, name)
        self._params = _link_tree.remove_name(self._params, name)
        object.__setattr__(self, name, value)

    def register_persistent(self, name: str) -> None:
        """Register the existing attribute ``name`` as a persistent value.

        Raises:
            AttributeError: The link has no attribute called ``name``.
        """
        if not hasattr(self, name):
            raise AttributeError(
                f"cannot register non-existent attribute {name} as a persistent value"
            )
        self._persistent = _link_tree.insert_name(self._persistent, name)
        self._params = _link_tree.remove_name(self._params, name)

    # -- traversal --------------------------------------------------------------------------

    def _child_links(self) -> Sequence[Link]:
        # The direct children in traversal order (none for a plain link); read, never mutated.
        return ()

    def _named_children(self) -> Sequence[tuple[str, Link]]:
        # The direct children with their names, in traversal order.
        return ()

    def params(self, include_uninit: bool = True) -> Iterator[Parameter]:
        """Yield every parameter of this link and its descendants.

        Args:
            include_uninit: Also yield parameters that have no array yet.
        """
        for link in _link_tree.walk_links(self):
            attrs = link.__dict__
            for name in link._params:
                param = attrs[name]
                if include_uninit or param._array is not None:
                    yield param

    def namedparams(self, include_uninit: bool = True) -> Iterator[tuple[str, Parameter]]:
        """Yield ``(path, parameter)`` for every parameter, paths like ``'/l1/W'``.

        Args:
            include_uninit: Also yield parameters that have no array yet.
        """
        for prefix, link in _link_tree.walk_named_links(self):
            attrs = link.__dict__
            for name in link._params:
                param = attrs[name]
                if include_uninit or param._array is not None:
                    yield f"{prefix}/{name}", param

    def links(self, skipself: bool = False) -> Iterator[Link]:
        """Yield this link (unless ``skipself``) and all its descendants, depth first."""
        walk = _link_tree.walk_links(self)
        if skipself:
            next(walk)
        yield from walk

    def namedlinks(self, skipself: bool = False) -> Iterator[tuple[str, Link]]:
        """Yield ``(path, link)`` for this link (path ``'/'``, unless ``skipself``) and all its
        descendants (paths like ``'/l1'``, ``'/block/0'``)."""
        walk = _link_tree.walk_named_links(self)
        next(walk)
        if not skipself:
            yield "/", self
        yield from walk

    def children(self) -> Iterator[Link]:
        """Yield the direct child links."""
        yield from self._child_links()

    def count_params(self) -> int:
        """Return the total number of elements of the initialized parameters.

        Uninitialized parameters are not counted; each one is reported with a warning.
        """
        size = 0
        for path, param in self.namedparams():
            if param._array is None:
                warnings.warn(
                    f"Parameter '{path}' has not been initialized, so the resulting count will "
                    "not include the number of parameters in it.",
                    stacklevel=2,
                )
                continue
            size += param._array.size
        return size

    # -- gradients and parameter values ------------------------------------------------------

    def cleargrads(self) -> None:
        """Set the gradient of every parameter to ``None`` (before a new backward pass)."""
        # Called every iteration: walk the links directly rather than through params().
        for link in _link_tree.walk_links(self):
            attrs = link.__dict__
            for name in link._params:
                param = attrs[name]
                array = param._array
                if type(param) is not Parameter or array is None:
                    param.cleargrad()
                elif type(array) is numpy.ndarray:
                    param._grad_var = None  # all that Parameter.cleargrad does here
                else:
                    param._clear_grad()  # what Parameter.cleargrad calls for an array

    def zerograds(self) -> None:
        """Fill the gradient of every initialized parameter with zeros.

        .. deprecated:: Use :meth:`cleargrads`, which is cheaper.
        """
        warnings.warn(
            "Link.zerograds is deprecated. Use Link.cleargrads instead.",
            DeprecationWarning,
            stacklevel=2,
        )
        with warnings.catch_warnings():  # one warning (above) for the whole link
            warnings.simplefilter("ignore", DeprecationWarning)
            for param in self.params():
                param.zerograd()  # the public method, as v7 (subclasses may override it)

    def addgrads(self, link: Link) -> None:
        """Add the gradients of ``link``'s parameters (same structure) to this link's."""
        _link_tree.add_grads(self, link)

    def copyparams(self, link: Link, copy_persistent: bool = True) -> None:
        """Copy the parameter values (and persistent values) of ``link`` into this link.

        Arrays are copied into the existing arrays, across devices if needed; the links must
        have the same structure. Parameters not yet initialized in ``link`` are skipped.

        Args:
            link: The source link.
            copy_persistent: Also copy persistent values (arrays in place, other objects by
                deep copy).
        """
        _link_tree.copy_params(self, link, copy_persistent)

    def enable_update(self) -> None:
        """Let optimizers update every parameter (sets each ``update_rule.enabled``)."""
        for param in self.params():
            if param.update_rule is not None:
                param.update_rule.enabled = True

    def disable_update(self) -> None:
        """Freeze every parameter: optimizers skip them (clears ``update_rule.enabled``)."""
        for param in self.params():
            if param.update_rule is not None:
                param.update_rule.enabled = False

    @property
    def update_enabled(self) -> bool:
        """``True`` when at least one parameter has an enabled update rule."""
        return any(p.update_rule is not None and p.update_rule.enabled for p in self.params())

    @property
    def _device_id(self) -> int | None:
        """The CUDA device ID of a link on a GPU, ``None`` elsewhere (Chainer v4's attribute).

        Kept, deprecated as in Chainer v7, for code that still reads it: use :attr:`device`.
        """
        warnings.warn(
            "Link._device_id is deprecated (as in Chainer v7): use Link.device instead",
            DeprecationWarning,
            stacklevel=2,
        )
        device = self.device
        return device.device.id if isinstance(device, GpuDevice) else None

    # -- copies -----------------------------------------------------------------------------

    def copy(self, mode: str = "share") -> Link:
        """Return a copy of this link (and its descendants).

        Args:
            mode: ``'share'``: new link objects whose parameters share arrays with this link
                (gradients are not shared); ``'copy'``: a deep copy, arrays included;
                ``'init'``: a deep copy whose initialized parameters are re-initialized with
                their initializers.
        """
        _link_tree.check_copy_mode(mode)
        if mode == "share":
            return self._copy_shared()
        ret = copy_module.deepcopy(self)
        ret.name = None
        if mode == "init":
            for param in ret.params(include_uninit=False):
                device = param.device
                param.initialize(param.shape)
                param.to_device(device)
        return ret

    def _copy_shared(self: _LinkT) -> _LinkT:
        # A shallow copy with new Parameter objects over the same arrays; subclasses copy
        # their children the same way.
        ret = copy_module.copy(self)
        attrs = ret.__dict__
        for name in self._params:
            param = copy_module.copy(attrs[name])
            param.cleargrad()
            attrs[name] = param
        if self._local_link_hooks is not None:
            ret._local_link_hooks = dict(self._local_link_hooks)
        ret.name = None
        return ret

    def repeat(self, n_repeat: int, mode: str = "init") -> chainer.Sequential:
        """Return a :class:`~chainer.Sequential` of ``n_repeat`` copies of this link.

        Args:
            n_repeat: Number of copies (none for ``n_repeat <= 0``).
            mode: How each copy is made, as in :meth:`copy`: ``'init'`` (fresh initial
                values), ``'copy'`` (equal but independent values) or ``'share'`` (shared
                arrays).
        """
        from chainer.sequential import Sequential

        ret = Sequential()
        if n_repeat <= 0:
            return ret
        _link_tree.check_copy_mode(mode)
        for _ in range(n_repeat):
            ret.append(self.copy(mode))
        return ret

    # -- devices and serialization -------------------------------------------------------------

    def device_resident_accept(self, visitor: tp.Any) -> None:
        """Visit this link, its parameters, its array persistents and its children."""
        super().device_resident_accept(visitor)
        attrs = self.__dict__
        for name in self._params:
            visitor.visit_variable(attrs[name])
        array_types = get_array_types()
        for name in self._persistent:
            value = attrs[name]
            if isinstance(value, array_types):
                object.__setattr__(self, name, visitor.visit_array(value))
        for child in self._child_links():
            child.device_resident_accept(visitor)

    def serialize(self, serializer: chainer.AbstractSerializer) -> None:
        """Save or load the parameters, persistent values and children with ``serializer``.

        ``serializer(key, value)`` returns the value to keep; children are serialized with
        ``serializer[name]``. Loading into an uninitialized parameter initializes it with the
        stored array's shape.
        """
        attrs = self.__dict__
        for name in self._params:
            param = attrs[name]
            # .array: a ChainerX parameter is written through its graph-free view
            data = serializer(name, param.array)
            if param._array is None and data is not None:
                param.initialize(data.shape)
                _copyto(param.array, data)
        for name in self._persistent:
            object.__setattr__(self, name, serializer(name, attrs[name]))
        for name, child in self._named_children():
            child.serialize(serializer[name])

    # -- calls and hooks ------------------------------------------------------------------------

    @property
    def local_link_hooks(self) -> dict[str, chainer.LinkHook]:
        """The hooks registered on this link (name -> hook), in registration order."""
        if self._local_link_hooks is None:
            self._local_link_hooks = {}
        return self._local_link_hooks

    def add_hook(self, hook: chainer.LinkHook, name: str | None = None) -> Link:
        """Register ``hook`` on this link under ``name`` (default ``hook.name``); returns self.

        Raises:
            TypeError: ``hook`` is not a :class:`~chainer.LinkHook`.
            KeyError: A hook with that name is already registered here.
        """
        if not isinstance(hook, link_hook.LinkHook):
            raise TypeError(f"hook must be a chainer.LinkHook, got {type(hook).__name__}")
        if name is None:
            name = hook.name
        hooks = self.local_link_hooks
        if name in hooks:
            raise KeyError(f"link hook {name!r} already exists on this link")
        hooks[name] = hook
        hook.added(self)
        return self

    def delete_hook(self, name: str) -> None:
        """Unregister the hook called ``name``.

        Raises:
            KeyError: No hook of that name is registered on this link.
        """
        hooks = self.local_link_hooks
        if name not in hooks:
            raise KeyError(f"link hook {name!r} does not exist on this link")
        hooks.pop(name).deleted(self)

    def __call__(self, *args: tp.Any, **kwargs: tp.Any) -> tp.Any:
        forward = getattr(self, "forward", None)
        if forward is None:
            mixin_call = _mixin_call(self)
            if mixin_call is not None:  # v7: a mixin after Link defines the call
                return mixin_call(*args, **kwargs)
            raise AttributeError(
                f"{type(self).__name__} has no forward method: define forward(self, ...) to "
                "make the link callable"
            )
        global_hooks = link_hook._state.hooks
        local_hooks = self._local_link_hooks
        if not global_hooks and not local_hooks:
            if "_params" not in self.__dict__:
                _check_link_initialized(self)
            return forward(*args, **kwargs)
        return link_hook._call_with_hooks(self, forward, args, kwargs, global_hooks, local_hooks)

    @classmethod
    def from_params(cls, *args: tp.Any, **kwargs: tp.Any) -> Link:
        """Create a link from given parameter arrays (implemented by links that support it)."""
        raise NotImplementedError(f"{cls.__name__} does not implement from_params")

    # -- text -----------------------------------------------------------------------------------

    @property
    def printable_specs(self) -> Iterator[tuple[str, tp.Any]]:
        """``(keyword, value)`` pairs shown by ``str(link)``; subclasses yield their
        constructor arguments (the base link yields none)."""
        yield from ()

    def __str__(self) -> str:
        specs = ", ".join(f"{key}={value}" for key, value in self.printable_specs)
        return f"{type(self).__name__}({specs})"

    def __repr__(self) -> str:
        return str(self)


class Chain(Link):
    """A link that holds child links as attributes.

    Child links are registered by assigning them to attributes inside :meth:`init_scope`
    (or with :meth:`add_link`), and are then part of every traversal, copy, transfer and
    serialization of the chain.

    Args:
        links: Old-style registration of child links by name (prefer :meth:`init_scope`).

    Example:
        >>> class MLP(chainer.Chain):
        ...     def __init__(self):
        ...         super().__init__()
        ...         with self.init_scope():
        ...             self.l1 = L.Linear(None, 3)
        ...             self.l2 = L.Linear(None, 2)
        ...
        ...     def forward(self, x):
        ...         return self.l2(self.l1(x))
        >>> [path for path, _ in MLP().namedparams()]
        ['/l1/W', '/l1/b', '/l2/W', '/l2/b']
    """

    # frozenset(): a Chain whose __init__ has not run has no children (and cannot add any).
    _children: set[str] = frozenset()  # type: ignore[assignment]

    def __init__(self, **links: Link) -> None:
        super().__init__()
        # The names of the child links: a set, as in Chainer (code written for v7 reads it);
        # traversals visit them sorted by name.
        self._children = set()
        for name, link in links.items():
            self.add_link(name, link)

    def __getitem__(self, name: str) -> tp.Any:
        """The attribute called ``name`` (``chain['l1']`` is ``chain.l1``)."""
        return getattr(self, name)

    def _register_attribute(self, name: str, value: tp.Any) -> None:
        if isinstance(value, Link):
            if hasattr(self, name):
                raise AttributeError(f"cannot register a new link {name}: attribute exists")
            value.name = name
            self._children.add(name)
        else:
            super()._register_attribute(name, value)

    def __delattr__(self, name: str) -> None:
        if name in self._children:
            self._children.discard(name)
        super().__delattr__(name)

    def add_link(self, name: str, link: Link) -> None:
        """Register ``link`` as the child called ``name`` (prefer :meth:`init_scope`).

        Raises:
            AttributeError: The chain already has an attribute called ``name``.
            TypeError: ``link`` is not a :class:`Link`.
        """
        if name in self.__dict__:
            raise AttributeError(f"cannot register a new link {name}: attribute exists")
        if not isinstance(link, Link):
            raise TypeError(f"cannot register a non-link object as a child: got {link!r}")
        with self.init_scope():
            setattr(self, name, link)

    def _child_links(self) -> Sequence[Link]:
        attrs = self.__dict__
        return [attrs[name] for name in sorted(self._children)]

    def _named_children(self) -> Sequence[tuple[str, Link]]:
        attrs = self.__dict__
        return [(name, attrs[name]) for name in sorted(self._children)]

    def _copy_shared(self: _ChainT) -> _ChainT:
        ret = super()._copy_shared()
        ret._children = set(self._children)  # the copy registers its own children
        attrs = ret.__dict__
        for name in self._children:
            child = attrs[name]._copy_shared()
            child.name = name
            attrs[name] = child
        return ret

    def __str__(self) -> str:
        return _link_tree.tree_text(self, self._named_children())


class ChainList(Link, MutableSequence):
    """A link that holds child links in a list.

    Children are named by their position (``'/0/W'``); use it for a variable number of
    children. It supports the mutable sequence operations (``append``, ``insert``, indexing,
    ``del``, ``len``, iteration).

    Args:
        links: The initial child links.

    Example:
        >>> class Stack(chainer.ChainList):
        ...     def __init__(self, n):
        ...         super().__init__(*[L.Linear(None, 4) for _ in range(n)])
        ...
        ...     def forward(self, x):
        ...         for layer in self:
        ...             x = layer(x)
        ...         return x
        >>> stack = Stack(2)
        >>> stack(numpy.ones((1, 3), numpy.float32)).shape, len(stack)
        ((1, 4), 2)
    """

    def __init__(self, *links: Link) -> None:
        super().__init__()
        self._children: list[Link] = []
        for link in links:
            self.add_link(link)

    def _register_attribute(self, name: str, value: tp.Any) -> None:
        if isinstance(value, Link):
            raise TypeError(
                f"cannot register the link {name!r} by assignment within a "
                '"with chainlist.init_scope():" block: use add_link() or append()'
            )
        super()._register_attribute(name, value)

    @staticmethod
    def _check_link(link: tp.Any) -> None:
        if not isinstance(link, Link):
            raise TypeError(f"a ChainList holds only links, got {type(link).__name__}")

    def _rename_children(self) -> None:
        for index, child in enumerate(self._children):
            child.name = str(index)

    def add_link(self, link: Link) -> None:
        """Append ``link`` as the last child."""
        self.append(link)

    def insert(self, index: int, link: Link) -> None:
        """Insert ``link`` before position ``index`` (children after it are renumbered)."""
        self._check_link(link)
        self._children.insert(index, link)
        self._rename_children()

    def __getitem__(self, index: int | slice) -> tp.Any:
        """The child at ``index`` (a list of children for a slice)."""
        return self._children[index]

    def __setitem__(self, index: int | slice, value: tp.Any) -> None:
        links = list(value) if isinstance(index, slice) else [value]
        for link in links:
            self._check_link(link)
        if isinstance(index, slice):
            self._children[index] = links
        else:
            self._children[index] = value
        self._rename_children()

    def __delitem__(self, index: int | slice) -> None:
        del self._children[index]
        self._rename_children()

    def __iter__(self) -> Iterator[Link]:
        return iter(self._children)

    def __len__(self) -> int:
        return len(self._children)

    def _child_links(self) -> Sequence[Link]:
        return self._children

    def _named_children(self) -> Sequence[tuple[str, Link]]:
        return [(str(index), child) for index, child in enumerate(self._children)]

    def _copy_shared(self: _ChainListT) -> _ChainListT:
        ret = super()._copy_shared()
        ret._children = [child._copy_shared() for child in self._children]
        ret._rename_children()
        return ret

    def __str__(self) -> str:
        return _link_tree.tree_text(self, self._named_children())


def _mixin_call(link: Link):
    """``__call__`` of a class after :class:`Link` in the link's MRO (a mixin), bound."""
    mro = type(link).__mro__
    for klass in mro[mro.index(Link) + 1 :]:
        call = klass.__dict__.get("__call__")
        if call is not None:
            return call.__get__(link, type(link)) if hasattr(call, "__get__") else call
    return None
