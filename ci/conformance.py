"""Chainer v7 conformance: the per-area table of a run and the ratchet on its passes.

The ``conformance`` nox session runs Chainer v7's own test suite (``../shared/conformance``)
and hands the runner's ``summary.json`` to this script:

``python ci/conformance.py check SUMMARY`` prints the per-area table and fails (exit 1) when an
area passes fewer cases than ``ci/conformance-baseline.json`` records for the run's sample
setting; ``python ci/conformance.py record SUMMARY`` writes the run's passes as that sample
setting's new floor.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys
import tempfile

BASELINE = pathlib.Path(__file__).resolve().parent / "conformance-baseline.json"
COLUMNS = ("passed", "failed", "errors", "skipped")


def area_counts(summary: dict) -> dict[str, dict[str, int]]:
    """``{area: {passed, failed, errors, skipped}}`` from the runner's ``summary.json``."""
    try:
        return {row["area"]: {key: int(row[key]) for key in COLUMNS} for row in summary["areas"]}
    except (KeyError, TypeError) as error:
        raise ValueError(
            f"not a conformance runner summary (expected 'areas' rows with {COLUMNS}): {error!r}"
        ) from None


def format_table(counts: dict[str, dict[str, int]]) -> str:
    """A plain-text table, one row per area and a total row."""
    total = {key: sum(row[key] for row in counts.values()) for key in COLUMNS}
    rows: list[tuple[str, ...]] = [("area", *COLUMNS)]
    rows += [(area, *(str(row[key]) for key in COLUMNS)) for area, row in sorted(counts.items())]
    rows.append(("total", *(str(total[key]) for key in COLUMNS)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths))
        )
        for row in rows
    )


def regressions(counts: dict[str, dict[str, int]], baseline: dict, sample: int) -> list[str]:
    """One message per area whose passes fell below the baseline floor for ``sample``."""
    floors = baseline.get(str(sample))
    if floors is None:
        return [f"{BASELINE.name} has no floors for --sample {sample}; record them first"]
    problems = []
    for area, floor in sorted(floors.items()):
        passed = counts.get(area, {}).get("passed")
        if passed is None:
            problems.append(f"{area}: not run (baseline floor {floor} passes)")
        elif passed < floor:
            problems.append(f"{area}: {passed} passed, below the baseline floor of {floor}")
    return problems


def floor_for(passed: int) -> int:
    """The floor recorded for ``passed`` passes: a little below, because v7's suite draws some
    test values at random and a few cases flip between runs (0.5 %, at least 2 cases)."""
    return max(0, passed - max(2, passed // 200))


def record(counts: dict[str, dict[str, int]], baseline: dict, sample: int) -> dict:
    """``baseline`` with floors just below this run's passes (:func:`floor_for`) for
    ``sample``."""
    updated = dict(baseline)
    updated[str(sample)] = {area: floor_for(row["passed"]) for area, row in sorted(counts.items())}
    return dict(sorted(updated.items(), key=lambda item: int(item[0])))


def write_json_atomically(path: pathlib.Path, data: dict) -> None:
    """Write ``data`` as JSON to ``path`` via a synced temporary file and a rename."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w") as stream:
            json.dump(data, stream, indent=2)
            stream.write("\n")
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("check", "record"))
    parser.add_argument("summary", type=pathlib.Path, help="summary.json of the runner")
    parser.add_argument("--baseline", type=pathlib.Path, default=BASELINE)
    parser.add_argument("--label", default="non-ChainerX cases", help="what the run counted")
    args = parser.parse_args(argv)
    summary = json.loads(args.summary.read_text())
    counts = area_counts(summary)
    sample = int(summary.get("sample", 1))
    baseline = json.loads(args.baseline.read_text()) if args.baseline.exists() else {}
    print(f"Chainer v7 conformance, every {sample}. test file, {args.label}:")
    print(format_table(counts))
    if args.command == "record":
        write_json_atomically(args.baseline, record(counts, baseline, sample))
        print(f"recorded the floors for --sample {sample} in {args.baseline}")
        return 0
    problems = regressions(counts, baseline, sample)
    for problem in problems:
        print(f"conformance regression: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
