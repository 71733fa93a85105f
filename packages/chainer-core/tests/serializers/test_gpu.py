"""Serializers with CuPy arrays; skipped where no CUDA device is available."""

from __future__ import annotations

import numpy
import pytest

import chainer
from chainer import serializers

pytestmark = pytest.mark.gpu


@pytest.fixture
def cupy():
    cupy = pytest.importorskip("cupy")
    if not cupy.is_available():
        pytest.skip("no CUDA device")
    return cupy


class _Holder:
    def __init__(self, array, param):
        self.array = array
        self.param = param

    def serialize(self, serializer):
        serializer("array", self.array)
        serializer("param", self.param)


@pytest.mark.parametrize("fmt", ["npz", "hdf5"])
def test_gpu_arrays_round_trip_in_place(cupy, tmp_path, fmt):
    if fmt == "hdf5":
        pytest.importorskip("h5py")
    source_array = cupy.arange(6, dtype=cupy.float32).reshape(2, 3)
    source = _Holder(source_array, chainer.Parameter(cupy.full((4,), 2.5, dtype=cupy.float32)))
    getattr(serializers, f"save_{fmt}")(tmp_path / "gpu", source)

    target_array = cupy.zeros((2, 3), dtype=cupy.float32)
    lazy = chainer.Parameter()
    lazy.to_device("@cupy:0")
    target = _Holder(target_array, lazy)
    getattr(serializers, f"load_{fmt}")(tmp_path / "gpu", target)
    assert target.array is target_array
    numpy.testing.assert_array_equal(cupy.asnumpy(target_array), numpy.arange(6).reshape(2, 3))
    assert isinstance(lazy.array, cupy.ndarray)
    numpy.testing.assert_array_equal(cupy.asnumpy(lazy.array), numpy.full(4, 2.5))


def test_gpu_to_cpu_and_back(cupy, tmp_path):
    source = _Holder(cupy.ones((2, 2), dtype=cupy.float64), chainer.Parameter(numpy.ones(1)))
    serializers.save_npz(tmp_path / "mixed.npz", source)
    host = _Holder(numpy.zeros((2, 2)), chainer.Parameter(cupy.zeros(1)))
    serializers.load_npz(tmp_path / "mixed.npz", host)
    numpy.testing.assert_array_equal(host.array, numpy.ones((2, 2)))
    assert isinstance(host.param.array, cupy.ndarray)
    assert float(host.param.array[0]) == 1.0


def test_gpu_shape_mismatch_is_reported(cupy, tmp_path):
    serializers.save_npz(tmp_path / "a.npz", _Holder(numpy.ones(3), chainer.Parameter()))
    target = _Holder(cupy.zeros(4), chainer.Parameter())
    with pytest.raises(ValueError, match=r"'array': expected shape \(4,\) and dtype float64"):
        serializers.load_npz(tmp_path / "a.npz", target)
