"""The accounting of a run's failures by the deviations list (ci/conformance_deviations.py)."""

import importlib.util
import pathlib

import pytest

_spec = importlib.util.spec_from_file_location(
    "conformance_deviations", pathlib.Path(__file__).parent / "conformance_deviations.py"
)
deviations = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(deviations)

LIST = """# header
## other
unit_tests/test_x.py::* - another area's line
## chainerx
# a comment
unit_tests/test_a.py::test_one* | unit_tests/test_b.py::test_two[[]* - reason one
unit_tests/test_a.py::* - reason two
"""

_CASES = [
    ("test_a", "test_one_param_0", "<failure/>"),
    ("test_a", "test_three", "<error/>"),
    ("test_b", "test_two[native:0]", "<failure/>"),
    ("test_b", "test_four", "<failure/>"),
    ("test_b", "test_passes", ""),
    ("test_b", "test_skipped", "<skipped/>"),
]
JUNIT = "<testsuites><testsuite>{}</testsuite></testsuites>".format(
    "".join(
        f'<testcase classname="tests.chainerx_tests.unit_tests.{module}" name="{name}">'
        f"{outcome}</testcase>"
        for module, name, outcome in _CASES
    )
)


def test_section_rules_reads_one_section():
    rules = deviations.section_rules(LIST, "chainerx")
    assert rules == [
        (["unit_tests/test_a.py::test_one*", "unit_tests/test_b.py::test_two[[]*"], "reason one"),
        (["unit_tests/test_a.py::*"], "reason two"),
    ]


def test_section_rules_needs_a_reason():
    with pytest.raises(ValueError, match="without ' - reason'"):
        deviations.section_rules("## chainerx\nunit_tests/x.py::*\n", "chainerx")


def test_failures_are_ids_of_failed_and_errored_cases(tmp_path):
    (tmp_path / "junit").mkdir()
    (tmp_path / "junit" / "run.xml").write_text(JUNIT)
    assert deviations.failures(tmp_path, "chainerx_tests") == [
        "unit_tests/test_a.py::test_one_param_0",
        "unit_tests/test_a.py::test_three",
        "unit_tests/test_b.py::test_two[native:0]",
        "unit_tests/test_b.py::test_four",
    ]


def test_main_counts_each_line_and_fails_on_unaccounted_cases(tmp_path, capsys):
    (tmp_path / "junit").mkdir()
    (tmp_path / "junit" / "run.xml").write_text(JUNIT)
    listing = tmp_path / "deviations.txt"
    listing.write_text(LIST)
    assert deviations.main([str(tmp_path), "--deviations", str(listing)]) == 1
    out = capsys.readouterr().out
    # First matching line wins: test_one counts for line one, test_three for line two.
    assert "     2  unit_tests/test_a.py::test_one*" in out
    assert "     1  unit_tests/test_a.py::*" in out
    assert "3 failures accounted for, 1 not:\n  unit_tests/test_b.py::test_four" in out
    listing.write_text(LIST + "unit_tests/test_b.py::test_four - reason three\n")
    assert deviations.main([str(tmp_path), "--deviations", str(listing)]) == 0
