"""The committed type stubs of chainerx._core match what the installed module generates."""

import pathlib
import subprocess
import sys

COMMITTED = pathlib.Path(__file__).resolve().parents[1] / "src" / "chainerx" / "_core.pyi"
STUBGEN = [sys.executable, "-m", "nanobind.stubgen", "-q", "-m", "chainerx._core", "-o"]


def test_core_stub_is_up_to_date(tmp_path):
    generated = tmp_path / "_core.pyi"
    subprocess.run([*STUBGEN, str(generated)], check=True)
    assert generated.read_text() == COMMITTED.read_text(), (
        "src/chainerx/_core.pyi is stale: regenerate it with `python -m nanobind.stubgen "
        "-m chainerx._core -o packages/chainerx/src/chainerx/_core.pyi`"
    )
