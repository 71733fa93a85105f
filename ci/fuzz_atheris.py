"""Coverage-guided fuzzing of the file loaders with atheris (libFuzzer), run by ``nox -s fuzz``
beside the hypothesis harnesses.

    python ci/fuzz_atheris.py TARGET [libFuzzer options, e.g. -runs=10000]
    python ci/fuzz_atheris.py list      # the targets

Each input is handed to one loader as a file's content under the same rules as the
hypothesis harnesses (``chainer.testing._fuzzing.run_case``): return or raise a documented
exception type with a message, within 10 s, under an allocation bound, writing nothing into
the working folder. A broken rule is a crash: libFuzzer stops and saves the input (see
``-artifact_prefix``). The corpus starts from valid files of each format, so mutations reach
past the first checks.
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import sys
import tempfile
import warnings
import zipfile
from collections.abc import Callable

import atheris
import numpy

# Coverage of chainer's code guides the mutations (listing the targets needs none).
_LISTING = sys.argv[1:] == ["list"]
with contextlib.nullcontext() if _LISTING else atheris.instrument_imports(include=["chainer"]):
    import chainer
    import chainer.links as L
    from chainer import serializers
    from chainer.dataset import download
    from chainer.datasets import (
        ImageDataset,
        PickleDataset,
        PickleDatasetWriter,
        TextDataset,
        ZippedImageDataset,
        _download,
        _mnist_helper,
    )
    from chainer.links.caffe import CaffeFunction
    from chainer.links.caffe.protobuf3 import caffe_pb2
    from chainer.testing import _fuzzing

WORK = tempfile.mkdtemp(prefix="chainer-atheris-")
SANDBOX = os.path.join(WORK, "sandbox")
INPUT = os.path.join(WORK, "input")


def _model() -> chainer.Chain:
    model = chainer.Sequential(L.Linear(3, 2), L.Linear(2, 2))
    for param in model.params():
        param.array[...] = numpy.arange(param.size, dtype=numpy.float32).reshape(param.shape)
    return model


def _npz() -> bytes:
    buffer = io.BytesIO()
    serializers.save_npz(buffer, _model())
    return buffer.getvalue()


def _hdf5() -> bytes:
    path = os.path.join(WORK, "seed.h5")
    serializers.save_hdf5(path, _model())
    with open(path, "rb") as f:
        return f.read()


def _pickles() -> bytes:
    buffer = io.BytesIO()
    writer = PickleDatasetWriter(buffer)
    for example in [1, "two", (3.0, None), numpy.arange(4, dtype=numpy.int16)]:
        writer.write(example)
    return buffer.getvalue()


def _png() -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(numpy.arange(30, dtype=numpy.uint8).reshape(5, 6)).save(buffer, "PNG")
    return buffer.getvalue()


def _zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a.png", _png())
        archive.writestr("dir/../b.png", _png())
    return buffer.getvalue()


def _caffemodel() -> bytes:
    fc = caffe_pb2.LayerParameter(name="fc", type="InnerProduct", bottom=["x"], top=["y"])
    for shape in ((2, 3), (2,)):
        blob = fc.blobs.add()
        blob.shape.dim[:] = shape
        blob.data[:] = numpy.arange(numpy.prod(shape), dtype=numpy.float32)
    relu = caffe_pb2.LayerParameter(name="relu", type="ReLU", bottom=["y"], top=["y"])
    return caffe_pb2.NetParameter(name="seed", layer=[fc, relu]).SerializeToString()


def _idx() -> bytes:
    import gzip

    return gzip.compress(b"\x00\x00\x08\x03" + (2).to_bytes(4, "big") * 3 + bytes(8))


def _read_all(dataset) -> None:
    for i in range(len(dataset)):
        dataset[i]


def _read_pickles() -> None:
    with open(INPUT, "rb") as f:
        _read_all(PickleDataset(f))


def _read_lines() -> None:
    dataset = TextDataset(INPUT)
    try:
        _read_all(dataset)
    finally:
        dataset.close()


def _read_idx() -> None:
    _download.load_cached_download("http://x", lambda p: _mnist_helper.read_idx(p, 3), "IDX")


# name -> (seed input, the load of INPUT, documented exception types, allocation bound)
TARGETS: dict[str, tuple[Callable[[], bytes], Callable[[], object], tuple, int]] = {
    "npz": (_npz, lambda: serializers.load_npz(INPUT, _model()), (ValueError, KeyError), 8),
    "hdf5": (_hdf5, lambda: serializers.load_hdf5(INPUT, _model()), (ValueError, KeyError), 8),
    "pickle": (_pickles, _read_pickles, (pickle.UnpicklingError,), 8),
    "image": (_png, lambda: ImageDataset([INPUT])[0], (OSError,), 64),
    "text": (_pickles, _read_lines, (ValueError,), 4),
    "zip": (
        _zip,
        lambda: _read_all(ZippedImageDataset(INPUT)),
        (zipfile.BadZipFile, OSError),
        16,
    ),
    "caffe": (_caffemodel, lambda: CaffeFunction(INPUT), (ValueError, RuntimeError), 16),
    "idx": (_idx, _read_idx, (ValueError,), 8),
}


def main(argv: list[str]) -> None:
    if argv[1:] == ["list"]:
        print(" ".join(TARGETS))
        return
    if len(argv) < 2 or argv[1] not in TARGETS:
        raise SystemExit(f"usage: {argv[0]} {{{','.join(TARGETS)}}} [libFuzzer options]")
    seed, load, allowed, max_mib = TARGETS[argv[1]]
    from PIL import Image

    Image.MAX_IMAGE_PIXELS = 2**18  # the allocation bound of the image harnesses
    # Warnings are documented behaviour (a skipped Caffe layer, a large image): not failures.
    warnings.simplefilter("ignore")
    download.cached_download = lambda url: INPUT  # IDX: the input is the cached download
    os.makedirs(SANDBOX)
    corpus = os.path.join(WORK, "corpus")
    os.makedirs(corpus)
    with open(os.path.join(corpus, "seed"), "wb") as f:
        f.write(seed())

    def one_input(data: bytes) -> None:
        with open(INPUT, "wb") as f:
            f.write(data)
        _fuzzing.run_case(load, allowed, SANDBOX, max_bytes=max_mib * 2**20)

    atheris.Setup([argv[0], *argv[2:], corpus], one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
