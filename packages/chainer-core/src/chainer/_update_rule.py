"""``Hyperparameter`` and ``UpdateRule``: the update formula of one parameter.

Kept apart from the optimizers so that each module stays one concern. The public path of these
classes is ``chainer.optimizer`` (their ``__module__`` says so, for pickles and reprs).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable
from typing import Any

import numpy

from chainer import _variable_checks, backend
from chainer.backends._chainerx import ChainerxDevice
from chainer.backends.cuda import GpuDevice
from chainer.variable import Variable


class Hyperparameter:
    """A set of hyperparameters whose missing entries are looked up in a parent set.

    Args:
        parent: The hyperparameter set to fall back to, or ``None``.

    Example:
        >>> optimizer_hp = Hyperparameter()
        >>> optimizer_hp.lr = 0.1
        >>> rule_hp = Hyperparameter(optimizer_hp)
        >>> rule_hp.lr
        0.1
        >>> rule_hp.lr = 0.5  # overrides for this rule only
        >>> optimizer_hp.lr
        0.1
    """

    __module__ = "chainer.optimizer"

    def __init__(self, parent: Hyperparameter | None = None) -> None:
        self._parent = parent

    def __getattr__(self, name: str) -> Any:
        # Only reached when normal lookup fails. Dunder names are never delegated, and an
        # instance being unpickled (empty __dict__) must miss plainly rather than recurse.
        if name.startswith("__") or "_parent" not in self.__dict__:
            raise AttributeError(name)
        parent = self._parent
        while parent is not None:
            if name in parent.__dict__:
                return parent.__dict__[name]
            parent = parent._parent
        raise AttributeError(
            f"hyperparameter {name!r} is not set; set ones: {sorted(self.get_dict())}"
        )

    def __repr__(self) -> str:
        entries = ", ".join(f"{key}={value!r}" for key, value in sorted(self.get_dict().items()))
        return f"Hyperparameter({entries})"

    @property
    def parent(self) -> Hyperparameter | None:
        """The hyperparameter set this one falls back to."""
        return self._parent

    def get_dict(self) -> dict[str, Any]:
        """Return every visible entry as a dict; an entry set here wins over the parent's."""
        merged = {} if self._parent is None else self._parent.get_dict()
        merged.update((key, value) for key, value in self.__dict__.items() if key != "_parent")
        return merged


class HyperparameterProxy:
    """Descriptor that exposes ``obj.hyperparam.<name>`` as ``obj.<name>``.

    Args:
        attr_name: The hyperparameter to alias.
    """

    __module__ = "chainer.optimizer"

    def __init__(self, attr_name: str) -> None:
        self._attr_name = attr_name
        self.__doc__ = f"Alias to ``self.hyperparam.{attr_name}``."

    def __get__(self, obj, objtype=None) -> Any:
        if obj is None:
            return self
        return getattr(obj.hyperparam, self._attr_name)

    def __set__(self, obj, value: Any) -> None:
        setattr(obj.hyperparam, self._attr_name, value)


def unscale_grad(param) -> None:
    """Divide a gradient computed with a loss scale (``param._loss_scale``) by that scale."""
    if param._loss_scale is not None:
        # ChainerX's backward returns unscaled gradients itself (as in v7).
        if not _variable_checks.is_chainerx_array(param._array):
            # Out of place: a gradient may be a read-only broadcast view.
            param.grad = param.grad / param._loss_scale
        param._loss_scale = None


def _register_hook(pre: dict, post: dict, hook: Callable, name: str | None, timing: str) -> None:
    """Add ``hook`` to ``pre`` or ``post`` (shared by optimizers and update rules)."""
    if not callable(hook):
        raise TypeError(f"a hook must be callable, got {type(hook).__name__} {hook!r}")
    if timing not in ("pre", "post", "auto"):
        raise ValueError(f"timing must be 'pre', 'post' or 'auto', got {timing!r}")
    if timing == "auto":
        timing = getattr(hook, "timing", "pre")
        if timing not in ("pre", "post"):  # v7: warn and run it before the update
            warnings.warn(
                f"hook {hook!r} has timing attribute {timing!r}, not 'pre' or 'post'; it "
                "runs before the update ('pre')",
                stacklevel=3,
            )
            timing = "pre"
    if name is None:
        name = getattr(hook, "name", None) or getattr(hook, "__name__", None)
        if name is None:
            raise ValueError(
                f"hook {hook!r} has no name: pass name=... or give it a 'name' attribute"
            )
    if name in pre or name in post:
        raise KeyError(f"hook {name!r} already exists: remove it first or use another name")
    (pre if timing == "pre" else post)[name] = hook


