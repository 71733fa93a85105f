"""What every optimizer's update rule shares: hyperparameter setup and in-place kernel drivers.

CPU updates run a *kernel*: a function of 1-D NumPy arrays that applies the update formula
with ufuncs writing through ``out=`` into the parameter, the state and a few scratch buffers.
:func:`update_in_chunks` feeds it aligned chunks of the flattened arrays. NumPy evaluates one
operation at a time, so a formula applied to whole arrays would allocate a full-size
temporary per operation and stream every array through main memory once per operation;
chunks that fit in cache, with scratch buffers reused across steps, avoid both. The scratch
buffers are per thread and per dtype, so their total size is fixed however large the model.

GPU updates run one CuPy elementwise kernel per rule, as Chainer's do.
"""

from __future__ import annotations

import numbers
import threading
from collections.abc import Callable, Hashable
from typing import Any

import numpy

from chainer._grouped_update import runs_plain_cpu_update
from chainer._update_rule import unscale_grad
from chainer.optimizer import Hyperparameter, UpdateRule

#: Elements per chunk: 256 KiB per float64 buffer keeps a whole kernel's working set in L2.
CHUNK_SIZE = 1 << 15
#: Arrays up to this many elements that need no float16 staging get one kernel call: below
#: a few hundred KiB per array, the per-chunk Python and ufunc-call overhead costs more than
#: the working set outgrowing L2 (measured: SGD on 78,400 float32 elements 8.7 us whole
#: against 14.4 us in three chunks; Adam 79 against 90 us; equal at 131,072 elements).
SINGLE_CALL_SIZE = 4 * CHUNK_SIZE

_thread_local = threading.local()
_FLOAT16 = numpy.dtype(numpy.float16)
_FLOAT32 = numpy.dtype(numpy.float32)

#: What :meth:`ElementwiseRule._kernel_call` returns: ``(kernel, state keys, scratch count,
#: scalars)``, run as ``update_in_chunks(kernel, param, grad, state, n_scratch, *scalars)``.
KernelCall = tuple[Callable[..., None], tuple[str, ...], int, tuple[Any, ...]]


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

    def _kernel_call(self) -> KernelCall:
        """The CPU kernel, the state keys it updates, its scratch count and trailing scalars.

        Called after ``t`` is advanced, once per update; the scalars may depend on ``t``.
        """
        raise NotImplementedError(f"{type(self).__name__} does not implement _kernel_call")

    def update_core_cpu(self, param) -> None:
        kernel, keys, n_scratch, scalars = self._kernel_call()
        state = self._state
        update_in_chunks(
            kernel, param.array, param.grad, tuple(state[k] for k in keys), n_scratch, *scalars
        )

    def _group_key(self, param) -> Hashable | None:
        # Rules of one class at one ``t`` that read every hyperparameter from the same parent
        # compute the same kernel scalars, so one computation serves the whole group.
        hyperparam = self.hyperparam
        if (
            len(hyperparam.__dict__) != 1
            or type(self).update_core_cpu is not ElementwiseRule.update_core_cpu
            or type(self)._kernel_call is ElementwiseRule._kernel_call
            or not runs_plain_cpu_update(self, param)
        ):
            return None
        return (_update_group, type(self), self.t, hyperparam.parent)


def _update_group(params: list) -> None:
    """Update parameters whose rules share a group key, as ``param.update()`` would each.

    The kernel and its scalars come from the first rule (equal for all of them, see
    :meth:`ElementwiseRule._group_key`); each parameter then runs the same kernel call as its
    own ``update_core_cpu``, so the results are bitwise those of the per-parameter path.
    """
    rules = [param.update_rule for param in params]
    if len({id(rule) for rule in rules}) != len(rules):
        # A parameter listed twice (a link registered under two names) is updated twice, each
        # update at its own ``t``: only the per-parameter path does that.
        for param in params:
            param.update()
        return
    for rule, param in zip(rules, params):
        rule.t += 1
        unscale_grad(param)
        if rule._state is None:
            rule._prepare(param)
    kernel, keys, n_scratch, scalars = rules[0]._kernel_call()
    for rule, param in zip(rules, params):
        state = rule._state
        update_in_chunks(
            kernel, param.array, param.grad, tuple(state[k] for k in keys), n_scratch, *scalars
        )


def check_eps_fits(owner: str, dtype: numpy.dtype, eps: float) -> None:
    """Refuse an ``eps`` that rounds to 0 in ``dtype`` (GPU kernels compute in the array's dtype).

    A zero ``eps`` turns the step of a parameter with zero gradients into 0 / 0.
    """
    if eps != 0 and numpy.dtype(dtype).type(eps) == 0:
        raise ValueError(
            f"{owner}: eps={eps!r} is too small for {numpy.dtype(dtype).name} (it rounds to 0): "
            "use a larger eps or use_fp32_update()"
        )


