"""Image datasets (need Pillow)."""

import contextlib
import io
import tracemalloc
import zipfile

import numpy
import pytest

import chainer
from chainer import datasets

Image = pytest.importorskip("PIL.Image")


def _rgb(seed):
    return numpy.random.RandomState(seed).randint(0, 256, (4, 5, 3)).astype(numpy.uint8)


def _gray(seed):
    return numpy.random.RandomState(seed).randint(0, 256, (3, 2)).astype(numpy.uint8)


@pytest.fixture
def images(tmp_path):
    """Two PNG files (lossless) with their pixels."""
    pixels = {"rgb.png": _rgb(0), "sub/gray.png": _gray(1)}
    (tmp_path / "sub").mkdir()
    for name, array in pixels.items():
        Image.fromarray(array).save(tmp_path / name)
    return tmp_path, pixels


def _chw(array):
    return array[None] if array.ndim == 2 else array.transpose(2, 0, 1)


def test_image_dataset_reads_chw_arrays_in_the_default_dtype(images):
    root, pixels = images
    dataset = datasets.ImageDataset(list(pixels), root=root)
    assert len(dataset) == 2
    rgb, gray = dataset[0], dataset[1]
    assert rgb.dtype == chainer.get_dtype() and rgb.shape == (3, 4, 5)
    numpy.testing.assert_array_equal(rgb, _chw(pixels["rgb.png"]))
    numpy.testing.assert_array_equal(gray, _chw(pixels["sub/gray.png"]))
    assert (
        datasets.ImageDataset(list(pixels), root=root, dtype=numpy.uint8)[1].dtype == numpy.uint8
    )


def test_image_dataset_from_a_list_file(images, tmp_path):
    root, pixels = images
    listing = tmp_path / "list.txt"
    listing.write_text("rgb.png\n\nsub/gray.png\n")
    dataset = datasets.ImageDataset(str(listing), root=str(root))
    numpy.testing.assert_array_equal(dataset[-1], _chw(pixels["sub/gray.png"]))


def test_labeled_image_dataset(images, tmp_path):
    root, pixels = images
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("rgb.png 3\nsub/gray.png   7\n")
    dataset = datasets.LabeledImageDataset(pairs, root=root, label_dtype=numpy.int64)
    image, label = dataset[1]
    numpy.testing.assert_array_equal(image, _chw(pixels["sub/gray.png"]))
    assert label.dtype == numpy.int64 and label.shape == () and int(label) == 7
    from_list = datasets.LabeledImageDataset([("rgb.png", 1)], root=root)
    assert from_list[0][1].dtype == numpy.int32


def test_labeled_image_dataset_rejects_malformed_lines(tmp_path):
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("a.png 1\nb.png\n")
    with pytest.raises(ValueError, match=r"line 2 of '.*pairs.txt' should be 'path label'"):
        datasets.LabeledImageDataset(pairs)
    pairs.write_text("a.png one\n")
    with pytest.raises(ValueError, match="has the label 'one', expected an integer"):
        datasets.LabeledImageDataset(pairs)


def _zip(path, pixels):
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("dir/", b"")
        for name, array in pixels.items():
            image_path = path.parent / name.replace("/", "_")
            Image.fromarray(array).save(image_path)
            archive.write(image_path, name)
    return path


def test_zipped_image_datasets(images, tmp_path):
    _, pixels = images
    first = _zip(tmp_path / "a.zip", pixels)
    second = _zip(tmp_path / "b.zip", {"x.png": _rgb(5)})
    zipped = datasets.ZippedImageDataset(first, dtype=numpy.float64)
    assert len(zipped) == 2  # the directory entry is not an example
    numpy.testing.assert_array_equal(zipped[1], _chw(pixels["sub/gray.png"]))
    numpy.testing.assert_array_equal(zipped.get_example("rgb.png"), _chw(pixels["rgb.png"]))
    multi = datasets.MultiZippedImageDataset([first, second])
    assert len(multi) == 3
    numpy.testing.assert_array_equal(multi[2], _chw(_rgb(5)))
    numpy.testing.assert_array_equal(multi[-3], _chw(pixels["rgb.png"]))
    labels = tmp_path / "labels.txt"
    labels.write_text("sub/gray.png 4\nrgb.png 2\n")
    labeled = datasets.LabeledZippedImageDataset(first, labels)
    image, label = labeled[0]
    numpy.testing.assert_array_equal(image, _chw(pixels["sub/gray.png"]))
    assert int(label) == 4


def test_zipped_dataset_pickles_without_its_archive(images, tmp_path):
    import pickle

    _, pixels = images
    zipped = datasets.ZippedImageDataset(_zip(tmp_path / "a.zip", pixels))
    zipped[0]
    clone = pickle.loads(pickle.dumps(zipped))
    numpy.testing.assert_array_equal(clone[0], _chw(pixels["rgb.png"]))


