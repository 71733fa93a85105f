"""``static_graph.ArrayInfo``: an array's shape, dtype and device, and whether it still exists."""

import gc

import numpy
import pytest

from chainer import backend
from chainer.graph_optimizations.static_graph import ArrayInfo


def test_it_describes_the_array_and_makes_an_empty_twin():
    array = numpy.arange(6, dtype=numpy.float16).reshape(2, 3)
    info = ArrayInfo(array)
    assert (info.shape, info.dtype, info.id) == ((2, 3), numpy.float16, id(array))
    assert info.device == backend.CpuDevice()
    twin = info.get_new_empty_array()
    assert type(twin) is numpy.ndarray and twin.shape == (2, 3) and twin.dtype == numpy.float16
    assert not numpy.shares_memory(twin, array)
    assert "alive" in repr(info) and not info.was_deleted()


def test_it_notices_when_the_array_is_gone():
    array = numpy.zeros(4)
    info = ArrayInfo(array)
    del array
    gc.collect()
    assert info.was_deleted() and "deleted" in repr(info)
    assert info.get_new_empty_array().shape == (4,)  # still describes it


def test_an_array_without_weak_references_is_refused():
    with pytest.raises(TypeError, match="weak reference"):
        ArrayInfo([1.0, 2.0])
