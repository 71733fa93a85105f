import importlib
import os
import sys
import types

import numpy
import pytest

import chainer
from chainer import testing


class Holder:
    """The smallest serializable object: one array under the key 'w'."""

    def __init__(self, w):
        self.w = w

    def serialize(self, serializer):
        self.w = serializer("w", self.w)


def test_save_and_load_calls_saver_then_loader(tmp_path):
    calls = []
    path = tmp_path / "file.bin"

    def saver(filename, obj):
        calls.append(("save", filename, obj))
        with open(filename, "wb") as f:
            numpy.save(f, obj.w)

    def loader(filename, obj):
        calls.append(("load", filename, obj))
        with open(filename, "rb") as f:
            obj.w = numpy.load(f)

    src, dst = Holder(numpy.arange(3)), Holder(None)
    testing.save_and_load(src, dst, str(path), saver, loader)
    assert calls == [("save", str(path), src), ("load", str(path), dst)]
    numpy.testing.assert_array_equal(dst.w, [0, 1, 2])


@pytest.fixture
def fake_serializers(monkeypatch):
    """A stand-in chainer.serializers that records the files it is given."""
    module = types.ModuleType("chainer.serializers")
    module.files = []

    def save(filename, obj):
        module.files.append(filename)
        numpy.save(filename + ".npy", obj.w)

    def load(filename, obj):
        assert os.path.exists(filename + ".npy")
        obj.w = numpy.load(filename + ".npy")

    module.save_npz = module.save_hdf5 = save
    module.load_npz = module.load_hdf5 = load
    monkeypatch.setitem(sys.modules, "chainer.serializers", module)
    monkeypatch.setattr(chainer, "serializers", module, raising=False)
    return module


@pytest.mark.parametrize(
    ("function", "suffix"), [("save_and_load_npz", ".npz"), ("save_and_load_hdf5", ".h5")]
)
def test_round_trips_use_a_temporary_file(function, suffix, fake_serializers):
    src, dst = Holder(numpy.array([1.5, 2.5])), Holder(None)
    getattr(testing, function)(src, dst)
    numpy.testing.assert_array_equal(dst.w, src.w)
    (filename,) = fake_serializers.files
    assert filename.endswith(suffix)
    assert not os.path.exists(os.path.dirname(filename))  # cleaned up


def real_serializers():
    try:
        module = importlib.import_module("chainer.serializers")
    except ImportError:
        module = None
    if not hasattr(module, "save_npz"):
        pytest.skip("chainer.serializers is not written yet")
    return module


def test_npz_round_trip_with_chainer_serializers():
    real_serializers()
    src, dst = (
        Holder(numpy.arange(6, dtype=numpy.float32).reshape(2, 3)),
        Holder(numpy.zeros((2, 3), numpy.float32)),
    )
    testing.save_and_load_npz(src, dst)
    numpy.testing.assert_array_equal(dst.w, src.w)


def test_hdf5_round_trip_with_chainer_serializers():
    real_serializers()
    pytest.importorskip("h5py")
    src, dst = Holder(numpy.arange(4.0)), Holder(numpy.zeros(4))
    testing.save_and_load_hdf5(src, dst)
    numpy.testing.assert_array_equal(dst.w, src.w)
