"""Grouped ("foreach") CPU updates: one driver call for many parameters of one kind.

:func:`update_group` updates parameters whose rules share a group key (same rule class, same
``t``, every hyperparameter read from the same parent; see ``ElementwiseRule._group_key``).
The kernel scalars are computed once. How each parameter is updated is worked out once and
kept from step to step in a :class:`_Plan` (checked at every step, see :meth:`_Plan.fits`):

- *Packed*: for kernels with state, parameters of up to :data:`PACKED_PARAM_SIZE` elements.
  Their rules' state entries become views into one flat array per state key (kept from step
  to step), their gradients are gathered into one flat buffer, and the kernel runs once over
  the whole pack, so an Adam step over many small parameters is about a dozen NumPy calls plus
  one per parameter instead of a dozen per parameter. Kernels only update the parameter in
  place (``param -= x``, ``param += x``, ``param *= s``); :class:`_Segments` applies each
  such operation to every packed parameter with its slice of ``x``.
- *Direct*: contiguous float32/float64 arrays of up to
  :data:`~chainer.optimizers._chunks.SINGLE_CALL_SIZE` elements (every parameter of a
  stateless kernel such as SGD's, where packing would only add the gathering copy): one kernel
  call on the arrays with scratch views made once.
- Every other parameter (float16 staging, non-contiguous arrays, larger arrays) runs
  :func:`~chainer.optimizers._chunks.update_in_chunks`.

Every element goes through the same operations in the same order as on the per-parameter
path, so the results are bitwise equal.
"""

from __future__ import annotations

import weakref

import numpy

from chainer._update_rule import unscale_grad
from chainer.optimizers._chunks import (
    SINGLE_CALL_SIZE,
    scratch_buffers,
    scratch_pools,
    update_in_chunks,
)

_PACKED_DTYPES = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))

#: Largest parameter (elements) that is packed. Packing saves NumPy calls but copies the
#: gradient into the flat buffer; for larger arrays the copy costs more than the calls it
#: saves (MLP 784-100-100-10, batch 1: packing every parameter made SGD's step 8% slower,
#: packing those up to 16,384 elements left SGD as it was and made Adam's 8% faster).
PACKED_PARAM_SIZE = 1 << 14


def update_group(params: list) -> None:
    """Update parameters whose rules share a group key, as ``param.update()`` would each."""
    rules = [param.update_rule for param in params]
    plan = rules[0]._group_plan
    # A plan's rules are distinct; else check.
    if (plan is None or rules != plan.rules) and len({id(rule) for rule in rules}) != len(rules):
        # A parameter listed twice (a link registered under two names) is updated twice, each
        # update at its own ``t``: only the per-parameter path does that.
        for param in params:
            param.update()
        return
    arrays = []
    grads = []
    for rule, param in zip(rules, params):
        rule.t += 1
        if param._loss_scale is not None:
            unscale_grad(param)
        if rule._state is None:
            rule._prepare(param)
        arrays.append(param._array)
        grads.append(param._grad_var._array)  # ``param.grad``: the key found NumPy arrays
    kernel, keys, n_scratch, scalars = rules[0]._kernel_call()
    if plan is None or not plan.fits(rules, arrays, keys, n_scratch):
        plan = rules[0]._group_plan = _Plan(rules, arrays, keys, n_scratch)
    plan.run(rules, arrays, grads, kernel, scalars)


def _fits_one_call(array, state) -> bool:
    """Whether one kernel call on the whole arrays is what ``update_in_chunks`` would make."""
    dtype = array.dtype
    if dtype not in _PACKED_DTYPES or not array.flags.c_contiguous:
        return False
    shape = array.shape
    for value in state:
        if value.dtype != dtype or value.shape != shape or not value.flags.c_contiguous:
            return False
    return array.size <= SINGLE_CALL_SIZE


