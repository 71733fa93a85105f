"""Run the CI matrix (ci/matrix.json) through nox: the one entry point of every CI.

Usage: ``python ci/run_matrix.py`` runs every session CI runs; ``--list`` prints them;
``python ci/run_matrix.py lint docs`` runs a subset, by name.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def ci_sessions() -> list[str]:
    return json.loads((ROOT / "ci" / "matrix.json").read_text())["ci"]


def main(argv: list[str]) -> int:
    sessions = ci_sessions()
    if argv[:1] == ["--list"]:
        print("\n".join(sessions))
        return 0
    if argv:
        unknown = sorted(set(argv) - set(sessions))
        if unknown:
            print(f"not in ci/matrix.json: {unknown}; known: {sessions}", file=sys.stderr)
            return 2
        sessions = [s for s in sessions if s in argv]
    start = time.monotonic()
    # One nox call: it runs every session even after a failure and prints a summary.
    result = subprocess.run(
        [sys.executable, "-m", "nox", "--noxfile", str(ROOT / "noxfile.py"), "-s", *sessions],
        cwd=ROOT,
    )
    print(
        f"ci/run_matrix.py: {len(sessions)} sessions in {time.monotonic() - start:.0f}s, "
        f"exit {result.returncode}"
    )
    return result.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
