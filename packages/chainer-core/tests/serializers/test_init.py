"""The public surface of chainer.serializers and chainer.serializer."""

from __future__ import annotations

import inspect
import subprocess
import sys

import pytest

import chainer.serializer
import chainer.serializers


def test_import_does_not_load_h5py():
    code = "import sys, chainer.serializers; print('h5py' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_exported_names():
    assert sorted(chainer.serializers.__all__) == [
        "DictionarySerializer",
        "HDF5Deserializer",
        "HDF5Serializer",
        "NpzDeserializer",
        "hdf5",
        "load_hdf5",
        "load_npz",
        "npz",
        "save_hdf5",
        "save_npz",
    ]


_EMPTY = inspect.Parameter.empty


@pytest.mark.parametrize(
    ("name", "parameters"),
    [
        ("DictionarySerializer", [("target", None), ("path", "")]),
        (
            "NpzDeserializer",
            [("npz", _EMPTY), ("path", ""), ("strict", True), ("ignore_names", None)],
        ),
        ("HDF5Serializer", [("group", _EMPTY), ("compression", 4)]),
        ("HDF5Deserializer", [("group", _EMPTY), ("strict", True)]),
        ("save_npz", [("file", _EMPTY), ("obj", _EMPTY), ("compression", True)]),
        (
            "load_npz",
            [
                ("file", _EMPTY),
                ("obj", _EMPTY),
                ("path", ""),
                ("strict", True),
                ("ignore_names", None),
            ],
        ),
        ("save_hdf5", [("filename", _EMPTY), ("obj", _EMPTY), ("compression", 4)]),
        ("load_hdf5", [("filename", _EMPTY), ("obj", _EMPTY)]),
    ],
)
def test_signatures_match_chainer(name, parameters):
    signature = inspect.signature(getattr(chainer.serializers, name))
    actual = [(p.name, p.default) for p in signature.parameters.values()]
    assert actual == parameters


def test_base_classes_are_in_chainer_serializer():
    serializers = chainer.serializers
    assert issubclass(serializers.DictionarySerializer, chainer.serializer.Serializer)
    assert issubclass(serializers.HDF5Serializer, chainer.serializer.Serializer)
    assert issubclass(serializers.NpzDeserializer, chainer.serializer.Deserializer)
    assert issubclass(serializers.HDF5Deserializer, chainer.serializer.Deserializer)
