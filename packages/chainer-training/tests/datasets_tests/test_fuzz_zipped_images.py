"""Fuzzing ZippedImageDataset: mutated and truncated archives (stored, deflated, bzip2, LZMA),
member names with ``..`` and absolute paths, duplicates, corrupt images inside valid
archives, zip bombs (honest and lying sizes), random bytes.

Every case must return or raise BadZipFile (a damaged archive), OSError (a damaged image) or
KeyError (a name not in the archive) with a message, within the time limit, under the
allocation bound, writing nothing anywhere under the test's folder (see
chainer.testing._fuzzing). An image that is read must equal what Pillow decodes from the
member. Cases per harness: 1,000 (CI) or $CHAINER_FUZZ_EXAMPLES (the `fuzz` nox session).
"""

from __future__ import annotations

import io
import warnings
import zipfile

import numpy
import pytest

from chainer.datasets import ZippedImageDataset
from chainer.testing import _fuzzing

from ._sample_images import encoded_images

hypothesis = pytest.importorskip("hypothesis")
Image = pytest.importorskip("PIL.Image")
st = hypothesis.strategies
pytestmark = pytest.mark.fuzz
SETTINGS = _fuzzing.hypothesis_settings()
MUTATIONS = st.lists(st.tuples(st.integers(0, 2**20), st.integers(0, 255)), max_size=8)
CUTS = st.one_of(st.none(), st.integers(0, 2**20))
NAMES = ["a.png", "../../evil.png", "/abs/b.gif", "dir/", "dir/c.jpg", "a.png", "C:\\d.bmp", ""]
COMPRESSIONS = [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA]
BOMB_BYTES = 64 * 2**20


IMAGES = encoded_images(Image)


def _archive(members: list[tuple[str, bytes]], compression: int) -> bytes:
    buffer = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(buffer, "w") as archive:
        warnings.simplefilter("ignore")  # "Duplicate name": wanted here
        for name, data in members:
            member = zipfile.ZipInfo(name)  # (writestr refuses an empty name given as text)
            member.compress_type = compression
            archive.writestr(member, b"" if name.endswith("/") else data)
    return buffer.getvalue()


def _expected(data: bytes, member: zipfile.ZipInfo) -> numpy.ndarray:
    """What Pillow decodes from the member (read whole, as zipfile gives it)."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        with Image.open(io.BytesIO(archive.read(member))) as image:
            array = numpy.asarray(image, dtype=numpy.float32)
    return array[numpy.newaxis] if array.ndim == 2 else array.transpose(2, 0, 1)


@pytest.fixture
def check(tmp_path, monkeypatch):
    """``check(data)``: read every example of the archive ``data`` (by index, then a few by
    name) under the case rules; images that are read must be what the member holds."""
    # Pillow's own guard against decompression bombs, lowered so that the allocation bound
    # holds: beyond twice this many pixels Pillow refuses an image.
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 2**18)
    folder = tmp_path / "target"
    sandbox = folder / "work" / "deeper"
    sandbox.mkdir(parents=True)
    path = folder / "images.zip"
    allowed = (zipfile.BadZipFile, OSError, KeyError, Image.DecompressionBombWarning)

    def run(data: bytes, names=()) -> list:
        path.write_bytes(data)
        before = sorted(p for p in tmp_path.rglob("*"))
        read: list = []

        def case() -> None:
            dataset = ZippedImageDataset(str(path))
            for i in range(len(dataset)):
                read.append((i, dataset[i]))
            for name in names:
                dataset.get_example(name)

        caught = _fuzzing.run_case(case, allowed, str(sandbox), max_bytes=16 * 2**20)
        assert sorted(p for p in tmp_path.rglob("*")) == before, "a file was written"
        if isinstance(caught, zipfile.BadZipFile):
            assert str(path) in str(caught)
        if read:
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                members = [m for m in archive.infolist() if not m.filename.endswith("/")]
            for i, image in read:
                numpy.testing.assert_array_equal(image, _expected(data, members[i]))
        return read if caught is None else [caught]

    return run


def test_mutated_archives(check):
    @SETTINGS
    @hypothesis.given(
        members=st.lists(
            st.tuples(st.sampled_from(NAMES), st.sampled_from(sorted(IMAGES))), max_size=4
        ),
        compression=st.sampled_from(COMPRESSIONS),
        where=st.sampled_from(["archive", "image", "random"]),
        body=st.binary(max_size=512),
        flips=MUTATIONS,
        cut=CUTS,
        missing=st.booleans(),
    )
    def case(members, compression, where, body, flips, cut, missing):
        contents = [(name, IMAGES[format_]) for name, format_ in members]
        if where == "image" and contents:  # a corrupt image in a sound archive
            name, image = contents[0]
            contents[0] = (name, _fuzzing.mutate(image, flips, cut))
        data = _archive(contents, compression)
        if where == "archive":
            data = _fuzzing.mutate(data, flips, cut)
        elif where == "random":
            data = b"PK\x03\x04" + body
        names = [name for name, _ in contents][:2] + (["missing.png"] if missing else [])
        check(data, names)

    case()


def test_a_damaged_member_is_refused_naming_the_archive(check):
    data = bytearray(_archive([("a.bmp", IMAGES["BMP"])], zipfile.ZIP_STORED))
    position = data.index(IMAGES["BMP"]) + len(IMAGES["BMP"]) - 1
    data[position] ^= 0xFF  # a pixel byte: the image decodes, the CRC does not match
    (caught,) = check(bytes(data))
    assert isinstance(caught, zipfile.BadZipFile) and "Bad CRC-32" in str(caught)
    assert "the member 'a.bmp' of the zip archive" in str(caught)


def test_zip_bombs_allocate_nothing_of_their_size(check):
    zeros = bytes(BOMB_BYTES)
    # Zeros in a member: not an image, refused by the first bytes read.
    (caught,) = check(_archive([("bomb.png", zeros)], zipfile.ZIP_DEFLATED))
    assert isinstance(caught, OSError) and "cannot read the image 'bomb.png'" in str(caught)
    # An image followed by zeros: decoded, then the rest read through in chunks for the CRC.
    ((_, image),) = check(_archive([("tail.png", IMAGES["PNG"] + zeros)], zipfile.ZIP_DEFLATED))
    assert image.shape == (3, 6, 5)
    # A member whose header states fewer bytes than it inflates to: the CRC does not match.
    data = bytearray(_archive([("lying.png", IMAGES["PNG"] + zeros)], zipfile.ZIP_DEFLATED))
    for signature, offset in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        start = data.index(signature) + offset
        data[start : start + 4] = len(IMAGES["PNG"]).to_bytes(4, "little")
    (caught,) = check(bytes(data))
    assert isinstance(caught, zipfile.BadZipFile) and "Bad CRC-32" in str(caught)


def test_names_never_become_paths(check):
    data = _archive([(name, IMAGES["GIF"]) for name in NAMES], zipfile.ZIP_DEFLATED)
    read = check(data, names=["../../evil.png", "/abs/b.gif"])
    assert len(read) == len(NAMES) - 1  # the directory entry is not an example
    (caught,) = check(data, names=["evil.png"])
    assert isinstance(caught, KeyError) and "evil.png" in str(caught)