def test_missing_pillow_is_reported_with_the_fix(monkeypatch, images):
    import sys

    monkeypatch.setitem(sys.modules, "PIL", None)  # makes `from PIL import Image` fail
    with pytest.raises(
        ImportError, match="ImageDataset reads images with Pillow.*pip install pillow"
    ):
        datasets.ImageDataset([])


def test_available_tells_that_pillow_is_installed():
    from chainer.datasets import image_dataset

    assert image_dataset.available is True


def test_a_damaged_chunk_length_does_not_reserve_what_it_states(tmp_path):
    # A PNG whose IDAT chunk states 80 MiB: Pillow reads it with one read() of that size,
    # which a plain file object would reserve before finding the file shorter.
    buffer = io.BytesIO()
    Image.fromarray(numpy.zeros((6, 5, 3), numpy.uint8)).save(buffer, format="PNG")
    data = bytearray(buffer.getvalue())
    data[33:37] = (80 * 2**20).to_bytes(4, "big")  # the length of the chunk after IHDR
    (tmp_path / "bad.png").write_bytes(bytes(data))
    tracemalloc.start()
    try:
        with contextlib.suppress(OSError):
            datasets.ImageDataset(["bad.png"], root=str(tmp_path))[0]
        assert tracemalloc.get_traced_memory()[1] < 8 * 2**20
    finally:
        tracemalloc.stop()


def _zip_bytes(members, compression=zipfile.ZIP_STORED):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members:
            member = zipfile.ZipInfo(name)  # (writestr refuses an empty name given as text)
            member.compress_type = compression
            archive.writestr(member, data)
    return bytearray(buffer.getvalue())


def _png(array):
    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, format="PNG")
    return buffer.getvalue()


def _compressed_data_offset(data, name):
    """Where the member's compressed data starts (after its local header)."""
    start = data.index(b"PK\x03\x04" + data[4:8])  # the first local header
    assert data[start + 30 : start + 30 + len(name)] == name.encode()
    extra = int.from_bytes(data[start + 28 : start + 30], "little")
    return start + 30 + len(name) + extra


def test_zipped_members_of_one_name_are_read_apart(tmp_path):
    path = tmp_path / "twice.zip"
    with pytest.warns(UserWarning, match="Duplicate name"):
        path.write_bytes(_zip_bytes([("x.png", _png(_rgb(0))), ("x.png", _png(_rgb(1)))]))
    dataset = datasets.ZippedImageDataset(path)
    numpy.testing.assert_array_equal(dataset[0], _chw(_rgb(0)))
    numpy.testing.assert_array_equal(dataset[1], _chw(_rgb(1)))
    numpy.testing.assert_array_equal(dataset.get_example("x.png"), _chw(_rgb(1)))  # the last


def test_a_damaged_zip_archive_is_bad_zip_file_naming_it(tmp_path):
    path = tmp_path / "not.zip"
    path.write_bytes(b"PK\x03\x04" + bytes(40))
    with pytest.raises(zipfile.BadZipFile, match=f"the zip archive '{path}' is damaged"):
        datasets.ZippedImageDataset(path)


def test_a_damaged_deflate_stream_is_a_damaged_archive_not_image(tmp_path):
    data = _zip_bytes([("a.png", _png(_rgb(0)))], zipfile.ZIP_DEFLATED)
    data[_compressed_data_offset(data, "a.png")] = 0xFF  # block type 3: reserved
    path = tmp_path / "a.zip"
    path.write_bytes(data)
    dataset = datasets.ZippedImageDataset(path)
    with pytest.raises(zipfile.BadZipFile, match="the member 'a.png' of the zip archive .*zlib"):
        dataset[0]


def test_an_lzma_dictionary_beyond_its_bound_is_refused_before_allocation(tmp_path):
    data = _zip_bytes([("a.png", _png(_rgb(0)))], zipfile.ZIP_LZMA)
    start = _compressed_data_offset(data, "a.png")
    assert int.from_bytes(data[start + 5 : start + 9], "little") == 8 * 2**20  # zipfile's
    data[start + 5 : start + 9] = (2**31).to_bytes(4, "little")
    path = tmp_path / "a.zip"
    path.write_bytes(data)
    dataset = datasets.ZippedImageDataset(path)
    tracemalloc.start()
    try:
        with pytest.raises(zipfile.BadZipFile, match="LZMA dictionary of 2147483648 bytes"):
            dataset[0]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2**20


def test_a_zipped_member_with_an_empty_name_is_an_example(tmp_path):
    # zipfile.ZipInfo.is_dir() fails on it (found by atheris)
    path = tmp_path / "empty.zip"
    path.write_bytes(_zip_bytes([("", _png(_rgb(2))), ("d/", b"")]))
    dataset = datasets.ZippedImageDataset(path)
    assert len(dataset) == 1
    numpy.testing.assert_array_equal(dataset[0], _chw(_rgb(2)))
