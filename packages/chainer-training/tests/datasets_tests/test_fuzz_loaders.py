"""Fuzzing the dataset file parsers: MNIST-family IDX, CIFAR and SVHN downloads, images,
TextDataset and PickleDataset.

Every case must return or raise the parser's documented exception type with a message,
within the time limit, under the allocation bound, writing nothing into its sandbox (see
chainer.testing._fuzzing). Downloads are handed to the parsers as already-cached files.
Cases per harness: 1,000 (CI) or $CHAINER_FUZZ_EXAMPLES (the `fuzz` nox session).
"""

from __future__ import annotations

import gzip
import io
import pickle
import struct

import numpy
import pytest

from chainer.dataset import download
from chainer.datasets import (
    ImageDataset,
    PickleDataset,
    PickleDatasetWriter,
    TextDataset,
    _download,
    _mnist_helper,
    cifar,
    svhn,
)
from chainer.testing import _fuzzing

from ._sample_images import encoded_images

hypothesis = pytest.importorskip("hypothesis")
st = hypothesis.strategies
pytestmark = pytest.mark.fuzz
SETTINGS = _fuzzing.hypothesis_settings()
MUTATIONS = st.lists(st.tuples(st.integers(0, 2**20), st.integers(0, 255)), max_size=8)
CUTS = st.one_of(st.none(), st.integers(0, 2**20))


@pytest.fixture
def downloaded(tmp_path, monkeypatch):
    """``put(data)`` -> path: ``data`` as the cached download of any URL; and a sandbox."""
    cache = tmp_path / "cache"
    cache.mkdir()
    sandbox = tmp_path / "sandbox"
    sandbox.mkdir()
    path = cache / "download"
    monkeypatch.setattr(download, "cached_download", lambda url: str(path))
    # Parse anew on every call rather than through the converted-array cache.
    monkeypatch.setattr(_download, "cached_arrays", lambda name, file, create: create())

    def put(data: bytes) -> str:
        path.write_bytes(data)
        return str(path)

    put.sandbox = str(sandbox)
    return put


# -- MNIST family: gzipped IDX ------------------------------------------------------------


def _idx(header_shape, data: bytes, magic=(0, 8)) -> bytes:
    header = struct.pack(">HBB", magic[0], magic[1], len(header_shape))
    return gzip.compress(header + struct.pack(f">{len(header_shape)}I", *header_shape) + data)


def _read_images(result: list) -> None:
    result.append(
        _download.load_cached_download(
            "http://example/images", lambda p: _mnist_helper.read_idx(p, 3), "IDX images"
        )
    )


def test_idx_files(downloaded):
    shapes = st.lists(st.integers(0, 2**32 - 1) | st.integers(0, 4), min_size=0, max_size=4)

    @SETTINGS
    @hypothesis.given(
        kind=st.sampled_from(["raw", "gzip", "idx"]),
        body=st.binary(max_size=512),
        shape=shapes,
        magic=st.sampled_from([(0, 8), (0, 9), (1, 8)]),
        flips=MUTATIONS,
        cut=CUTS,
    )
    def case(kind, body, shape, magic, flips, cut):
        if kind == "raw":
            data = body
        elif kind == "gzip":
            data = gzip.compress(body)
        else:
            data = _fuzzing.mutate(_idx(shape, body, magic), flips, cut)
        downloaded(data)
        result = []
        caught = _fuzzing.run_case(
            lambda: _read_images(result), (ValueError,), downloaded.sandbox, max_bytes=8 * 2**20
        )
        if caught is None:  # what was read is exactly what the file holds
            raw = gzip.decompress(data)
            (images,) = result
            assert images.ndim == 3 and raw[1:4] == b"\x00\x08\x03"
            assert images.shape == struct.unpack(">3I", raw[4:16])
            assert images.tobytes() == raw[16:]

    case()


def test_idx_gzip_bomb_is_refused_after_the_announced_size(downloaded):
    downloaded(_idx((2, 3, 3), bytes(18 + 64 * 2**20)))
    caught = _fuzzing.run_case(
        lambda: _read_images([]), (ValueError,), downloaded.sandbox, max_bytes=4 * 2**20
    )
    assert "announces shape (2, 3, 3) (18 bytes) but the file holds more bytes" in str(caught)


