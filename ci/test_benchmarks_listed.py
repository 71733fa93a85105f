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


def test_unpin_openblas_drops_the_kernel_pins_and_keeps_the_thread_counts(monkeypatch):
    run = _load_run(monkeypatch)
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Haswell")
    monkeypatch.setenv("OPENBLAS_L2_SIZE", "512")
    pinned = run.environment(2, unpin_openblas=False)
    assert (pinned["OPENBLAS_CORETYPE"], pinned["OPENBLAS_L2_SIZE"]) == ("Haswell", "512")
    unpinned = run.environment(2, unpin_openblas=True)
    assert "OPENBLAS_CORETYPE" not in unpinned and "OPENBLAS_L2_SIZE" not in unpinned
    assert unpinned["OPENBLAS_NUM_THREADS"] == unpinned["OMP_NUM_THREADS"] == "2"


def test_the_blas_line_names_what_pins_the_kernels(monkeypatch):
    run = _load_run(monkeypatch)
    env = run.environment(1, unpin_openblas=True)
    assert "pinned" not in run.blas_line(env)
    env["OPENBLAS_CORETYPE"] = "Haswell"
    line = run.blas_line(env)
    assert line.startswith("BLAS: ") and line.endswith("; pinned by OPENBLAS_CORETYPE=Haswell")
