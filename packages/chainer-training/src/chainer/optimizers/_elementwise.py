"""What every optimizer's update rule shares: hyperparameter setup and kernel steps.

CPU updates run a *kernel* (a function of NumPy arrays applying the formula in place through
``out=``) by :func:`~chainer.optimizers._chunks.update_in_chunks`, one parameter at a time, or
by :func:`~chainer.optimizers._grouped.update_group` for many parameters at once. GPU updates
run one CuPy elementwise kernel per rule, as Chainer's do. ChainerX updates run the ChainerX
twin of the CPU kernel (registered with :func:`chainerx_kernel_for`) on the parameter's array
seen through ``as_grad_stopped()``, so the array stays the one in the graph; a kernel without
a twin runs on NumPy views of the ChainerX arrays (``UpdateRule.update_core_chainerx``).
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Hashable
from typing import Any

import numpy

from chainer import _variable_checks
from chainer.optimizer import Hyperparameter, UpdateRule
from chainer.optimizers._chunks import KernelCall, update_in_chunks
from chainer.optimizers._grouped import update_group as _update_group
from chainer.optimizers._grouped_chainerx import CHAINERX_KERNEL_DTYPES as _CHAINERX_KERNEL_DTYPES
from chainer.optimizers._grouped_chainerx import CHAINERX_KERNELS as _CHAINERX_KERNELS
from chainer.optimizers._grouped_chainerx import chainerx_group_key


def chainerx_kernel_for(cpu_kernel: Callable[..., None]) -> Callable:
    """Register the decorated function as the ChainerX form of ``cpu_kernel``.

    The ChainerX kernel takes ``(param, grad, *state, *scalars)`` like the CPU one minus its
    scratch buffers, and updates ``param`` and the state in place with ChainerX operations.
    """

    def register(kernel: Callable[..., None]) -> Callable[..., None]:
        _CHAINERX_KERNELS[cpu_kernel] = kernel
        return kernel

    return register


def set_hyperparams(hyperparam: Hyperparameter, owner: str, **values: Any) -> None:
    """Set each of ``values`` on ``hyperparam`` after checking that it is a real number.

    Args:
        hyperparam: The set to write.
        owner: Class name for error messages.
        **values: Name and value of each hyperparameter.
    """
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(
                f"{owner}: hyperparameter {name!r} must be a real number, "
                f"got {type(value).__name__} {value!r}"
            )
        setattr(hyperparam, name, value)


def set_flags(hyperparam: Hyperparameter, owner: str, **flags: Any) -> None:
    """Set each of ``flags`` on ``hyperparam`` after checking that it is a bool or a number.

    A number is kept as given and read by its truth value, as Chainer v7 does.
    """
    for name, value in flags.items():
        if not isinstance(value, (bool, numpy.bool_, numbers.Real)):
            raise TypeError(
                f"{owner}: option {name!r} must be a bool, got {type(value).__name__} {value!r}"
            )
        setattr(hyperparam, name, bool(value) if isinstance(value, numpy.bool_) else value)


def default_hyperparam(**values: Any) -> Hyperparameter:
    """A parentless :class:`Hyperparameter` holding an optimizer's default values."""
    hyperparam = Hyperparameter()
    for name, value in values.items():
        setattr(hyperparam, name, value)
    return hyperparam


