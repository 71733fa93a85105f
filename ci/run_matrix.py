"""Run the CI matrix (ci/matrix.json) through nox: the one entry point of every CI.

Usage: ``python ci/run_matrix.py`` runs every session CI runs; ``python ci/run_matrix.py lint
docs`` runs a subset, by name; ``--list`` prints the sessions; ``--dry-run`` prints, for each
session, the interpreter it would use (or that none was found) and runs nothing.

The Python versions of the matrix are found wherever they are installed: on ``PATH`` (a pyenv
shim that does not run counts as absent), in pyenv's and uv's version folders, under
``/usr/local/bin``, ``/usr/bin`` and ``/opt/python``. A session whose Python is not found is
reported and skipped, and the last line says so, with how to add it; when the ``CI``
environment variable is set (as CI services and ``.ci/run`` set it) a missing Python fails the
run instead, so CI always runs everything.
"""

from __future__ import annotations

import glob
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOX = [sys.executable, "-m", "nox", "--noxfile", str(ROOT / "noxfile.py")]


def ci_sessions() -> list[str]:
    return json.loads((ROOT / "ci" / "matrix.json").read_text())["ci"]


def session_pythons(sessions: list[str]) -> dict[str, str | None]:
    """Each session's Python version (``None``: the Python running nox), as nox lists it."""
    listed = subprocess.run(
        [*NOX, "--list", "--json", "-s", *sessions], cwd=ROOT, capture_output=True, text=True
    )
    if listed.returncode != 0:
        raise SystemExit(f"`nox --list --json` failed:\n{listed.stderr}")
    return {entry["session"]: entry["python"] for entry in json.loads(listed.stdout)}


def _inspect(executable: str) -> tuple[str, str] | None:
    """``('X.Y', real executable)`` of a Python, or ``None`` if it does not run (an idle shim)."""
    try:
        result = subprocess.run(
            [
                executable,
                "-c",
                "import sys; print('%d.%d' % sys.version_info[:2], sys.executable)",
            ],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    version, _, real = result.stdout.strip().partition(" ")
    return (version, real) if result.returncode == 0 and real else None


def _candidates(version: str) -> list[str]:
    """Paths where a ``python<version>`` may be installed, most specific first."""
    name = f"python{version}"
    on_path = [os.path.join(d, name) for d in os.environ.get("PATH", "").split(os.pathsep) if d]
    pyenv_root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    uv_root = os.environ.get("UV_PYTHON_INSTALL_DIR") or os.path.join(
        os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share")), "uv", "python"
    )
    patterns = [
        os.path.join(pyenv_root, "versions", f"{version}.*", "bin", name),
        os.path.join(uv_root, f"cpython-{version}.*", "bin", name),
        os.path.join("/opt/python", f"cp{version.replace('.', '')}-*", "bin", name),
    ]
    found = [p for pattern in patterns for p in sorted(glob.glob(pattern), reverse=True)]
    return on_path + found + [f"/usr/local/bin/{name}", f"/usr/bin/{name}"]


def find_python(version: str) -> str | None:
    """An absolute path to a working Python ``version`` (``'X.Y'``) on this machine, or None."""
    for path in _candidates(version):
        if os.access(path, os.X_OK) and (inspected := _inspect(path)) and inspected[0] == version:
            return inspected[1]
    return None


def _parse(argv: list[str]) -> tuple[set[str], list[str]]:
    flags = {a for a in argv if a.startswith("--")}
    unknown_flags = sorted(flags - {"--list", "--dry-run"})
    if unknown_flags:
        raise SystemExit(f"unknown option(s) {unknown_flags}; use --list or --dry-run")
    return flags, [a for a in argv if not a.startswith("--")]


def main(argv: list[str]) -> int:
    flags, names = _parse(argv)
    sessions = ci_sessions()
    if "--list" in flags:
        print("\n".join(sessions))
        return 0
    if names:
        unknown = sorted(set(names) - set(sessions))
        if unknown:
            print(f"not in ci/matrix.json: {unknown}; known: {sessions}", file=sys.stderr)
            return 2
        sessions = [s for s in sessions if s in names]
    pythons = session_pythons(sessions)
    versions = sorted(
        {v for s in sessions if (v := pythons.get(s)) and re.fullmatch(r"\d+\.\d+", v)}
    )
    found = {v: find_python(v) for v in versions}
    missing = [s for s in sessions if (v := pythons.get(s)) in found and found[v] is None]
    runnable = [s for s in sessions if s not in missing]
    if "--dry-run" in flags:
        for session in sessions:
            version = pythons.get(session)
            where = found.get(version, sys.executable) if version else sys.executable
            print(f"{session:<34} python {version or 'of nox'}: {where or 'NOT FOUND (skipped)'}")
        print(_summary_of_missing(missing, found) or "every Python is found")
        return 0
    start = time.monotonic()
    returncode, outcome = _run_nox(runnable, {v: p for v, p in found.items() if p})
    strict = bool(os.environ.get("CI")) and missing
    notes = [outcome, _summary_of_missing(missing, found)]
    if strict:
        notes.append("CI is set, so a missing Python fails the run")
    print(
        f"ci/run_matrix.py: {len(runnable)} sessions in {time.monotonic() - start:.0f}s, "
        f"exit {returncode}; " + "; ".join(n for n in notes if n)
    )
    return returncode or (1 if strict else 0)


def _run_nox(sessions: list[str], pythons: dict[str, str]) -> tuple[int, str]:
    """One nox call over ``sessions``; its exit code and a one-line account of the results.

    Each found interpreter is linked as ``pythonX.Y`` into a fresh folder put first on ``PATH``,
    so that nox finds it (and not an idle pyenv shim of the same name) and nothing else changes.
    """
    if not sessions:
        return 0, "no session to run"
    with tempfile.TemporaryDirectory(prefix="run-matrix-") as scratch:
        links = os.path.join(scratch, "bin")
        os.mkdir(links)
        for version, path in pythons.items():
            os.symlink(path, os.path.join(links, f"python{version}"))
        env = dict(os.environ, PATH=links + os.pathsep + os.environ.get("PATH", ""))
        report = os.path.join(scratch, "report.json")
        # One nox call: it runs every session even after a failure and prints a summary.
        command = [*NOX, "--report", report, "-s", *sessions]
        returncode = subprocess.run(command, cwd=ROOT, env=env).returncode
        if not os.path.exists(report):
            return returncode, "nox wrote no report"
        results = json.loads(pathlib.Path(report).read_text())["sessions"]
    by_result: dict[str, list[str]] = {}
    for result in results:
        name = result["signatures"][0] if result["signatures"] else result["name"]
        reason = f" ({result['reason']})" if result.get("reason") else ""
        by_result.setdefault(result["result"], []).append(name + reason)
    passed = len(by_result.pop("success", []))
    return returncode, ", ".join(
        [f"{passed} passed"] + [f"{len(v)} {k}: {'; '.join(v)}" for k, v in by_result.items()]
    )


def _summary_of_missing(missing: list[str], found: dict[str, str | None]) -> str:
    if not missing:
        return ""
    absent = sorted({v for v, p in found.items() if p is None})
    return (
        f"not run, Python {', '.join(absent)} not found (on PATH, in pyenv or uv): "
        f"{', '.join(missing)}; add it with `uv python install {' '.join(absent)}` (or pyenv, "
        "or the system's packages) and run again"
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
