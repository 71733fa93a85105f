"""Import time of ``chainer``, ``chainer.functions`` and ``chainer.links``, in fresh processes.

Each run is a new interpreter that times with ``time.perf_counter``: ``import numpy``, then
``import chainer``, then ``import chainer.functions, chainer.links``; then the main job's start:
importing ``examples/mnist/train_mnist.py`` (which brings ``chainer.training``), building its
model (``L.Classifier(MLP(256, 10))``) with Adam, and one training step on a batch of 64
digits-sized inputs (functions loaded on first use are paid there; the batch is drawn
untimed, after ``numpy.random.seed`` as the example's ``main`` starts). Two layouts are timed:

- ``installed``: the files of chainer-core, chainer-links and chainer-training merged into one
  folder and compiled to bytecode, as ``pip install`` leaves them;
- ``source``: the same files without bytecode under ``PYTHONDONTWRITEBYTECODE=1`` (a checkout
  on ``PYTHONPATH`` with caches off): every module is compiled again at each run.

Runs of every tree and layout are interleaved, so all see the same machine load. The table
gives the best and the median of ``--runs`` runs in ms, and Chainer's imports over NumPy's.

    python benchmarks/import_time.py [--runs N] [--layout installed|source|both] [TREE ...]

TREE: checkouts to compare (default: this one); for example a copy of ``main`` made with
``git archive main | tar -x -C /tmp/main``.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
DISTRIBUTIONS = ("chainer-core", "chainer-links", "chainer-training")
PHASES = ("numpy", "chainer", "F+L", "example", "build", "step")

CHILD = """
import sys, time
marks = [time.perf_counter()]
import numpy
marks.append(time.perf_counter())
import chainer
marks.append(time.perf_counter())
import chainer.functions, chainer.links
marks.append(time.perf_counter())
modules = len(sys.modules)
sys.path.insert(0, sys.argv[1])
import train_mnist
marks.append(time.perf_counter())
numpy.random.seed(0)  # untimed, as the example's main() starts: loads numpy.random
x = numpy.random.rand(64, 64).astype(numpy.float32)
t = numpy.random.randint(0, 10, 64).astype(numpy.int32)
start = time.perf_counter()
model = chainer.links.Classifier(train_mnist.MLP(256, 10))
optimizer = chainer.optimizers.Adam()
optimizer.setup(model)
marks += [marks[-1] + time.perf_counter() - start]
start = time.perf_counter()
optimizer.update(model, x, t)
marks += [marks[-1] + time.perf_counter() - start]
print([b - a for a, b in zip(marks, marks[1:])], modules)
"""


def stage(tree: pathlib.Path, layout: str, folder: pathlib.Path) -> pathlib.Path:
    """The three distributions of ``tree`` merged into ``folder`` (compiled if installed)."""
    for dist in DISTRIBUTIONS:
        source = tree / "packages" / dist / "src"
        if not source.is_dir():
            raise SystemExit(f"{tree} is not a checkout of this repository: no {source}")
        shutil.copytree(
            source, folder, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__")
        )
    if layout == "installed" and not compileall.compile_dir(folder, quiet=1):
        raise SystemExit(f"could not compile the sources of {tree}")
    return folder


def run_once(site: pathlib.Path, tree: pathlib.Path) -> tuple[list[float], int]:
    env = dict(os.environ, PYTHONPATH=str(site), PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONPYCACHEPREFIX", None)
    env.setdefault("OMP_NUM_THREADS", "1")
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    example = tree / "examples" / "mnist"
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(example)], env=env, capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit(f"the timed process failed:\n{done.stderr}")
    times, modules = done.stdout.strip().rsplit(" ", 1)
    return json.loads(times), int(modules)


def _ms(values: list[float]) -> str:
    return f"{min(values) * 1e3:6.1f} {statistics.median(values) * 1e3:6.1f}"


def report(label: str, runs: list[list[float]], modules: int) -> None:
    by_phase = dict(zip(PHASES, zip(*runs)))
    imports = [
        n + c + fl for n, c, fl in zip(by_phase["numpy"], by_phase["chainer"], by_phase["F+L"])
    ]
    job = [sum(run) for run in runs]
    share = [
        (c + fl) / n for n, c, fl in zip(by_phase["numpy"], by_phase["chainer"], by_phase["F+L"])
    ]
    cells = [_ms(list(by_phase[phase])) for phase in PHASES[:3]]
    cells += [_ms(imports), f"{statistics.median(share):5.2f}x", f"{modules:5d}"]
    cells += [_ms(list(by_phase[phase])) for phase in PHASES[3:]] + [_ms(job)]
    print(f"{label:<28} " + " | ".join(cells))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("trees", nargs="*", type=pathlib.Path, metavar="TREE")
    parser.add_argument("--runs", type=int, default=15, help="fresh processes per tree/layout")
    parser.add_argument("--layout", choices=["installed", "source", "both"], default="both")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error(f"--runs must be at least 1, got {args.runs}")
    trees = [tree.resolve() for tree in args.trees] or [HERE.parent]
    layouts = ["installed", "source"] if args.layout == "both" else [args.layout]
    with tempfile.TemporaryDirectory(prefix="chainer-import-time-") as scratch:
        cases = {
            (str(tree), layout): (
                stage(tree, layout, pathlib.Path(scratch, f"{i}-{layout}")),
                tree,
            )
            for i, tree in enumerate(trees)
            for layout in layouts
        }
        for site, tree in cases.values():
            run_once(site, tree)  # warm the file cache
        results: dict[tuple[str, str], list[list[float]]] = {case: [] for case in cases}
        modules = {}
        for _ in range(args.runs):
            for case, (site, tree) in cases.items():
                times, modules[case] = run_once(site, tree)
                results[case].append(times)
    print(f"{sys.version.split()[0]}, {args.runs} fresh processes each; ms: best median")
    header = ["numpy", "chainer", "F + L", "imports total", "chainer/numpy", "modules"]
    header += ["example import", "build", "first step", "to first step"]
    print(f"{'tree, layout':<28} " + " | ".join(header))
    for (tree, layout), runs in results.items():
        report(f"{pathlib.Path(tree).name}, {layout}", runs, modules[tree, layout])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
