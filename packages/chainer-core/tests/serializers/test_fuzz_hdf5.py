"""Fuzzing load_hdf5: random bytes and mutated files (compressed and not).

Every case must return or raise ValueError / KeyError / TypeError with a message, within the
time limit, under the allocation bound, writing nothing but the case's own input file. A load
that succeeds must have loaded what h5py itself reads from the file (HDF5 keeps no checksum
of the data by default, so a changed byte of an uncompressed dataset is not detectable).
"""

from __future__ import annotations

import io

import numpy
import pytest

from chainer import serializers
from chainer.testing import _fuzzing

from . import _objects

hypothesis = pytest.importorskip("hypothesis")
h5py = pytest.importorskip("h5py")
st = hypothesis.strategies

ALLOWED = (ValueError, KeyError, TypeError)
pytestmark = pytest.mark.fuzz


def _valid(compression) -> bytes:
    buffer = io.BytesIO()
    with h5py.File(buffer, "w") as file:
        serializers.HDF5Serializer(file, compression).save(_objects.FuzzTarget.filled())
    return buffer.getvalue()


VALID = {level: _valid(level) for level in (None, 4)}


def _load_and_compare(path: str) -> None:
    target = _objects.FuzzTarget()
    serializers.load_hdf5(path, target)
    stored = {}
    with h5py.File(path, "r") as file:
        for key in ("W", "b", "lazy", "count", "rate", "label"):
            dataset = file[key]
            if dataset.shape is not None:
                text = h5py.check_string_dtype(dataset.dtype) is not None
                stored[key] = numpy.asarray(dataset.asstr()[()] if text else dataset[()])
    target.assert_holds(stored)


def _check(folder, data: bytes) -> None:
    sandbox = folder / "sandbox"
    sandbox.mkdir(exist_ok=True)
    path = sandbox / "case.h5"
    path.write_bytes(data)
    _fuzzing.run_case(
        lambda: _load_and_compare(str(path)), ALLOWED, str(sandbox), max_bytes=8 * 2**20
    )


def test_random_bytes(tmp_path):
    @_fuzzing.hypothesis_settings()
    @hypothesis.given(
        prefix=st.sampled_from([b"", b"\x89HDF\r\n\x1a\n", VALID[None][:512]]),
        body=st.binary(max_size=2048),
    )
    def case(prefix, body):
        _check(tmp_path, prefix + body)

    case()


def test_mutated_files(tmp_path):
    @_fuzzing.hypothesis_settings()
    @hypothesis.given(
        compression=st.sampled_from([None, 4]),
        flips=st.lists(
            st.tuples(st.integers(0, 2**16), st.integers(0, 255)), min_size=1, max_size=8
        ),
        cut=st.one_of(st.none(), st.integers(0, 2**16)),
    )
    def case(compression, flips, cut):
        data = bytearray(VALID[compression])
        for position, byte in flips:
            data[position % len(data)] = byte
        if cut is not None:
            del data[cut % len(data) :]
        _check(tmp_path, bytes(data))

    case()
