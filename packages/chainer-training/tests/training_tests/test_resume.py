"""Resuming after a real SIGKILL: the resumed run equals an uninterrupted one bit for bit, and
a kill in the middle of writing a snapshot leaves the previous snapshot loadable."""

import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import numpy
import pytest

from chainer import serializers

JOB = pathlib.Path(__file__).with_name("_resume_job.py")

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)")


def _run(out, mode=""):
    done = subprocess.run(
        [sys.executable, str(JOB), str(out), mode], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads((out / "result.json").read_text())


def _start_and_kill_when(out, mode, marker):
    process = subprocess.Popen(
        [sys.executable, str(JOB), str(out), mode], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 120
    while not (out / marker).exists():
        if process.poll() is not None:
            raise AssertionError(
                f"the job ended before {marker}: {process.stderr.read().decode()}"
            )
        assert time.monotonic() < deadline, "the job did not reach the kill point"
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.communicate(timeout=30)
    assert process.returncode == -signal.SIGKILL


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    out = tmp_path_factory.mktemp("uninterrupted")
    return _run(out)


def test_resume_after_sigkill_equals_an_uninterrupted_run(tmp_path, uninterrupted):
    _start_and_kill_when(tmp_path, "pause:12", "paused")
    assert sorted(p.name for p in tmp_path.glob("snapshot_*")) == [
        "snapshot_iter_10",
        "snapshot_iter_5",
    ]
    resumed = _run(tmp_path)
    assert resumed["first_iteration"] == 11  # loaded the iteration-10 snapshot
    assert uninterrupted["first_iteration"] == 1
    assert len(resumed["losses"]) == 20
    # Bit for bit: JSON floats round-trip exactly, parameters are compared as raw bytes.
    for key in ("losses", "log", "W", "b", "lr"):
        assert resumed[key] == uninterrupted[key], key
    assert [e["iteration"] for e in resumed["log"]] == [5, 10, 15, 20]
    assert sorted(p.name for p in tmp_path.glob("snapshot_*")) == [
        "snapshot_iter_15",
        "snapshot_iter_20",
    ]


def test_sigkill_while_writing_a_snapshot_keeps_the_previous_one(tmp_path, uninterrupted):
    _start_and_kill_when(tmp_path, "slowsave:10", "saving")
    names = sorted(p.name for p in tmp_path.iterdir())
    assert "snapshot_iter_10" not in names and "snapshot_iter_5" in names
    partial = [n for n in names if n.startswith(".snapshot_iter_10.")]
    assert len(partial) == 1 and partial[0].endswith(".tmp")  # the interrupted write
    with numpy.load(tmp_path / "snapshot_iter_5") as archive:
        assert int(archive["updater/iteration"]) == 5
    resumed = _run(tmp_path)
    assert resumed["first_iteration"] == 6
    for key in ("losses", "log", "W", "b", "lr"):
        assert resumed[key] == uninterrupted[key], key


def test_a_partial_file_is_not_loadable(tmp_path):
    path = tmp_path / "broken"
    path.write_bytes(b"PK\x03\x04 half of an archive")
    with pytest.raises(ValueError, match="is not a readable NPZ archive"):
        serializers.load_npz(path, object())
