"""Fuzzing load_npz: random bytes, mutated archives, crafted members, zip bombs.

Every case must return or raise ValueError / KeyError / TypeError with a message, within the
time limit, under the allocation bound, writing nothing (see chainer.testing._fuzzing). A
load that succeeds must have loaded exactly what the archive holds. Cases per harness:
1,000 (CI) or $CHAINER_FUZZ_EXAMPLES (the `fuzz` nox session).
"""

from __future__ import annotations

import io
import tracemalloc
import zipfile

import numpy
import pytest

from chainer import serializers
from chainer.testing import _fuzzing

from . import _objects

hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies

ALLOWED = (ValueError, KeyError, TypeError)
SETTINGS = _fuzzing.hypothesis_settings()
Target = _objects.FuzzTarget
pytestmark = pytest.mark.fuzz


def _archive(compression: bool) -> bytes:
    buffer = io.BytesIO()
    serializers.save_npz(buffer, _objects.FuzzTarget.filled(), compression=compression)
    return buffer.getvalue()


VALID = {True: _archive(True), False: _archive(False)}


def _load_and_compare(data: bytes, strict: bool = True) -> None:
    """load_npz into a fresh Target; on success each loaded value equals the stored one."""
    target = Target()
    serializers.load_npz(io.BytesIO(data), target, strict=strict)
    with numpy.load(io.BytesIO(data), allow_pickle=False) as archive:
        # A stored None leaves the value as it is (as in v7).
        stored = {key: archive[key] for key in archive.files if key in _KEYS}
    target.assert_holds({k: v for k, v in stored.items() if v.dtype.names != ("chainer_none",)})


_KEYS = ("W", "b", "lazy", "count", "rate", "label")


def _check(sandbox, data: bytes, strict: bool = True) -> None:
    _fuzzing.run_case(
        lambda: _load_and_compare(data, strict), ALLOWED, str(sandbox), max_bytes=8 * 2**20
    )


def test_random_bytes(tmp_path):
    prefixes = st.sampled_from([b"", b"PK\x03\x04", b"PK\x05\x06", b"\x93NUMPY\x01\x00"])

    @SETTINGS
    @hypothesis.given(prefix=prefixes, body=st.binary(max_size=2048))
    def case(prefix, body):
        _check(tmp_path, prefix + body)

    case()


def test_mutated_archives(tmp_path):
    @SETTINGS
    @hypothesis.given(
        compression=st.booleans(),
        flips=st.lists(
            st.tuples(st.integers(0, 2**16), st.integers(0, 255)), min_size=1, max_size=8
        ),
        cut=st.one_of(st.none(), st.integers(0, 2**16)),
        strict=st.booleans(),
    )
    def case(compression, flips, cut, strict):
        data = bytearray(VALID[compression])
        for position, byte in flips:
            data[position % len(data)] = byte
        if cut is not None:
            del data[cut % len(data) :]
        _check(tmp_path, bytes(data), strict)

    case()


def _npy_header(descr, shape, fortran: bool = False, version: int = 1) -> bytes:
    buffer = io.BytesIO()
    header = {"descr": descr, "fortran_order": fortran, "shape": shape}
    write = (
        numpy.lib.format.write_array_header_1_0
        if version == 1
        else numpy.lib.format.write_array_header_2_0
    )
    write(buffer, header)
    return buffer.getvalue()


NAMES = st.sampled_from(
    ["W", "b", "lazy", "count", "rate", "label", "../W", "/W", "a/../W", "..", "./W", "W/"]
)
DESCRS = st.sampled_from(
    ["<f4", ">f4", "<f8", "<f2", "|u1", "<i8", "|b1", "<c8", "<U3", "|S2", "|O", "<m8[s]"]
    + [[("chainer_none", "|u1")], [("a", "<f4"), ("b", "|O")], "|V0", "(2,)<f4"]
)
SHAPES = st.one_of(
    st.sampled_from([(), (2,), (5,), (2, 3), (3, 2), (0,), (2**31,), (2**62, 2**62)]),
    st.lists(st.integers(0, 9), max_size=3).map(tuple),
)