class _Plan:
    """How each parameter of a group is updated, with the arrays that decided it.

    The plan refers to the parameters' own arrays and states weakly (packs excepted, which hold
    small arrays only): a plan left behind, say after a model moved to a GPU, keeps no copy of
    the model alive.
    """

    __slots__ = (
        "array_refs",
        "chunked",
        "direct",
        "keys",
        "n_scratch",
        "packs",
        "pools",
        "rules",
        "state_refs",
        "thread_pools",
    )

    def __init__(self, rules, arrays, keys, n_scratch) -> None:
        self.rules = rules
        self.keys = keys
        self.n_scratch = n_scratch
        self.array_refs = [weakref.ref(array) for array in arrays]
        self.thread_pools = scratch_pools()
        self.pools: dict[numpy.dtype, list] = {}
        self.direct: list[tuple] = []
        self.chunked: list[int] = []
        self.packs: list[_PackRun] = []
        shared = len({id(array) for array in arrays}) < len(arrays)
        runs: dict[numpy.dtype, list] = {}
        singles = []
        for index, (rule, array) in enumerate(zip(rules, arrays)):
            if not _fits_one_call(array, [rule._state[key] for key in keys]):
                self.chunked.append(index)
            elif not keys or shared or array.size > PACKED_PARAM_SIZE:
                # Parameters sharing one array: a pack would interleave their updates
                # operation by operation instead of running them one after the other.
                singles.append(index)
            else:
                run = runs.setdefault(array.dtype, [[], 0])
                if run[1] + array.size > SINGLE_CALL_SIZE:
                    self._add_pack(run[0], arrays, singles)
                    run[:] = [[], 0]
                run[0].append(index)
                run[1] += array.size
        for members, _ in runs.values():
            self._add_pack(members, arrays, singles)
        for index in singles:
            array = arrays[index]
            pool = self._pool(array.dtype)[:n_scratch]
            scratch = [buffer[: array.size].reshape(array.shape) for buffer in pool]
            self.direct.append((index, scratch))
        # Recorded last: packing replaced the packed rules' state entries by views.
        self.state_refs = [[weakref.ref(rule._state[key]) for key in keys] for rule in rules]

    def _pool(self, dtype) -> list:
        pool = self.pools.get(dtype)
        if pool is None:
            pool = self.pools[dtype] = scratch_buffers(dtype, self.n_scratch + 1)
        return pool

    def _add_pack(self, members, arrays, singles) -> None:
        if len(members) == 1:
            singles.extend(members)
            return
        rules = [self.rules[index] for index in members]
        arrays = [arrays[index] for index in members]
        pack = rules[0]._pack
        if pack is None or not pack.holds(rules, self.keys):
            pack = _Pack(rules, arrays, self.keys)
        self.packs.append(_PackRun(pack, members, arrays, self._pool(pack.dtype)))

    def fits(self, rules, arrays, keys, n_scratch) -> bool:
        """Whether this plan still describes these rules, arrays, states and buffers."""
        if rules != self.rules or keys != self.keys or n_scratch != self.n_scratch:
            return False
        for array, ref in zip(arrays, self.array_refs):
            if array is not ref():
                return False
        if keys:
            for rule, refs in zip(rules, self.state_refs):
                # Each state entry must be the one recorded (the pack's view, if packed).
                state = rule._state
                for key, ref in zip(keys, refs):
                    if state[key] is not ref():
                        return False
        return self.thread_pools is scratch_pools()  # else another thread's buffers

    def run(self, rules, arrays, grads, kernel, scalars) -> None:
        """Apply ``kernel`` to every parameter of the group, given their arrays and gradients."""
        keys = self.keys
        n_scratch = self.n_scratch
        for index, scratch in self.direct:
            array = arrays[index]
            grad = grads[index]
            state = rules[index]._state
            dtype = grad.dtype
            if dtype is array.dtype or dtype == array.dtype:
                kernel(array, grad, *[state[key] for key in keys], *scratch, *scalars)
            else:
                state = tuple(state[key] for key in keys)
                update_in_chunks(kernel, array, grad, state, n_scratch, *scalars)
        for index in self.chunked:
            state = tuple(rules[index]._state[key] for key in keys)
            update_in_chunks(kernel, arrays[index], grads[index], state, n_scratch, *scalars)
        for pack_run in self.packs:
            pack_run.run(grads, kernel, n_scratch, scalars)


