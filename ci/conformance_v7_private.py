"""Pytest plugin: the private names that the helpers of v7's ``chainerx_tests`` reach for.

v7's ``chainerx_tests/op_utils.py`` (the harness of every routine test) and ``array_utils.py``
(which builds the strided input arrays) are test helpers, not tests, yet they use private
names: ``chainer.testing._bundle._ParameterizedTestCaseBundle`` (to take apart what
``chainer.testing.parameterize`` returns) and ``chainerx.testing._fromnumpy`` (a strided copy
on a device). ``functions_tests/normalization_tests/test_batch_normalization.py`` makes the
non-contiguous ChainerX inputs of its ``c_contiguous=False`` cases (as do the ChainerX cases of
``test_deconvolution_2d.py``) with
``chainer.testing.array._as_noncontiguous_array``. Private names are not API, so our packages do
not have them; this plugin supplies them in the test process only, over public behaviour, so
that the tests using those helpers measure the routines they are about. Our own code and tests
never load it.

The ChainerX tests themselves read a few of v7's debugging internals to observe public
behaviour, supplied here the same way: ``ndarray._debug_flat_data`` (the elements in order),
``_debug_data_memory_address`` (whether a result shares memory) and
``chainerx.linalg._is_lapack_available()`` (whether to skip).

Use: ``PYTHONPATH=ci run.sh ... chainerx_tests -- -p conformance_v7_private`` (likewise for the
``use_chainerx_true`` cases of ``chainer_tests/functions_tests/normalization_tests``).
"""

from __future__ import annotations

from typing import Any

import numpy

import chainer.backend
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


def _as_noncontiguous_array(array: Any) -> Any:
    """A non-contiguous copy of an array (every other element of a zeroed twice-as-large one);
    ``None`` and arrays of at most one element are returned as they are, lists/tuples mapped."""
    if isinstance(array, (list, tuple)):
        return type(array)(_as_noncontiguous_array(a) for a in array)
    if array is None or array.size <= 1:
        return array
    xp = chainer.backend.get_array_module(array)
    every_other = (slice(None, None, 2),) * array.ndim
    shape = tuple(2 * n for n in array.shape)
    if xp is chainerx:
        twice = chainerx.zeros(shape, array.dtype, array.device)
    else:
        twice = xp.zeros(shape, array.dtype)
    twice[every_other] = array
    return twice[every_other]


def _flat_data(array: chainerx.ndarray) -> list:
    """v7's ``ndarray._debug_flat_data``: the elements in C order, as Python numbers."""
    return chainerx.to_numpy(array).ravel().tolist()


def _memory_address(array: chainerx.ndarray) -> int:
    """v7's ``ndarray._debug_data_memory_address``: where the array's memory starts."""
    return array.data_ptr - array.offset


def _is_lapack_available() -> bool:
    """v7's ``chainerx.linalg._is_lapack_available()``: LAPACK comes with the OpenBLAS build."""
    return chainerx.build_info()["blas"] == "openblas"


chainer.testing._bundle.GeneratedTestClasses.cases = property(_cases)
chainer.testing._bundle._ParameterizedTestCaseBundle = chainer.testing._bundle.GeneratedTestClasses
chainerx.testing._fromnumpy = _fromnumpy
chainer.testing.array._as_noncontiguous_array = _as_noncontiguous_array
chainerx.ndarray._debug_flat_data = property(_flat_data)
chainerx.ndarray._debug_data_memory_address = property(_memory_address)
chainerx.linalg._is_lapack_available = _is_lapack_available
