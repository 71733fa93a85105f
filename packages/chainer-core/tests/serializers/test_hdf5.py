"""chainer.serializers.hdf5 (h5py is optional: most tests skip without it)."""

from __future__ import annotations

import os
import sys

import numpy
import pytest

import chainer.testing
from chainer import serializers
from chainer.serializers import HDF5Deserializer, HDF5Serializer

from . import _objects


@pytest.fixture
def h5py():
    return pytest.importorskip("h5py")


def test_missing_h5py_gives_install_hint(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "h5py", None)  # makes `import h5py` fail
    hint = (
        r'h5py, which is not installed: pip install "chainer-core\[hdf5\]" \(or pip install h5py\)'
    )
    with pytest.raises(RuntimeError, match=hint):
        serializers.save_hdf5(tmp_path / "m.h5", _objects.Leaf())
    with pytest.raises(RuntimeError, match=hint):
        serializers.load_hdf5(tmp_path / "m.h5", _objects.Leaf())
    with pytest.raises(RuntimeError, match=hint):
        HDF5Serializer(None)
    with pytest.raises(RuntimeError, match=hint):
        HDF5Deserializer(None)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("compression", [4, None])
def test_round_trip_nested_object(h5py, tmp_path, compression):
    source, target = _objects.Tree(seed=1), _objects.Tree(seed=7)
    target.left.extra = numpy.ones(2)  # saved None replaces it
    path = tmp_path / "tree.h5"
    serializers.save_hdf5(path, source, compression=compression)
    serializers.load_hdf5(path, target)
    _objects.assert_same_state(target, source)
    with h5py.File(path, "r") as file:
        assert file["left/W"].compression == ("gzip" if compression else None)
        assert file["step"].compression is None  # scalars cannot be compressed


def test_file_mirrors_object_hierarchy(h5py, tmp_path):
    source = _objects.Tree(seed=2)
    serializers.save_hdf5(tmp_path / "tree.h5", source)
    with h5py.File(tmp_path / "tree.h5", "r") as file:
        assert sorted(file) == ["left", "right", "step"]
        assert sorted(file["right"]) == ["inner", "scale"]
        numpy.testing.assert_array_equal(file["right/inner/W"][()], source.right.inner.W)
        assert file["left/extra"].shape is None  # None is an empty dataset
        assert file["left/label"].asstr()[()] == "leaf3"
        assert file["step"][()] == 2


def test_serializer_returns_value_and_strips_slashes(h5py, tmp_path):
    with h5py.File(tmp_path / "a.h5", "w") as file:
        serializer = HDF5Serializer(file)
        array = numpy.arange(3)
        assert serializer["/child/"]("/x", array) is array
        numpy.testing.assert_array_equal(file["child/x"][()], array)


def test_serializer_refuses_values_that_need_pickle(h5py, tmp_path):
    with h5py.File(tmp_path / "a.h5", "w") as file:
        with pytest.raises(TypeError, match=r"cannot serialize '/child/obj'"):
            HDF5Serializer(file)["child"]("obj", [object()])


def test_load_initializes_lazy_parameter(h5py, tmp_path):
    source = _objects.Lazy()
    source.w.initialize((3, 4))
    serializers.save_hdf5(tmp_path / "lazy.h5", source)
    target = _objects.Lazy()
    serializers.load_hdf5(tmp_path / "lazy.h5", target)
    numpy.testing.assert_array_equal(target.w.array, source.w.array)


def test_deserializer_strict_and_non_strict(h5py, tmp_path):
    with h5py.File(tmp_path / "a.h5", "w") as file:
        file.create_dataset("group/x", data=numpy.arange(2.0))
    with h5py.File(tmp_path / "a.h5", "r") as file:
        with pytest.raises(KeyError, match=r"'/group/y' is not in the HDF5 file"):
            HDF5Deserializer(file)["group"]("y", 0)
        with pytest.raises(KeyError, match=r"'/absent' is not in the HDF5 file"):
            HDF5Deserializer(file)["absent"]
        lenient = HDF5Deserializer(file, strict=False)
        assert lenient["group"]("y", 5) == 5
        assert lenient["absent"]["deeper"]("z", 6) == 6
        target = numpy.zeros(2)
        assert lenient["group"]("x", target) is target
        numpy.testing.assert_array_equal(target, [0.0, 1.0])