# -- CIFAR: pickles in a tarball ------------------------------------------------------------


def _batch(n: int, protocol: int = 2) -> bytes:
    data = numpy.arange(n * 3072, dtype=numpy.uint8).reshape(n, 3072)
    batch = {b"data": data, b"fine_labels": list(range(n)), b"batch_label": b"x"}
    return pickle.dumps(batch, protocol=protocol)


def test_cifar_archives(downloaded, make_tarball):
    valid_test = _batch(1)

    @SETTINGS
    @hypothesis.given(
        where=st.sampled_from(["pickle", "tarball", "random"]),
        protocol=st.sampled_from([2, 4, 5]),
        body=st.binary(max_size=512),
        flips=MUTATIONS,
        cut=CUTS,
    )
    def case(where, protocol, body, flips, cut):
        train = _batch(2, protocol)
        if where == "pickle":
            train = _fuzzing.mutate(train, flips, cut)
        members = {"cifar-100-python/train": train, "cifar-100-python/test": valid_test}
        data = make_tarball(members)
        if where == "tarball":
            data = _fuzzing.mutate(data, flips, cut)
        elif where == "random":
            data = body
        downloaded(data)
        result = []
        caught = _fuzzing.run_case(
            lambda: result.append(cifar._convert("cifar-100")),
            (ValueError,),
            downloaded.sandbox,
            max_bytes=16 * 2**20,
        )
        if caught is None:
            (arrays,) = result
            assert arrays["train_x"].shape[1:] == (3072,) and arrays["train_x"].dtype == "uint8"
            assert arrays["train_y"].shape == arrays["train_x"].shape[:1]

    case()


# -- SVHN: MATLAB files ---------------------------------------------------------------------


def test_svhn_mat_files(downloaded):
    scipy_io = pytest.importorskip("scipy.io")
    buffer = io.BytesIO()
    images = numpy.arange(32 * 32 * 3 * 2, dtype=numpy.uint8).reshape(32, 32, 3, 2)
    scipy_io.savemat(buffer, {"X": images, "y": numpy.array([[10], [3]])}, do_compression=True)
    compressed = buffer.getvalue()
    buffer = io.BytesIO()
    scipy_io.savemat(buffer, {"X": images, "y": numpy.array([[10], [3]])})
    plain = buffer.getvalue()

    @SETTINGS
    @hypothesis.given(
        source=st.sampled_from(["compressed", "plain", "random"]),
        body=st.binary(max_size=512),
        flips=MUTATIONS,
        cut=CUTS,
    )
    def case(source, body, flips, cut):
        data = {"compressed": compressed, "plain": plain, "random": body}[source]
        downloaded(_fuzzing.mutate(data, flips, cut))
        result = []
        caught = _fuzzing.run_case(
            lambda: result.append(svhn._retrieve("train", scipy_io)),
            (ValueError,),
            downloaded.sandbox,
            max_bytes=64 * 2**20,
        )
        if caught is None:
            (arrays,) = result
            assert arrays["x"].shape[1:] == (3, 32, 32) and arrays["x"].dtype == "uint8"
            assert arrays["y"].shape == arrays["x"].shape[:1] and arrays["y"].max() < 10

    case()


# -- ImageDataset on corrupt images ---------------------------------------------------------


