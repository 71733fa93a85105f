"""Pytest plugin: the private names that v7's test helpers reach for.

v7's ``chainerx_tests/op_utils.py`` (the harness of every routine test) and ``array_utils.py``
(which builds the strided input arrays) are test helpers, not tests, yet they use private
names: ``chainer.testing._bundle._ParameterizedTestCaseBundle`` (to take apart what
``chainer.testing.parameterize`` returns) and ``chainerx.testing._fromnumpy`` (a strided copy
on a device); the ChainerX cases of ``test_batch_normalization.py`` and
``test_deconvolution_2d.py`` use ``chainer.testing.array._as_noncontiguous_array``. Private
names are not API, so our packages do not have them; this plugin supplies them in the test
process only, over public behaviour, so that the tests using those helpers measure the
routines they are about. Our own code and tests never load it.

Use: ``PYTHONPATH=ci run.sh ... chainerx_tests -- -p conformance_v7_private``.
"""

from __future__ import annotations

from typing import Any

import numpy

import chainer.testing._bundle
import chainer.testing.array
import chainerx
import chainerx.testing


def _cases(bundle: chainer.testing._bundle.GeneratedTestClasses) -> list[tuple[type, str, str]]:
    """v7's ``(class, module name, attribute name)`` view of the generated test classes."""
    return [(cls, bundle.module.__name__, cls.__name__) for cls in bundle.classes]


def _fromnumpy(
    array: numpy.ndarray, keepstrides: bool = True, device: Any = None
) -> chainerx.ndarray:
    """A ChainerX copy of ``array`` on ``device``, with ``array``'s strides if ``keepstrides``."""
    if not keepstrides:
        return chainerx.array(array, device=device)
    extents = [(dim - 1) * stride for dim, stride in zip(array.shape, array.strides)]
    if 0 in array.shape:
        low, high = 0, 0
    else:
        low = sum(min(0, e) for e in extents)
        high = sum(max(0, e) for e in extents) + array.itemsize
    memory = numpy.empty(high - low, numpy.uint8)
    copy = numpy.ndarray(array.shape, array.dtype, memory, -low, array.strides)
    copy[...] = array
    return chainerx.array(copy, copy=False, device=device)


def _as_noncontiguous_array(array):
    """A ChainerX copy of ``array`` (or of each in a list/tuple) that is not C-contiguous: the
    elements sit every other place along the last axis (v7's ``chainer.testing.array``)."""
    if array is None:
        return None
    if isinstance(array, (list, tuple)):
        return type(array)(_as_noncontiguous_array(a) for a in array)
    host = chainerx.to_numpy(array)
    if host.ndim == 0:
        return chainerx.array(host, device=array.device)
    spread = numpy.empty(host.shape[:-1] + (2 * host.shape[-1],), host.dtype)
    spread[..., ::2] = host
    return _fromnumpy(spread[..., ::2], True, array.device)


chainer.testing.array._as_noncontiguous_array = _as_noncontiguous_array
chainer.testing._bundle.GeneratedTestClasses.cases = property(_cases)
chainer.testing._bundle._ParameterizedTestCaseBundle = chainer.testing._bundle.GeneratedTestClasses
chainerx.testing._fromnumpy = _fromnumpy
