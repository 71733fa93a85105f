"""Atomic saving: a failure at any step leaves the previous file byte for byte."""

from __future__ import annotations

import errno
import os
import stat

import numpy
import numpy.lib.format
import pytest

from chainer import serializers
from chainer.serializers._atomic import atomic_write

from . import _objects


@pytest.fixture
def previous_file(tmp_path):
    """A model file saved before the failing save, and its exact bytes."""
    path = tmp_path / "model.npz"
    serializers.save_npz(path, _objects.Tree(seed=1))
    return path, path.read_bytes()


def _assert_untouched(path, content) -> None:
    assert path.read_bytes() == content
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]  # no temp file left


def test_failure_while_writing_members(monkeypatch, previous_file):
    path, content = previous_file
    write_array = numpy.lib.format.write_array
    calls = []

    def fail_on_third_member(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise OSError("disk full")
        return write_array(*args, **kwargs)

    monkeypatch.setattr(numpy.lib.format, "write_array", fail_on_third_member)
    with pytest.raises(OSError, match="disk full"):
        serializers.save_npz(path, _objects.Tree(seed=2))
    _assert_untouched(path, content)


@pytest.mark.parametrize("step", ["fsync", "replace"])
def test_failure_while_committing(monkeypatch, previous_file, step):
    path, content = previous_file

    def fail(*args, **kwargs):
        raise OSError(f"{step} failed")

    monkeypatch.setattr(os, step, fail)
    with pytest.raises(OSError, match=f"{step} failed"):
        serializers.save_npz(path, _objects.Tree(seed=2))
    monkeypatch.undo()
    _assert_untouched(path, content)


def test_interrupt_while_serializing(previous_file):
    path, content = previous_file

    class Interrupted:
        def serialize(self, serializer):
            raise KeyboardInterrupt

    # The object is packed before the file is opened, so nothing is even created; the same
    # must hold for an interrupt inside the write itself.
    with pytest.raises(KeyboardInterrupt):
        serializers.save_npz(path, Interrupted())
    with pytest.raises(KeyboardInterrupt), atomic_write(path) as temp_path:
        with open(temp_path, "wb") as stream:
            stream.write(b"partial")
        raise KeyboardInterrupt
    _assert_untouched(path, content)


def test_success_replaces_file_and_syncs_file_and_directory(monkeypatch, tmp_path):
    path = tmp_path / "model.npz"
    path.write_bytes(b"old content")
    synced = []
    fsync = os.fsync

    def recording_fsync(fd):
        synced.append(stat.S_ISDIR(os.fstat(fd).st_mode))
        fsync(fd)

    monkeypatch.setattr(os, "fsync", recording_fsync)
    source = _objects.Tree(seed=3)
    serializers.save_npz(path, source)
    assert synced == [False, True]  # the new file, then the directory holding the rename
    target = _objects.Tree(seed=0)
    serializers.load_npz(path, target)
    _objects.assert_same_state(target, source)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.npz"]


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_replacing_keeps_permissions_of_existing_file(tmp_path):
    path = tmp_path / "model.npz"
    path.write_bytes(b"old")
    os.chmod(path, 0o640)
    serializers.save_npz(path, _objects.Leaf())
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640


@pytest.mark.skipif(os.name != "posix", reason="POSIX permission bits")
def test_new_file_gets_umask_permissions(tmp_path):
    previous = os.umask(0o027)
    try:
        serializers.save_npz(tmp_path / "model.npz", _objects.Leaf())
    finally:
        os.umask(previous)
    assert stat.S_IMODE(os.stat(tmp_path / "model.npz").st_mode) == 0o640


def test_temp_file_is_created_next_to_target(tmp_path):
    with atomic_write(tmp_path / "out.bin") as temp_path:
        assert os.path.dirname(temp_path) == str(tmp_path)
        assert os.path.basename(temp_path).startswith(".out.bin.")
        with open(temp_path, "wb") as stream:
            stream.write(b"new")
    assert (tmp_path / "out.bin").read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin"]


def test_a_write_error_names_the_target_and_keeps_its_errno(tmp_path):
    target = tmp_path / "model.npz"
    target.write_bytes(b"previous")
    with pytest.raises(OSError) as caught:
        with atomic_write(target) as temp_path:
            with open(temp_path, "wb") as f:
                f.write(b"partial")
            raise OSError(errno.ENOSPC, "No space left on device")
    assert caught.value.errno == errno.ENOSPC and isinstance(caught.value.__cause__, OSError)
    assert caught.value.filename == str(target)
    assert str(caught.value) == (
        "[Errno 28] No space left on device (the previous file, if any, is unchanged): "
        f"{str(target)!r}"
    )
    assert target.read_bytes() == b"previous" and os.listdir(tmp_path) == ["model.npz"]