def _unregister_hook(pre: dict, post: dict, name: str) -> None:
    for hooks in (pre, post):
        if name in hooks:
            del hooks[name]
            return
    raise KeyError(f"no hook named {name!r}; registered hooks: {[*pre, *post]}")


def _is_default_chainerx(device: ChainerxDevice) -> bool:
    chx_device = getattr(device, "device", None)  # a stand-in device may have none
    return chx_device is not None and chx_device is device.xp.get_default_device()


class UpdateRule:
    """Base class of update rules: the update formula of one parameter.

    Subclasses implement :meth:`update_core_cpu` and :meth:`update_core_gpu` (or override
    :meth:`update_core`) and, if they keep per-parameter arrays, :meth:`init_state`.

    Args:
        parent_hyperparam: The optimizer's :class:`Hyperparameter` this rule falls back to.

    Attributes:
        hyperparam (Hyperparameter): This rule's hyperparameters.
        enabled (bool): ``False`` freezes the parameter (``update`` does nothing).
        t (int): Number of updates done by this rule.
    """

    __module__ = "chainer.optimizer"

    #: Whether the rule treats the array elementwise (so any memory layout is fine).
    is_elementwise = False

    def __init__(self, parent_hyperparam: Hyperparameter | None = None) -> None:
        self._pre_update_hooks: dict[str, Callable] = {}
        self._post_update_hooks: dict[str, Callable] = {}
        self._state: dict | None = None
        self.enabled = True
        self.hyperparam = Hyperparameter(parent_hyperparam)
        self.t = 0
        self._use_fp32_update = False
        self._fp32_param: Variable | None = None

    @property
    def state(self) -> dict | None:
        """Per-parameter state arrays; ``None`` until the first update (see :meth:`init_state`)."""
        return self._state

    def add_hook(self, hook: Callable, name: str | None = None, timing: str = "auto") -> None:
        """Register ``hook(rule, param)``, called before or after each update of the parameter.

        Args:
            hook: A callable taking the update rule and the parameter.
            name: Its name; defaults to ``hook.name``, then ``hook.__name__``.
            timing: ``'pre'`` (before :meth:`update_core`), ``'post'`` (after), or ``'auto'``
                (``hook.timing`` if the hook has it, else ``'pre'``).
        """
        _register_hook(self._pre_update_hooks, self._post_update_hooks, hook, name, timing)

    def remove_hook(self, name: str) -> None:
        """Remove the hook registered as ``name`` (:class:`KeyError` if there is none)."""
        _unregister_hook(self._pre_update_hooks, self._post_update_hooks, name)

    def update(self, param) -> None:
        """Update ``param`` with its gradient: unscale, pre hooks, :meth:`update_core`, post hooks.

        Nothing happens when the rule is disabled or the parameter has no array or gradient. A
        gradient computed with a loss scale (``param._loss_scale``) is divided by it first.
        """
        if not self.enabled or param.array is None or param.grad is None:
            return
        self.t += 1
        if self._use_fp32_update and param.dtype == numpy.float16:
            self._update_fp32_master(param)
            return
        unscale_grad(param)
        self._prepare(param)
        self._run_hooks_and_core(param)

    def _group_key(self, param) -> Hashable | None:
        """Key under which this rule's update may run grouped with others, or ``None``.

        Rules with equal keys are updated together by the callable that is the key's first
        item, given the list of their parameters (see ``chainer._grouped_update``). The base
        class never groups.
        """
        return None

    def _update_fp32_master(self, param) -> None:
        # Small float16 steps round away; a float32 master copy accumulates them.
        master = self._fp32_param
        if master is None:
            master = self._fp32_param = Variable(
                param.array.astype(numpy.float32), name=param.name
            )
        elif master.device != param.device:
            master.to_device(param.device)
        grad = param.grad.astype(numpy.float32)
        if param._loss_scale is not None:
            grad /= param._loss_scale
        master.grad = grad
        self._prepare(master)
        self._run_hooks_and_core(master)
        backend.copyto(param.array, master.array)
        master.grad = None

    def _run_hooks_and_core(self, param) -> None:
        if self._pre_update_hooks:
            for hook in tuple(self._pre_update_hooks.values()):
                hook(self, param)
        self.update_core(param)
        if self._post_update_hooks:
            for hook in tuple(self._post_update_hooks.values()):
                hook(self, param)

    def _prepare(self, param) -> None:
        """Create the state on first use and keep its arrays on the parameter's device."""
        device = param.device
        if self._state is None:
            with device.create_context():
                self._state = {}
                self.init_state(param)
        if self._state:
            array_types = backend.get_array_types()
            for key, value in self._state.items():
                if isinstance(value, array_types) and not device.is_array_supported(value):
                    self._state[key] = device.send(value)

    def init_state(self, param) -> None:
        """Fill :attr:`state` for ``param`` (called once, on the first update). No-op here."""

    def update_core(self, param) -> None:
        """Apply the formula: dispatch to the CPU, GPU or ChainerX implementation."""
        device = param.device
        if isinstance(device, ChainerxDevice) and _is_default_chainerx(device):
            self.update_core_chainerx(param)  # already the default device: no context to enter
            return
        with device.create_context():
            if isinstance(device, ChainerxDevice):
                self.update_core_chainerx(param)
            elif isinstance(device, GpuDevice):
                self.update_core_gpu(param)
            else:
                self.update_core_cpu(param)

    def update_core_cpu(self, param) -> None:
        """Update a parameter whose array is a NumPy array."""
        raise NotImplementedError(
            f"{type(self).__name__} does not implement update_core_cpu (or update_core)"
        )

    def update_core_gpu(self, param) -> None:
        """Update a parameter whose array is a CuPy array."""
        raise NotImplementedError(
            f"{type(self).__name__} does not implement update_core_gpu (or update_core)"
        )

    def update_core_chainerx(self, param) -> None:
        """Update a parameter whose array is a ChainerX array.

        The default runs :meth:`update_core_cpu` (native backend) or :meth:`update_core_gpu`
        (cuda backend) on NumPy/CuPy counterparts of the array, gradient and state, then
        copies the results back into the ChainerX arrays.
        """
        fallback = param.device.fallback_device
        core = self.update_core_gpu if isinstance(fallback, GpuDevice) else self.update_core_cpu
        state = self._state if self._state is not None else {}
        chainerx_state = {}
        for key, value in state.items():
            if isinstance(value, param.device.supported_array_types):
                chainerx_state[key] = value
                state[key] = backend.from_chx(value)
        temp = Variable(backend.from_chx(param.array), name=param.name)
        temp.grad = backend.from_chx(param.grad)
        with fallback.create_context():
            core(temp)
        # Copy back rather than rely on shared memory: the rule may have replaced arrays.
        for key, original in chainerx_state.items():
            backend.copyto(original, state[key])
            state[key] = original
        backend.copyto(param.array, temp.array)

    def use_fp32_update(self, flag: bool = True) -> None:
        """Update float16 parameters through a float32 master copy (``flag=False`` stops it).

        The master copy is made from the parameter at the first update; the state then holds
        float32 arrays, and the parameter receives the master copy cast to float16.
        """
        self._use_fp32_update = flag
        if not flag:
            self._fp32_param = None

    def serialize(self, serializer) -> None:
        """Save or load ``t`` and every state entry.

        Loading into a rule whose state does not exist yet creates it from the snapshot (the
        keys come from :meth:`init_state`). If the snapshot has no state, which is allowed when
        the rule is disabled or never stepped (``t == 0``) or the deserializer is not strict,
        the state stays ``None`` and is initialized at the next update.
        """
        self.t = serializer("t", self.t)
        if self._state is not None:
            for key in list(self._state):
                self._state[key] = serializer(key, self._state[key])
            return
        from chainer import serializer as serializer_module

        if isinstance(serializer, serializer_module.Deserializer):
            self._state = self._load_state(serializer)

    def _load_state(self, deserializer) -> dict | None:
        # init_state on a one-element probe tells which keys the state has.
        probe = numpy.zeros(1, numpy.float32)
        self._state = {}
        try:
            self.init_state(Variable(probe, grad=probe.copy()))
            keys = list(self._state)
        finally:
            self._state = None
        loaded = {}
        for key in keys:
            try:
                value = deserializer(key, None)
            except KeyError:
                # A rule that never stepped never had state, e.g. that of a parameter still
                # uninitialized when the snapshot was taken.
                if self.enabled and self.t > 0:
                    raise
                value = None
            if value is None:
                return None
            loaded[key] = value
        return loaded or None
