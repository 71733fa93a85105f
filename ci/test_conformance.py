"""The conformance table and ratchet (ci/conformance.py); run by the `dev` session."""

import importlib.util
import json
import pathlib

import pytest

_spec = importlib.util.spec_from_file_location(
    "conformance", pathlib.Path(__file__).parent / "conformance.py"
)
conformance = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(conformance)


def _summary(sample, **passes):
    return {
        "sample": sample,
        "areas": [
            {"area": area, "passed": n, "failed": 1, "errors": 0, "skipped": 2, "flags": []}
            for area, n in passes.items()
        ],
    }


def test_area_counts_reads_each_area():
    counts = conformance.area_counts(_summary(5, chainer_core=10, utils=3))
    assert counts == {
        "chainer_core": {"passed": 10, "failed": 1, "errors": 0, "skipped": 2},
        "utils": {"passed": 3, "failed": 1, "errors": 0, "skipped": 2},
    }


def test_area_counts_rejects_other_json():
    with pytest.raises(ValueError, match="not a conformance runner summary"):
        conformance.area_counts({"total": {}})


def test_table_has_a_row_per_area_and_a_total():
    table = conformance.format_table(conformance.area_counts(_summary(1, b=7, a=5)))
    lines = table.splitlines()
    assert lines[0].split() == ["area", "passed", "failed", "errors", "skipped"]
    assert [line.split() for line in lines[1:]] == [
        ["a", "5", "1", "0", "2"],
        ["b", "7", "1", "0", "2"],
        ["total", "12", "2", "0", "4"],
    ]


def test_regressions_flag_only_areas_below_their_floor():
    counts = conformance.area_counts(_summary(5, a=10, b=4, c=9))
    baseline = {"5": {"a": 10, "b": 5, "c": 8}, "1": {"a": 100}}
    assert conformance.regressions(counts, baseline, 5) == [
        "b: 4 passed, below the baseline floor of 5"
    ]


def test_regressions_flag_a_missing_area_and_a_missing_sample():
    counts = conformance.area_counts(_summary(5, a=10))
    assert conformance.regressions(counts, {"5": {"a": 1, "z": 3}}, 5) == [
        "z: not run (baseline floor 3 passes)"
    ]
    (message,) = conformance.regressions(counts, {"1": {"a": 1}}, 5)
    assert "no floors for --sample 5" in message


def test_floors_leave_room_for_flaky_cases():
    assert [conformance.floor_for(n) for n in (0, 1, 3, 400, 1000, 20000)] == [
        0,
        0,
        1,
        398,
        995,
        19900,
    ]


def test_record_replaces_only_the_run_sample(tmp_path):
    baseline = {"1": {"a": 100}, "5": {"a": 1}}
    counts = conformance.area_counts(_summary(5, a=12, b=3))
    updated = conformance.record(counts, baseline, 5)
    assert updated == {"1": {"a": 100}, "5": {"a": 10, "b": 1}}
    path = tmp_path / "baseline.json"
    conformance.write_json_atomically(path, updated)
    assert json.loads(path.read_text()) == updated
    assert [p.name for p in tmp_path.iterdir()] == ["baseline.json"]


def test_main_check_fails_below_the_floor_and_record_sets_it(tmp_path, capsys):
    summary = tmp_path / "summary.json"
    summary.write_text(json.dumps(_summary(5, a=3)))
    baseline = tmp_path / "baseline.json"
    baseline.write_text(json.dumps({"5": {"a": 4}}))
    assert conformance.main(["check", str(summary), "--baseline", str(baseline)]) == 1
    assert "a: 3 passed, below the baseline floor of 4" in capsys.readouterr().err
    assert conformance.main(["record", str(summary), "--baseline", str(baseline)]) == 0
    assert json.loads(baseline.read_text()) == {"5": {"a": 1}}
    assert conformance.main(["check", str(summary), "--baseline", str(baseline)]) == 0


def test_main_prints_the_label_of_what_was_counted(tmp_path, capsys):
    summary = tmp_path / "summary.json"
    summary.write_text(json.dumps(_summary(10, chainerx_tests=7)))
    baseline = tmp_path / "baseline.json"
    assert conformance.main(["record", str(summary), "--baseline", str(baseline)]) == 0
    assert "every 10. test file, non-ChainerX cases:" in capsys.readouterr().out
    args = ["check", str(summary), "--baseline", str(baseline), "--label", "chainerx_tests"]
    assert conformance.main(args) == 0
    assert "every 10. test file, chainerx_tests:" in capsys.readouterr().out