class _Pack:
    """Flat state arrays of a run of rules; each rule's state entries are views into them."""

    __slots__ = ("bounds", "dtype", "flats", "keys", "rules", "size", "views")

    def __init__(self, rules, arrays, keys) -> None:
        self.rules = rules
        self.keys = keys
        self.dtype = arrays[0].dtype
        stops = numpy.cumsum([a.size for a in arrays]).tolist()
        self.bounds = list(zip([0, *stops[:-1]], stops))
        self.size = stops[-1]
        self.flats = [numpy.empty(self.size, self.dtype) for _ in keys]
        self.views = []
        for rule, array, (start, stop) in zip(rules, arrays, self.bounds):
            views = []
            for key, flat in zip(keys, self.flats):
                view = flat[start:stop].reshape(array.shape)
                view[...] = rule._state[key]
                rule._state[key] = view
                views.append(view)
            self.views.append(views)
            rule._pack = self

    def holds(self, rules, keys) -> bool:
        """Whether this pack still is the state of exactly these rules, in this order."""
        if keys != self.keys or rules != self.rules:
            return False
        for rule, views in zip(rules, self.views):
            state = rule._state
            for key, view in zip(keys, views):
                if state[key] is not view:
                    return False
        return True


class _PackRun:
    """A pack in a plan: its members' gradients are gathered and the kernel runs once."""

    __slots__ = ("arrays", "grad", "members", "pack", "scratch", "segments")

    def __init__(self, pack, members, arrays, pool) -> None:
        self.pack = pack
        self.members = members
        self.arrays = arrays
        size = pack.size
        self.segments = _Segments([array.reshape(-1) for array in arrays], pack.bounds)
        self.scratch = [buffer[:size] for buffer in pool[:-1]]
        self.grad = pool[-1][:size]

    def run(self, grads, kernel, n_scratch, scalars) -> None:
        members = [grads[index] for index in self.members]
        dtype = self.pack.dtype
        for grad in members:
            if grad.dtype != dtype:
                self._run_each(members, kernel, n_scratch, scalars)
                return
        numpy.concatenate([grad.reshape(-1) for grad in members], out=self.grad)
        kernel(self.segments, self.grad, *self.pack.flats, *self.scratch, *scalars)

    def _run_each(self, grads, kernel, n_scratch, scalars) -> None:
        # A gradient of another dtype is staged by the per-parameter kernel driver.
        for array, grad, views in zip(self.arrays, grads, self.pack.views):
            update_in_chunks(kernel, array, grad, tuple(views), n_scratch, *scalars)


class _Segments:
    """The packed parameters, seen by a kernel as one flat array that it updates in place."""

    __slots__ = ("arrays", "bounds")

    def __init__(self, arrays, bounds) -> None:
        self.arrays = arrays
        self.bounds = bounds

    def _apply(self, ufunc, operand) -> _Segments:
        if isinstance(operand, numpy.ndarray):
            for array, (start, stop) in zip(self.arrays, self.bounds):
                ufunc(array, operand[start:stop], out=array)
        else:
            for array in self.arrays:
                ufunc(array, operand, out=array)
        return self

    def __iadd__(self, operand) -> _Segments:
        return self._apply(numpy.add, operand)

    def __isub__(self, operand) -> _Segments:
        return self._apply(numpy.subtract, operand)

    def __imul__(self, operand) -> _Segments:
        return self._apply(numpy.multiply, operand)
