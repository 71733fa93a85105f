"""``benchmarks/run.py`` refuses to run when a script of the folder is missing from its list:
keep the list and the folder in step (a new benchmark must be added to ``BENCHMARKS``)."""

import importlib.util
import pathlib
import sys

RUN_PY = pathlib.Path(__file__).resolve().parent.parent / "benchmarks" / "run.py"


def _load_run(monkeypatch):
    spec = importlib.util.spec_from_file_location("benchmarks_run", RUN_PY)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_every_benchmark_script_is_listed_and_listed_once(monkeypatch, capsys):
    run = _load_run(monkeypatch)
    names = [b.name for b in run.BENCHMARKS]
    assert len(names) == len(set(names)), names
    assert run.main(["--list"]) == 0
    assert capsys.readouterr().out.split() == names
