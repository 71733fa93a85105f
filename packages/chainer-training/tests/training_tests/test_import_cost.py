"""``import chainer.training`` and ``chainer.iterators`` leave out what only downloads and
worker processes or threads need."""

import os
import subprocess
import sys

# urllib.request brings http.client, email, ssl and socket; with multiprocessing, subprocess and
# concurrent.futures about 25 ms of every training program's start.
ON_FIRST_USE = (
    "urllib.request",
    "http.client",
    "multiprocessing",
    "subprocess",
    "concurrent.futures",
)


def test_training_imports_no_network_or_process_modules():
    code = (
        "import sys\n"
        "import chainer.dataset, chainer.iterators\n"
        "import chainer.training.extensions, chainer.training.updaters\n"
        f"print([m for m in {ON_FIRST_USE!r} if m in sys.modules])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_iterators_start_their_workers():
    code = (
        "import chainer.iterators as I\n"
        "data = list(range(10))\n"
        "for cls, arg in [(I.MultiprocessIterator, 'n_processes'), "
        "(I.MultithreadIterator, 'n_threads')]:\n"
        "    it = cls(data, 4, repeat=False, shuffle=False, **{arg: 2})\n"
        "    assert [list(b) for b in it] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]\n"
        "    it.finalize()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_process_writer_and_download_still_get_their_modules(tmp_path):
    code = (
        "import sys\n"
        "from chainer.training.extensions import snapshot_writers\n"
        "from chainer.dataset import download\n"
        "worker = snapshot_writers.ProcessWriter().create_worker('f', '.', {})\n"
        "import multiprocessing\n"
        "assert isinstance(worker, multiprocessing.Process)\n"
        "try:\n"
        "    download.cached_download('http://127.0.0.1:9/unreachable')\n"
        "except OSError as error:\n"
        "    assert 'cannot download http://127.0.0.1:9/unreachable' in str(error), error\n"
        "else:\n"
        "    raise AssertionError('downloaded')\n"
    )
    env = {**os.environ, "CHAINER_DATASET_ROOT": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
