"""Accounting of a conformance run's failures against ``ci/conformance-deviations.txt``.

A section of the deviations file whose heading is given (``## chainerx``) holds one line per
class of cases: ``PATTERNS - reason``, where PATTERNS are ``fnmatch`` globs separated by `` | ``
and matched against the test ids of the run's junit files, written ``FILE::NAME`` with FILE
relative to the area (``unit_tests/test_array.py::test_array_pickle[native:0]``). Lines starting
with ``#`` are comments.

``python ci/conformance_deviations.py RUN_DIR --section chainerx`` prints how many failures
(failed or errored cases) each line accounts for and every failure that no line accounts for,
and exits 1 when there is one: the list and the run then disagree.
"""

from __future__ import annotations

import argparse
import fnmatch
import pathlib
import sys
import xml.etree.ElementTree as ET

DEVIATIONS = pathlib.Path(__file__).resolve().parent / "conformance-deviations.txt"


def section_rules(text: str, section: str) -> list[tuple[list[str], str]]:
    """``(globs, reason)`` for each line of the ``## section`` heading of the deviations file."""
    rules, inside = [], False
    for line in text.splitlines():
        if line.startswith("## "):
            inside = line[3:].strip() == section
            continue
        if not inside or not line.strip() or line.startswith("#"):
            continue
        patterns, separator, reason = line.partition(" - ")
        if not separator:
            raise ValueError(f"deviation line without ' - reason': {line!r}")
        rules.append(([p.strip() for p in patterns.split(" | ")], reason.strip()))
    return rules


def failures(run_dir: pathlib.Path, area: str) -> list[str]:
    """Ids (``FILE::NAME``) of the failed and errored cases in the run's junit files."""
    prefix = "tests." + area.replace("/", ".") + "."
    ids = []
    for path in sorted((run_dir / "junit").glob("*.xml")):
        for _, element in ET.iterparse(path):
            if element.tag != "testcase":
                continue
            if element.find("failure") is not None or element.find("error") is not None:
                module = element.get("classname", "").removeprefix(prefix)
                ids.append(f"{module.replace('.', '/')}.py::{element.get('name')}")
            element.clear()
    return ids


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dir", type=pathlib.Path, help="the runner's --out directory")
    parser.add_argument("--section", default="chainerx", help="heading in the deviations file")
    parser.add_argument("--area", default="chainerx_tests", help="the area the run covered")
    parser.add_argument("--deviations", type=pathlib.Path, default=DEVIATIONS)
    args = parser.parse_args(argv)
    rules = section_rules(args.deviations.read_text(), args.section)
    counts = [0] * len(rules)
    unaccounted = []
    for case in failures(args.run_dir, args.area):
        for i, (globs, _) in enumerate(rules):
            if any(fnmatch.fnmatchcase(case, g) for g in globs):
                counts[i] += 1
                break
        else:
            unaccounted.append(case)
    for (globs, reason), count in zip(rules, counts, strict=True):
        print(f"{count:6d}  {' | '.join(globs)[:100]}  ({reason[:60]})")
    print(f"{sum(counts)} failures accounted for, {len(unaccounted)} not:")
    for case in unaccounted:
        print(f"  {case}")
    return 1 if unaccounted else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