def test_corrupt_images(tmp_path, monkeypatch):
    image_module = pytest.importorskip("PIL.Image")
    # Pillow's own guard against decompression bombs, lowered so that the allocation bound of
    # the cases holds: beyond twice this many pixels Pillow refuses an image.
    monkeypatch.setattr(image_module, "MAX_IMAGE_PIXELS", 2**18)
    valid = encoded_images(image_module)
    sandbox = tmp_path / "sandbox"
    sandbox.mkdir()
    path = tmp_path / "image"
    # pytest turns warnings into errors: Pillow warns of a decompression bomb between
    # MAX_IMAGE_PIXELS and twice that; a user gets the warning and the image.
    allowed = (OSError, image_module.DecompressionBombWarning)

    @SETTINGS
    @hypothesis.given(
        format_=st.sampled_from(sorted(valid) + ["random"]),
        body=st.binary(max_size=256),
        flips=MUTATIONS,
        cut=CUTS,
    )
    def case(format_, body, flips, cut):
        path.write_bytes(_fuzzing.mutate(valid.get(format_, body), flips, cut))
        dataset = ImageDataset([path.name], root=str(tmp_path))
        result = []
        caught = _fuzzing.run_case(
            # 2 * 2**18 pixels of 4 channels in uint8 and float32, plus Pillow's first imports
            lambda: result.append(dataset[0]),
            allowed,
            str(sandbox),
            max_bytes=64 * 2**20,
        )
        if caught is None:
            (image,) = result
            assert image.ndim == 3 and image.dtype == numpy.float32
        elif isinstance(caught, OSError):
            assert f"cannot read the image {str(path)!r}" in str(caught)

    case()


# -- TextDataset ----------------------------------------------------------------------------


def test_text_files(tmp_path):
    sandbox = tmp_path / "sandbox"
    sandbox.mkdir()
    path = tmp_path / "lines.txt"

    @SETTINGS
    @hypothesis.given(
        data=st.one_of(
            st.binary(max_size=256),
            st.text(max_size=64).map(lambda s: s.encode("utf-8", "surrogatepass")),
        ),
        encoding=st.sampled_from(["utf-8", "latin-1", "utf-16", "ascii"]),
        errors=st.sampled_from([None, "replace", "surrogateescape"]),
        newline=st.sampled_from([None, "", "\n", "\r\n"]),
    )
    def case(data, encoding, errors, newline):
        path.write_bytes(data)
        options = {"encoding": encoding, "errors": errors, "newline": newline}
        try:
            with open(path, **options) as f:
                expected = f.readlines()
        except ValueError:  # UnicodeDecodeError: the dataset must fail too
            expected = None
        result = []

        def read() -> None:
            dataset = TextDataset(str(path), **options)
            try:
                result.append([dataset[i] for i in range(len(dataset))])
            finally:
                dataset.close()

        caught = _fuzzing.run_case(read, (ValueError,), str(sandbox), max_bytes=4 * 2**20)
        if expected is None:
            assert isinstance(caught, ValueError)
        else:
            assert caught is None and result == [expected]

    case()


# -- PickleDataset --------------------------------------------------------------------------

_RAN: list = []


def _mark(*args) -> None:
    _RAN.append(args)


class _Hostile:
    def __reduce__(self):
        return (_mark, ("hostile",))


def _pickle_file(examples, protocol) -> bytes:
    buffer = io.BytesIO()
    writer = PickleDatasetWriter(buffer, protocol=protocol)
    for example in examples:
        writer.write(example)
    return buffer.getvalue()


def test_pickle_dataset_files(tmp_path):
    sandbox = tmp_path / "sandbox"
    sandbox.mkdir()
    plain = [1, "two", (3.0, None), {"x": numpy.arange(4, dtype=numpy.int16)}, b"\x00" * 9]

    @SETTINGS
    @hypothesis.given(
        source=st.sampled_from(["plain", "hostile", "random"]),
        protocol=st.sampled_from([0, 2, 4, 5]),
        body=st.binary(max_size=512),
        flips=MUTATIONS,
        cut=CUTS,
    )
    def case(source, protocol, body, flips, cut):
        if source == "random":
            data = body
        else:
            examples = plain + ([_Hostile()] if source == "hostile" else [])
            data = _fuzzing.mutate(_pickle_file(examples, protocol), flips, cut)

        def read() -> None:
            dataset = PickleDataset(io.BytesIO(data))
            for i in range(len(dataset)):
                dataset[i]

        _fuzzing.run_case(read, (pickle.UnpicklingError,), str(sandbox), max_bytes=8 * 2**20)
        assert not _RAN, "unpickling ran code named by the file"

    case()
