"""Snapshots on a full disk or a read-only directory: the previous snapshot survives, the
error names the file, and the training stops (default) or goes on (``on_write_error``).

Real faults where the machine allows it: a small tmpfs (needs root and mount rights; skipped
elsewhere) filled up or remounted read-only, and the file size limit (RLIMIT_FSIZE, no
rights needed). A savefun failing half way stands for any other write error.
"""

import contextlib
import errno
import os
import resource
import signal
import subprocess

import numpy
import pytest

from chainer import serializers
from chainer.training import extensions


def _mount(*args):
    return subprocess.run(["mount", *args], capture_output=True, text=True).returncode == 0


@pytest.fixture
def small_disk(tmp_path):
    """A 1 MiB tmpfs; ``small_disk.remount('ro')`` makes it read-only."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if os.geteuid() != 0 or not _mount("-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk)):
        pytest.skip("mounting a tmpfs needs root and mount rights")
    yield disk
    subprocess.run(["umount", "-l", str(disk)], check=True)


def _trainer(make_trainer, out, **snapshot_kwargs):
    trainer = make_trainer(stop=(6, "iteration"))
    trainer.out = str(out)
    trainer.extend(
        extensions.snapshot(filename="snapshot", **snapshot_kwargs), trigger=(2, "iteration")
    )
    return trainer


def _iteration_in(path):
    with numpy.load(path) as archive:
        return int(archive["updater/iteration"])


def _fill(folder, leave):
    """Fill the file system of ``folder`` up to ``leave`` free bytes."""
    stats = os.statvfs(folder)
    free = stats.f_bavail * stats.f_frsize
    with open(folder / "filler", "wb") as filler:
        with contextlib.suppress(OSError):
            filler.write(bytes(max(free - leave, 0)))


class _StopAt:
    """A trainer extension that runs ``action`` once, at ``iteration``."""

    default_name = "stop_at"

    def __init__(self, iteration, action):
        self.iteration, self.action = iteration, action
        self.trigger = (1, "iteration")
        self.priority = 1000  # before the snapshot of the same iteration

    def __call__(self, trainer):
        if trainer.updater.iteration == self.iteration:
            self.action()


def test_full_disk_keeps_the_previous_snapshot_and_stops_with_the_path(make_trainer, small_disk):
    trainer = _trainer(make_trainer, small_disk)
    trainer.extend(_StopAt(3, lambda: _fill(small_disk, leave=100)))
    with pytest.raises(OSError, match=r"No space left on device.*'.*disk/snapshot'") as caught:
        trainer.run()
    assert caught.value.errno == errno.ENOSPC
    assert _iteration_in(small_disk / "snapshot") == 2  # the previous snapshot, intact
    assert sorted(os.listdir(small_disk)) == ["filler", "snapshot"]  # no temporary file left


def test_read_only_directory_keeps_the_previous_snapshot(make_trainer, small_disk):
    trainer = _trainer(make_trainer, small_disk)
    trainer.extend(_StopAt(3, lambda: _mount("-o", "remount,ro", str(small_disk))))
    with pytest.raises(OSError, match=r"Read-only file system.*'.*disk/snapshot'") as caught:
        trainer.run()
    assert caught.value.errno == errno.EROFS
    assert _iteration_in(small_disk / "snapshot") == 2
    assert os.listdir(small_disk) == ["snapshot"]


def test_on_write_error_warn_goes_on_and_writes_again_once_there_is_room(make_trainer, small_disk):
    trainer = _trainer(make_trainer, small_disk, on_write_error="warn")
    trainer.extend(_StopAt(3, lambda: _fill(small_disk, leave=100)))
    trainer.extend(_StopAt(5, lambda: os.remove(small_disk / "filler")))
    with pytest.warns(UserWarning, match=r"training goes on.*No space left.*disk/snapshot'"):
        trainer.run()
    assert trainer.updater.iteration == 6
    assert _iteration_in(small_disk / "snapshot") == 6


def test_file_size_limit_is_an_error_naming_the_file(make_trainer, tmp_path):
    # No rights needed: writes past RLIMIT_FSIZE fail with EFBIG (SIGXFSZ ignored).
    trainer = _trainer(make_trainer, tmp_path / "out")
    trainer.extend(_StopAt(3, lambda: None))
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous_handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (100, hard))

    trainer.extend(_StopAt(4, limit))
    try:
        with pytest.raises(OSError, match=r"File too large.*'.*out/snapshot'"):
            trainer.run()
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous_handler)
    assert _iteration_in(tmp_path / "out" / "snapshot") == 2
    assert os.listdir(tmp_path / "out") == ["snapshot"]


def _failing_savefun(path, target):
    """Writes part of the file, then fails as a full disk would."""
    with open(path, "wb") as f:
        f.write(b"PK\x03\x04 partial")
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize(
    "writer",
    [
        "simple",
        "thread",
    ],
)
def test_a_failing_write_keeps_the_previous_file(make_trainer, tmp_path, writer):
    out = tmp_path / "out"
    good = make_trainer(stop=(2, "iteration"))
    good.run()
    out.mkdir()
    serializers.save_npz(out / "snapshot", good)
    make = {
        "simple": extensions.snapshot_writers.SimpleWriter,
        "thread": extensions.snapshot_writers.ThreadWriter,
    }[writer]
    trainer = make_trainer(stop=(4, "iteration"))
    trainer.out = str(out)
    extension = extensions.snapshot(filename="snapshot", writer=make(savefun=_failing_savefun))
    trainer.extend(extension, trigger=(4, "iteration"))
    with pytest.raises((OSError, RuntimeError), match=r"No space left on device.*snapshot'"):
        trainer.run()
    assert _iteration_in(out / "snapshot") == 2
    assert os.listdir(out) == ["snapshot"]