@st.composite
def members(draw):
    name = draw(NAMES)
    kind = draw(st.sampled_from(["header", "array", "raw"]))
    if kind == "raw":
        return name, draw(st.binary(max_size=64))
    if kind == "array":
        shape = draw(st.sampled_from([(), (2,), (5,), (2, 3), (3, 2)]))
        dtype = draw(st.sampled_from(["float32", "float64", "int8", "uint16", "bool", "U2"]))
        buffer = io.BytesIO()
        numpy.lib.format.write_array(buffer, numpy.ones(shape, dtype), allow_pickle=False)
        return name + ".npy", buffer.getvalue()
    header = _npy_header(
        draw(DESCRS), draw(SHAPES), draw(st.booleans()), draw(st.sampled_from([1, 2]))
    )
    return name + draw(st.sampled_from([".npy", ""])), header + draw(st.binary(max_size=128))


def _zip(entries, compression: bool) -> bytes:
    buffer = io.BytesIO()
    method = zipfile.ZIP_DEFLATED if compression else zipfile.ZIP_STORED
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, payload in entries:
            archive.writestr(name, payload)
    return buffer.getvalue()


def test_crafted_members(tmp_path):
    @SETTINGS
    @hypothesis.given(
        entries=st.lists(members(), max_size=6),
        compression=st.booleans(),
        strict=st.booleans(),
    )
    def case(entries, compression, strict):
        with pytest.warns(UserWarning) if _duplicates(entries) else _no_warning():
            data = _zip(entries, compression)
        _check(tmp_path, data, strict)

    case()


def _duplicates(entries) -> bool:
    names = [name for name, _ in entries]
    return len(set(names)) != len(names)


class _no_warning:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _bomb(key: str, size: int) -> bytes:
    """An archive whose member ``key`` inflates to ``size`` bytes of zeros (~1/1000 zipped)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(key + ".npy", _npy_header("|u1", (size,)) + bytes(size))
    return buffer.getvalue()


@pytest.mark.parametrize("declared_extra", [0, 2**40])
def test_zip_bomb_into_a_sized_array_fails_before_inflating(tmp_path, declared_extra):
    size = 64 * 2**20
    data = bytearray(_bomb("W", size))
    if declared_extra:
        # The central directory claims more: the header no longer matches the member.
        data = _patch_declared_size(data, size + declared_extra)
    assert len(data) < size // 100
    caught = _fuzzing.run_case(
        lambda: serializers.load_npz(io.BytesIO(bytes(data)), Target()),
        (ValueError,),
        str(tmp_path),
        max_bytes=4 * 2**20,
    )
    assert isinstance(caught, ValueError) and "cannot read 'W'" in str(caught)


def test_zip_bomb_into_a_lazy_parameter_allocates_only_its_size(tmp_path):
    size = 16 * 2**20
    data = _bomb("lazy", size)
    target = Target()
    tracemalloc.start()
    try:
        serializers.load_npz(io.BytesIO(data), target, strict=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # A lazy Parameter takes whatever shape the file has: memory goes to the stored uint8
    # data and the float32 parameter made from it, not to the inflated stream as a whole.
    assert target.lazy.shape == (size,)
    assert peak < size + 2 * target.lazy.array.nbytes + 2**20


def _patch_declared_size(data: bytearray, size: int) -> bytearray:
    """Make the central directory of a one-member archive state another uncompressed size."""
    offset = bytes(data).rfind(b"PK\x01\x02")
    # The uncompressed size is the 4 bytes at offset 24 of a central directory record.
    data[offset + 24 : offset + 28] = min(size, 2**32 - 1).to_bytes(4, "little")
    return data