def compute_dtype(dtype: numpy.dtype) -> numpy.dtype:
    """The dtype the formula is evaluated in: float32 for float16 arrays, else their own."""
    dtype = numpy.dtype(dtype)
    return numpy.dtype(numpy.float32) if dtype == numpy.float16 else dtype


def _scratch(dtype: numpy.dtype, count: int) -> list[numpy.ndarray]:
    pools = _thread_local.__dict__.setdefault("pools", {})
    buffers = pools.get(dtype)
    if buffers is None:
        buffers = pools[dtype] = []
    while len(buffers) < count:
        buffers.append(numpy.empty(SINGLE_CALL_SIZE, dtype))
    return buffers[:count]


def update_in_chunks(
    kernel: Callable[..., None],
    param: numpy.ndarray,
    grad: numpy.ndarray,
    state: tuple[numpy.ndarray, ...],
    n_scratch: int,
    *scalars: Any,
) -> None:
    """Run ``kernel(p, g, *state, *scratch, *scalars)`` over aligned chunks, in place.

    The kernel must write its results into the chunks of ``p`` and of the state arrays (and
    may use the ``n_scratch`` scratch chunks freely). Arrays whose dtype differs from
    :func:`compute_dtype` of the parameter (float16 ones) are copied into float32 buffers for
    the kernel and the results rounded back, so float16 updates are computed in float32.
    Non-contiguous parameter or state arrays (views made by hand) cannot be chunked without
    copies; they get one kernel call on whole arrays with full-size scratch instead.

    Args:
        kernel: The update formula over 1-D chunks of equal length.
        param: The parameter array, updated in place.
        grad: Its gradient (read only).
        state: State arrays of the parameter's shape, updated in place.
        n_scratch: Number of scratch chunks the kernel needs.
        *scalars: Trailing arguments passed to the kernel unchanged.
    """
    arrays = (param, grad, *state)
    shape = param.shape
    work = _FLOAT32 if param.dtype == _FLOAT16 else param.dtype
    staged = [a.dtype != work for a in arrays]
    for array in (param, *state):
        if array.shape != shape or not array.flags.c_contiguous:
            _update_whole(kernel, arrays, work, n_scratch, scalars)
            return
    size = param.size
    if not any(staged):
        _update_unstaged(kernel, arrays, size, _scratch(work, n_scratch), scalars)
        return
    # A view for contiguous arrays; a non-contiguous gradient (a broadcast) is copied once.
    flat = [a.reshape(-1) for a in arrays]
    buffers = _scratch(work, n_scratch + sum(staged))
    stage_buffers = iter(buffers[n_scratch:])
    stage = [next(stage_buffers) if needs else None for needs in staged]
    scratch = buffers[:n_scratch]
    for start in range(0, size, CHUNK_SIZE):
        stop = min(start + CHUNK_SIZE, size)
        length = stop - start
        chunks = [a[start:stop] for a in flat]
        args = []
        for chunk, buffer in zip(chunks, stage):
            if buffer is None:
                args.append(chunk)
                continue
            staged_chunk = buffer[:length]
            numpy.copyto(staged_chunk, chunk)
            args.append(staged_chunk)
        kernel(*args, *[s[:length] for s in scratch], *scalars)
        for index, (chunk, buffer) in enumerate(zip(chunks, stage)):
            # Index 1 is the gradient, which the kernel only reads.
            if buffer is not None and index != 1:
                numpy.copyto(chunk, args[index])


def _update_unstaged(kernel, arrays, size, scratch, scalars) -> None:
    # Every array is in the compute dtype: the chunks are views, nothing is copied.
    if size <= SINGLE_CALL_SIZE:
        # A single call (small and middle-sized parameters): the arrays themselves are the
        # chunk, which saves the per-chunk overhead.
        shape = arrays[0].shape
        kernel(*arrays, *[s[:size].reshape(shape) for s in scratch], *scalars)
        return
    flat = [a.reshape(-1) for a in arrays]
    scratch = [s[:CHUNK_SIZE] for s in scratch]
    for start in range(0, size, CHUNK_SIZE):
        stop = start + CHUNK_SIZE
        if stop > size:
            scratch = [s[: size - start] for s in scratch]
        kernel(*[a[start:stop] for a in flat], *scratch, *scalars)


def _update_whole(kernel, arrays, work, n_scratch, scalars) -> None:
    shape = arrays[0].shape
    args = [a if a.dtype == work else a.astype(work) for a in arrays]
    scratch = [numpy.empty(shape, work) for _ in range(n_scratch)]
    kernel(*args, *scratch, *scalars)
    for index, (original, used) in enumerate(zip(arrays, args)):
        if used is not original and index != 1:
            numpy.copyto(original, used)


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


def decay_toward_square(mean_square, x, scratch, decay: float) -> None:
    """Kernel step: the running mean ``mean_square = decay * mean_square + (1 - decay) * x**2``."""
    mean_square *= decay
    numpy.multiply(x, x, out=scratch)
    scratch *= 1 - decay
    mean_square += scratch