class ElementwiseRule(UpdateRule):
    """An update rule whose formula treats each element on its own.

    Args:
        parent_hyperparam: The optimizer's hyperparameters; ``None`` falls back to
            ``defaults`` so that a rule made by hand works on its own.
        defaults: The optimizer's default hyperparameters.
        **overrides: Values this rule uses instead of its parent's (``None``: no override);
            options whose default is a bool must be bools, the others real numbers.
    """

    is_elementwise = True
    #: The pack of a grouped update whose flat arrays hold this rule's state (``_grouped``).
    _pack = None
    #: The plan of the grouped update of the group this rule comes first in (``_grouped``).
    _group_plan = None

    def __init__(
        self,
        parent_hyperparam: Hyperparameter | None,
        defaults: Hyperparameter,
        **overrides: Any,
    ) -> None:
        super().__init__(defaults if parent_hyperparam is None else parent_hyperparam)
        owner = type(self).__name__
        given = {name: value for name, value in overrides.items() if value is not None}
        # The defaults tell options (bools) from numeric hyperparameters.
        flags = {n: v for n, v in given.items() if isinstance(getattr(defaults, n), bool)}
        set_flags(self.hyperparam, owner, **flags)
        set_hyperparams(
            self.hyperparam, owner, **{n: v for n, v in given.items() if n not in flags}
        )

    def __getstate__(self) -> dict:
        # A pack or plan holds the other rules of its group: never pickled or copied with
        # this one.
        state = self.__dict__.copy()
        state.pop("_pack", None)
        state.pop("_group_plan", None)
        return state

    def _kernel_call(self) -> KernelCall:
        """The CPU kernel, the state keys it updates, its scratch count and trailing scalars.

        Called after ``t`` is advanced, once per update; the scalars may depend on ``t``.
        """
        raise NotImplementedError(f"{type(self).__name__} does not implement _kernel_call")

    def _read_hyperparam(self) -> Hyperparameter:
        """:attr:`hyperparam`, or the set it reads every value from when it sets none itself:
        the same values, without a fallback lookup per read (the kernel's scalars)."""
        hyperparam = self.hyperparam
        while len(hyperparam.__dict__) == 1 and hyperparam._parent is not None:
            hyperparam = hyperparam._parent  # only ``_parent`` is set
        return hyperparam

    def update_core_cpu(self, param) -> None:
        kernel, keys, n_scratch, scalars = self._kernel_call()
        state = self._state
        update_in_chunks(
            kernel, param.array, param.grad, tuple(state[k] for k in keys), n_scratch, *scalars
        )

    def update_core_chainerx(self, param) -> None:
        """Update in place with the ChainerX twin of the CPU kernel, if it has one.

        A subclass that overrides ``update_core_cpu``, a kernel without a twin and float16
        arrays take the NumPy path of :meth:`UpdateRule.update_core_chainerx` instead.
        """
        if (
            type(self).update_core_cpu is ElementwiseRule.update_core_cpu
            and param.dtype in _CHAINERX_KERNEL_DTYPES
        ):
            cpu_kernel, keys, _, scalars = self._kernel_call()
            kernel = _CHAINERX_KERNELS.get(cpu_kernel)
            if kernel is not None:
                state = self._state
                kernel(
                    param.array.as_grad_stopped(),
                    param.grad.as_grad_stopped(),
                    *(state[key] for key in keys),
                    *scalars,
                )
                return
        super().update_core_chainerx(param)

    def _group_key(self, param) -> Hashable | None:
        # Rules of one class at one ``t`` that read every hyperparameter from the same parent
        # compute the same kernel scalars, so one computation serves the whole group. The
        # caller (``chainer._grouped_update``) found UpdateRule's update machinery; with no
        # hook it unscales, prepares and runs ``update_core``, which the drivers replace.
        cls = type(self)
        hyperparam = self.hyperparam
        if (
            len(hyperparam.__dict__) != 1
            or cls.update_core_cpu is not ElementwiseRule.update_core_cpu
            or cls._kernel_call is ElementwiseRule._kernel_call
            or self._pre_update_hooks
            or self._post_update_hooks
        ):
            return None
        array = param._array
        if type(array) is numpy.ndarray:
            # No float32 master copy; NumPy arrays for the gradient (``param.grad``, read
            # directly: ``None`` is no gradient, no update) and every state entry.
            if self._use_fp32_update and array.dtype == numpy.float16:
                return None
            grad_var = param._grad_var
            if grad_var is None or type(grad_var._array) is not numpy.ndarray:
                return None
            state = self._state
            if state is not None:
                for value in state.values():
                    if type(value) is not numpy.ndarray:
                        return None
            return (_update_group, cls, self.t, hyperparam._parent)
        if cls.update_core_chainerx is ElementwiseRule.update_core_chainerx and (
            _variable_checks.is_chainerx_array(array)
        ):
            return chainerx_group_key(self, param, (cls, self.t, hyperparam._parent))
        return None


