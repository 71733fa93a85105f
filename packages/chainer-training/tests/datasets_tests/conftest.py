"""A local HTTP server and a private dataset root for the end-to-end loader tests.

The server runs in a thread on 127.0.0.1 and serves files the tests put in ``files``
(path -> bytes). A test can make it announce a longer ``Content-Length`` than it sends, to
simulate a connection that breaks off.
"""

import gzip
import http.server
import io
import struct
import tarfile
import threading

import numpy
import pytest

import chainer._dataset_root


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        server = self.server
        server.requests.append(self.path)
        body = server.files.get(self.path)
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body) + server.missing_bytes.get(self.path, 0)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):  # keep the test output clean
        pass


class LocalServer:
    def __init__(self):
        self._server = http.server.HTTPServer(("127.0.0.1", 0), _Handler)
        self._server.files = self.files = {}
        self._server.requests = self.requests = []
        self._server.missing_bytes = self.missing_bytes = {}
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/"
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()

    def stop(self):
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


@pytest.fixture
def server():
    local = LocalServer()
    yield local
    local.stop()


@pytest.fixture
def dataset_root(tmp_path, monkeypatch):
    root = tmp_path / "datasets"
    monkeypatch.setattr(chainer._dataset_root, "_root", str(root))
    return root


def idx_gz(array: numpy.ndarray) -> bytes:
    """``array`` (uint8) as a gzipped IDX file, the format of the MNIST family."""
    header = struct.pack(">HBB", 0, 0x08, array.ndim) + struct.pack(
        f">{array.ndim}I", *array.shape
    )
    return gzip.compress(header + array.tobytes())


@pytest.fixture
def make_idx_files():
    """``make(n, seed)`` -> (images .gz, labels .gz, images (n, 28, 28), labels (n,))."""

    def make(n, seed):
        rng = numpy.random.RandomState(seed)
        images = rng.randint(0, 256, (n, 28, 28)).astype(numpy.uint8)
        labels = rng.randint(0, 10, n).astype(numpy.uint8)
        return idx_gz(images), idx_gz(labels), images, labels

    return make


def tar_gz(members: dict) -> bytes:
    """A gzipped tarball of ``members`` (name -> bytes), as the CIFAR downloads are."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, payload in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(payload)
            tar.addfile(info, io.BytesIO(payload))
    return buffer.getvalue()


@pytest.fixture
def make_tarball():
    """``make(members)`` -> a gzipped tarball of ``members`` (name -> bytes)."""
    return tar_gz
