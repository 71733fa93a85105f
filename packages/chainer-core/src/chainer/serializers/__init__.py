"""Saving and loading objects that implement ``serialize(serializer)`` (links, optimizers,
trainers, ...) in NumPy NPZ format and, when h5py is installed, in HDF5 format.

Example:
    >>> from chainer import serializers
    >>> model = L.Linear(3, 2)
    >>> serializers.save_npz('my.model', model)
    >>> serializers.load_npz('my.model', model)
"""

from chainer.serializers import hdf5, npz
from chainer.serializers.hdf5 import HDF5Deserializer, HDF5Serializer, load_hdf5, save_hdf5
from chainer.serializers.npz import DictionarySerializer, NpzDeserializer, load_npz, save_npz

__all__ = [
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