def gpu_compute_types(dtype: numpy.dtype) -> tuple[type, dict[str, str]]:
    """The scalar type a GPU kernel computes in, and its names in the kernel's source.

    float32 for float16 parameters (their state stays float16, as Chainer's Adam-like rules
    do), else the parameter's own type. The names: ``P`` for the kernel's scalar parameters
    (CuPy binds type placeholders from arrays only), ``C`` for its local variables.
    """
    dtype = numpy.dtype(dtype)
    compute = numpy.dtype(numpy.float32) if dtype == numpy.float16 else dtype
    names = {"P": compute.name, "C": "float" if compute == numpy.float32 else "double"}
    return compute.type, names


def check_eps_fits(owner: str, dtype: numpy.dtype, eps: float) -> None:
    """Refuse an ``eps`` that rounds to 0 in ``dtype`` (the type a GPU kernel computes in).

    A zero ``eps`` turns the step of a parameter with zero gradients into 0 / 0.
    """
    if eps != 0 and numpy.dtype(dtype).type(eps) == 0:
        raise ValueError(
            f"{owner}: eps={eps!r} is too small for {numpy.dtype(dtype).name} (it rounds to 0): "
            "use a larger eps or use_fp32_update()"
        )


def update_moments(grad, m, v, scratch, one_minus_beta1: float, one_minus_beta2: float) -> None:
    """Kernel step shared by Adam-like rules: running first and second moments of ``grad``.

    ``m += (1 - beta1) * (grad - m)`` and ``v += (1 - beta2) * (grad**2 - v)``, in place.
    """
    numpy.subtract(grad, m, out=scratch)
    scratch *= one_minus_beta1
    m += scratch
    numpy.multiply(grad, grad, out=scratch)
    scratch -= v
    scratch *= one_minus_beta2
    v += scratch


def step_by_root_mean_square(
    param, grad, mean_square, scratch, lr: float, eps: float, eps_inside_sqrt: bool = False
) -> None:
    """Kernel step shared by AdaGrad and RMSprop: ``param -= lr * grad / (sqrt(ms) + eps)``.

    With ``eps_inside_sqrt`` the denominator is ``sqrt(ms + eps)`` instead.
    """
    if eps_inside_sqrt:
        numpy.add(mean_square, eps, out=scratch)
        numpy.sqrt(scratch, out=scratch)
    else:
        numpy.sqrt(mean_square, out=scratch)
        scratch += eps
    numpy.divide(grad, scratch, out=scratch)
    scratch *= lr
    param -= scratch


def update_moments_chainerx(grad, m, v, one_minus_beta1: float, one_minus_beta2: float) -> None:
    """ChainerX form of :func:`update_moments`."""
    m += (grad - m) * one_minus_beta1
    v += (grad * grad - v) * one_minus_beta2


def step_by_root_mean_square_chainerx(
    param, grad, mean_square, lr: float, eps: float, eps_inside_sqrt: bool = False
) -> None:
    """ChainerX form of :func:`step_by_root_mean_square`."""
    import chainerx

    if eps_inside_sqrt:
        denominator = chainerx.sqrt(mean_square + eps)
    else:
        denominator = chainerx.sqrt(mean_square) + eps
    param -= grad / denominator * lr


def decay_toward_square(mean_square, x, scratch, decay: float) -> None:
    """Kernel step: the running mean ``mean_square = decay * mean_square + (1 - decay) * x**2``."""
    mean_square *= decay
    numpy.multiply(x, x, out=scratch)
    scratch *= 1 - decay
    mean_square += scratch


def decay_toward_square_chainerx(mean_square, x, decay: float) -> None:
    """ChainerX form of :func:`decay_toward_square`."""
    mean_square *= decay
    mean_square += x * x * (1 - decay)
