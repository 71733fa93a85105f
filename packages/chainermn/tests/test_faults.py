"""Faults in a 2-process job: nothing hangs, and a relaunch resumes exactly (mpi_launch).

These tests start their own ``mpiexec -n 2`` jobs (``_fault_job.py``), so they run outside
mpiexec, each under ``timeout``.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys
import time

import numpy
import pytest

pytestmark = pytest.mark.mpi_launch

JOB = pathlib.Path(__file__).with_name("_fault_job.py")
# Seconds from the fault to the end of the whole job.
DEADLINE = 10.0


def _mpiexec() -> str:
    found = shutil.which("mpiexec") or os.path.join(os.path.dirname(sys.executable), "mpiexec")
    if not os.path.exists(found):
        pytest.skip("mpiexec is not installed")
    return found


def _launch(out: pathlib.Path, *args: str, env: dict | None = None):
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("PMI_", "HYDRA"))}
    environment.update(env or {})
    command = ["timeout", "120", _mpiexec(), "-n", "2", sys.executable, str(JOB)]
    result = subprocess.run(
        [*command, "--out", str(out), *args], capture_output=True, text=True, env=environment
    )
    return result, time.time()


def _results(out: pathlib.Path) -> list[dict]:
    results = []
    for rank in range(2):
        with numpy.load(out / f"result.{rank}.npz") as npz:
            results.append({key: npz[key] for key in npz.files})
    return results


def _seconds_after_fault(out: pathlib.Path, ended: float) -> float:
    return ended - float((out / "fault_time").read_text())


def test_an_exception_on_one_rank_ends_every_rank_with_its_traceback(tmp_path):
    result, ended = _launch(
        tmp_path, "--raise-at", "7", env={"CHAINERMN_FORCE_ABORT_ON_EXCEPTION": "1"}
    )
    assert result.returncode not in (0, 124), result.stderr[-2000:]
    assert _seconds_after_fault(tmp_path, ended) < DEADLINE
    assert "[rank 1] chainermn: uncaught exception on rank 1 of 2" in result.stderr
    assert "[rank 1] RuntimeError: injected failure on rank 1" in result.stderr


def test_a_killed_rank_ends_the_job_and_a_relaunch_resumes_exactly(tmp_path):
    reference, killed = tmp_path / "reference", tmp_path / "killed"
    result, _ = _launch(reference)
    assert result.returncode == 0, result.stderr[-2000:]

    result, ended = _launch(killed, "--kill-at", "13")
    assert result.returncode not in (0, 124), result.stderr[-2000:]
    assert _seconds_after_fault(killed, ended) < DEADLINE
    assert sorted(p.name for p in killed.glob("job.*")) == [
        "job.0.10",
        "job.0.5",
        "job.1.10",
        "job.1.5",
    ]

    result, _ = _launch(killed)
    assert result.returncode == 0, result.stderr[-2000:]
    expected, resumed = _results(reference), _results(killed)
    for rank in range(2):
        assert int(resumed[rank]["resumed_from"]) == 10
        assert int(expected[rank]["resumed_from"]) == 0
        for key, value in expected[rank].items():
            if key != "resumed_from":
                # Bit for bit: same seeds, same order of operations, on the CPU.
                numpy.testing.assert_array_equal(resumed[rank][key], value, err_msg=key)
    for key, value in resumed[0].items():
        if key.startswith("param"):
            numpy.testing.assert_array_equal(resumed[1][key], value, err_msg=key)
    # A job that ends normally removes its checkpoints.
    assert not list(killed.glob("job.*"))
