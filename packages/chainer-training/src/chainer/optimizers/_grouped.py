"""Grouped ("foreach") CPU updates: one kernel run over many parameters of one dtype.

:func:`update_group` updates parameters whose rules share a group key (same rule class, same
``t``, every hyperparameter read from the same parent; see ``ElementwiseRule._group_key``).
The kernel scalars are computed once. Small parameters (up to :data:`PACKED_PARAM_SIZE`
elements) are then *packed*: their rules' state entries become views into one flat array per
state key (kept from step to step), their gradients are gathered into one flat buffer, and
the kernel runs once over the whole pack, so an Adam step over many small parameters is
about a dozen NumPy calls plus one per parameter instead of a dozen per parameter. Kernels
only update the parameter in place (``param -= x``, ``param += x``, ``param *= s``);
:class:`_Segments` applies each such operation to every packed parameter with its slice of
``x``. Every element goes through the same operations in the same order as on the
per-parameter path, so the results are bitwise equal.

A pack is checked at every step: the same rules in the same order, each state entry still
the view it was given (a state replaced by hand, loaded into a rule without state, copied or
unpickled makes a new pack, copying the values). Other parameters (float16 staging,
non-contiguous arrays, larger arrays) run the per-parameter kernel call,
:func:`~chainer.optimizers._chunks.update_in_chunks`.
"""

from __future__ import annotations

import numpy

from chainer._update_rule import unscale_grad
from chainer.optimizers._chunks import SINGLE_CALL_SIZE, scratch_buffers, update_in_chunks

_PACKED_DTYPES = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))

#: Largest parameter (elements) that is packed. Packing saves NumPy calls but copies the
#: gradient into the flat buffer; for larger arrays the copy costs more than the calls it
#: saves (MLP 784-100-100-10, batch 1: packing every parameter made SGD's step 8% slower,
#: packing those up to 16,384 elements left SGD as it was and made Adam's 8% faster).
PACKED_PARAM_SIZE = 1 << 14


def update_group(params: list) -> None:
    """Update parameters whose rules share a group key, as ``param.update()`` would each."""
    rules = [param.update_rule for param in params]
    if len({id(rule) for rule in rules}) != len(rules):
        # A parameter listed twice (a link registered under two names) is updated twice, each
        # update at its own ``t``: only the per-parameter path does that.
        for param in params:
            param.update()
        return
    for rule, param in zip(rules, params):
        rule.t += 1
        if param._loss_scale is not None:
            unscale_grad(param)
        if rule._state is None:
            rule._prepare(param)
    kernel, keys, n_scratch, scalars = rules[0]._kernel_call()
    runs: dict[numpy.dtype, list] = {}
    for rule, param in zip(rules, params):
        state = [rule._state[key] for key in keys]
        array = param.array
        if array.size <= PACKED_PARAM_SIZE and _packable(array, param.grad, state):
            run = runs.setdefault(array.dtype, [[], 0])
            if run[1] + array.size > SINGLE_CALL_SIZE:
                _update_packed(run[0], kernel, keys, n_scratch, scalars)
                run[:] = [[], 0]
            run[0].append((rule, param))
            run[1] += array.size
        else:
            update_in_chunks(kernel, array, param.grad, state, n_scratch, *scalars)
    for members, _ in runs.values():
        _update_packed(members, kernel, keys, n_scratch, scalars)


def _packable(array, grad, state) -> bool:
    dtype = array.dtype
    if dtype not in _PACKED_DTYPES or grad.dtype != dtype or not array.flags.c_contiguous:
        return False
    shape = array.shape
    for value in state:
        if value.dtype != dtype or value.shape != shape or not value.flags.c_contiguous:
            return False
    return True


def _update_packed(members, kernel, keys, n_scratch, scalars) -> None:
    arrays = [param.array for _, param in members]
    if len({id(array) for array in arrays}) < len(members) or len(members) == 1:
        # One member, or parameters sharing one array: a pack would interleave their
        # updates operation by operation instead of running them one after the other.
        for rule, param in members:
            state = tuple(rule._state[key] for key in keys)
            update_in_chunks(kernel, param.array, param.grad, state, n_scratch, *scalars)
        return
    pack = _current_pack(members, keys)
    size = pack.size
    buffers = scratch_buffers(pack.dtype, n_scratch + 1)
    grad = buffers[n_scratch][:size]
    numpy.concatenate([param.grad.reshape(-1) for _, param in members], out=grad)
    params = _Segments([array.reshape(-1) for array in arrays], pack.bounds)
    scratch = [buffer[:size] for buffer in buffers[:n_scratch]]
    kernel(params, grad, *pack.flats, *scratch, *scalars)


class _Pack:
    """Flat state arrays of a run of rules; each rule's state entries are views into them."""

    __slots__ = ("bounds", "dtype", "flats", "keys", "rules", "size", "views")

    def __init__(self, members, keys) -> None:
        arrays = [param.array for _, param in members]
        self.rules = [rule for rule, _ in members]
        self.keys = keys
        self.dtype = arrays[0].dtype
        stops = numpy.cumsum([a.size for a in arrays]).tolist()
        self.bounds = list(zip([0, *stops[:-1]], stops))
        self.size = stops[-1]
        self.flats = [numpy.empty(self.size, self.dtype) for _ in keys]
        self.views = []
        for rule, array, (start, stop) in zip(self.rules, arrays, self.bounds):
            views = []
            for key, flat in zip(keys, self.flats):
                view = flat[start:stop].reshape(array.shape)
                view[...] = rule._state[key]
                rule._state[key] = view
                views.append(view)
            self.views.append(views)
            rule._pack = self

    def holds(self, members, keys) -> bool:
        """Whether this pack still is the state of exactly these rules, in this order."""
        if keys != self.keys or len(members) != len(self.rules):
            return False
        for (rule, _), own, views in zip(members, self.rules, self.views):
            if rule is not own:
                return False
            state = rule._state
            for key, view, flat in zip(keys, views, self.flats):
                if state[key] is not view or view.base is not flat:
                    return False
        return True


def _current_pack(members, keys) -> _Pack:
    pack = members[0][0]._pack
    if pack is None or not pack.holds(members, keys):
        pack = _Pack(members, keys)
    return pack


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