def test_deserializer_group_and_dataset_confusion(h5py, tmp_path):
    with h5py.File(tmp_path / "a.h5", "w") as file:
        file.create_dataset("x", data=1.0)
        file.create_group("g")
    with h5py.File(tmp_path / "a.h5", "r") as file:
        with pytest.raises(ValueError, match=r"'/x' in the HDF5 file is a Dataset, expected"):
            HDF5Deserializer(file)["x"]
        with pytest.raises(ValueError, match=r"'/g' in the HDF5 file is a Group, expected"):
            HDF5Deserializer(file)("g", 0)


def test_load_shape_mismatch_names_dataset(h5py, tmp_path):
    serializers.save_hdf5(tmp_path / "leaf.h5", _objects.Leaf(seed=1, shape=(2, 3)))
    message = r"cannot load '/W': expected shape \(3, 2\) and dtype float32, found shape \(2, 3\)"
    with pytest.raises(ValueError, match=message):
        serializers.load_hdf5(tmp_path / "leaf.h5", _objects.Leaf(seed=0, shape=(3, 2)))


def test_load_dtype_mismatch_names_dataset(h5py, tmp_path):
    with h5py.File(tmp_path / "a.h5", "w") as file:
        file.create_dataset("v", data=numpy.array([0.5, 1.5]))

    class IntHolder:
        def __init__(self):
            self.v = numpy.zeros(2, dtype=numpy.int64)

        def serialize(self, serializer):
            serializer("v", self.v)

    with pytest.raises(ValueError, match=r"'/v': expected shape \(2,\) and dtype int64.*float64"):
        serializers.load_hdf5(tmp_path / "a.h5", IntHolder())


@pytest.mark.parametrize("content", [b"", b"not an hdf5 file" * 8])
def test_load_rejects_malformed_file(h5py, tmp_path, content):
    path = tmp_path / "bad.h5"
    path.write_bytes(content)
    with pytest.raises(ValueError, match=r"bad\.h5' is not a readable HDF5 file"):
        serializers.load_hdf5(path, _objects.Leaf())


def test_load_rejects_truncated_file(h5py, tmp_path):
    path = tmp_path / "leaf.h5"
    serializers.save_hdf5(path, _objects.Leaf(seed=1, shape=(64, 64)))
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match=r"leaf\.h5' is not a readable HDF5 file"):
        serializers.load_hdf5(path, _objects.Leaf(shape=(64, 64)))


def test_load_missing_file_is_file_not_found(h5py, tmp_path):
    with pytest.raises(FileNotFoundError):
        serializers.load_hdf5(tmp_path / "absent.h5", _objects.Leaf())


def test_failed_save_keeps_previous_file(h5py, monkeypatch, tmp_path):
    path = tmp_path / "model.h5"
    serializers.save_hdf5(path, _objects.Tree(seed=1))
    content = path.read_bytes()

    class Failing:
        def serialize(self, serializer):
            serializer("written", numpy.ones(10))
            raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        serializers.save_hdf5(path, Failing())

    def failing_replace(source, target):
        raise OSError("no rename")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="no rename"):
        serializers.save_hdf5(path, _objects.Tree(seed=2))
    monkeypatch.undo()
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.h5"]


def test_npz_and_hdf5_agree(h5py, tmp_path):
    source = _objects.Tree(seed=4)
    from_npz, from_hdf5 = _objects.Tree(seed=0), _objects.Tree(seed=9)
    chainer.testing.save_and_load_npz(source, from_npz)
    chainer.testing.save_and_load_hdf5(source, from_hdf5)
    _objects.assert_same_state(from_npz, source)
    _objects.assert_same_state(from_hdf5, source)


def test_available_tells_whether_h5py_can_be_imported(monkeypatch):
    # v7 compatibility: code written for v7 checks serializers.hdf5._available.
    import importlib.util

    from chainer.serializers import hdf5

    installed = importlib.util.find_spec("h5py") is not None
    assert hdf5._available is installed
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    assert hdf5._available is False
    with pytest.raises(AttributeError, match="has no attribute 'missing'"):
        _ = hdf5.missing


def test_save_hdf5_of_a_plain_dict_writes_it_key_by_key(h5py, tmp_path):
    path = tmp_path / "stats.h5"
    mean = numpy.array([0.5, -1.0], numpy.float32)
    serializers.save_hdf5(path, {"mean": mean})
    with h5py.File(path, "r") as f:
        numpy.testing.assert_array_equal(f["mean"][()], mean)
