"""Run the benchmarks of this folder one after another and print their side-by-side tables.

Each benchmark runs in its own process (thread counts must be set before NumPy, PyTorch or
ChainerX load) and prints its own table of times and ratios to a baseline. A benchmark whose
contenders are not installed (``chainerx``, ``torch``) is skipped with one line saying so, and
the last line sums up what ran, was skipped or failed.

Usage: ``python benchmarks/run.py [--threads N] [--unpin-openblas] [--list] [NAME ...]``
(default: all, 1 thread). The first line says which BLAS NumPy loads and which kernels it
runs (with ``threadpoolctl`` installed). Some machines pin OpenBLAS's kernels with
``OPENBLAS_CORETYPE`` (and ``OPENBLAS_L2_SIZE``) for older OpenBLAS builds; those slow a
current NumPy, and ``--unpin-openblas`` drops both from the benchmarks' environment so that
OpenBLAS picks the kernels of this CPU. The ``benchmarks`` nox session installs everything
they compare and runs this file.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent


@dataclasses.dataclass(frozen=True)
class Benchmark:
    """A script of this folder: what it imports besides Chainer, and whether it takes threads."""

    name: str
    needs: tuple[str, ...] = ()
    takes_threads: bool = False
    mpi_ranks: int = 0  # > 0: launched as ``mpiexec -n RANKS python -m mpi4py script``

    def missing(self) -> list[str]:
        return [module for module in self.needs if importlib.util.find_spec(module) is None]

    def command(self, threads: int) -> list[str]:
        script = [sys.executable, str(HERE / f"{self.name}.py")]
        if self.mpi_ranks:
            mpiexec = shutil.which("mpiexec") or "mpiexec"
            script = [mpiexec, "-n", str(self.mpi_ranks), sys.executable, "-m", "mpi4py"]
            script.append(str(HERE / f"{self.name}.py"))
        return script + [str(threads)] if self.takes_threads else script


BENCHMARKS = [
    Benchmark("autograd_chain"),
    Benchmark("link_params"),
    Benchmark("adam_update", needs=("torch",)),
    Benchmark("mlp_optimizer", needs=("torch",)),
    Benchmark("conv_lenet", takes_threads=True),
    Benchmark("n_step_lstm", takes_threads=True),
    Benchmark("chainerx_mlp", needs=("chainerx",)),
    Benchmark("chainerx_lenet", needs=("chainerx", "torch"), takes_threads=True),
    Benchmark("chainer_on_chainerx_mlp", needs=("chainerx", "torch")),
    Benchmark("static_graph_mlp"),
    Benchmark("onnx_export", needs=("onnx_chainer", "onnxruntime"), takes_threads=True),
    Benchmark("chainermn_allreduce", needs=("chainermn",), takes_threads=True, mpi_ranks=2),
    Benchmark("import_time"),
]


#: What pins OpenBLAS's kernels (``--unpin-openblas`` drops them).
OPENBLAS_PINS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")

_BLAS_PROBE = """
import numpy, threadpoolctl
for lib in threadpoolctl.threadpool_info():
    if lib["user_api"] == "blas":
        print(lib["internal_api"], lib["version"], "kernels", lib.get("architecture"))
"""


def environment(threads: int, unpin_openblas: bool) -> dict[str, str]:
    """The benchmarks' environment: this one with the thread counts set (and without
    :data:`OPENBLAS_PINS` when ``unpin_openblas``)."""
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), OPENBLAS_NUM_THREADS=str(threads))
    if unpin_openblas:
        for name in OPENBLAS_PINS:
            env.pop(name, None)
    return env


def blas_line(env: dict[str, str]) -> str:
    """Which BLAS NumPy loads in ``env`` and its kernels, and what pins them."""
    pins = ", ".join(f"{name}={env[name]}" for name in OPENBLAS_PINS if name in env)
    pinned = f"; pinned by {pins}" if pins else ""
    if importlib.util.find_spec("threadpoolctl") is None:
        return f"BLAS: kernels unknown (threadpoolctl is not installed){pinned}"
    probe = [sys.executable, "-c", _BLAS_PROBE]
    found = subprocess.run(probe, env=env, capture_output=True, text=True, check=True)
    libraries = "; ".join(found.stdout.strip().splitlines()) or "none found"
    return f"BLAS: {libraries}{pinned}"


def _check_every_script_is_listed() -> None:
    listed = {b.name for b in BENCHMARKS}
    scripts = {p.stem for p in HERE.glob("*.py") if not p.stem.startswith("_")} - {"run"}
    if scripts != listed:
        raise SystemExit(
            f"benchmarks/run.py lists {sorted(listed)} but the folder holds {sorted(scripts)}"
        )


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help="benchmarks to run (all)")
    parser.add_argument("--threads", type=int, default=1, help="threads for BLAS and PyTorch")
    parser.add_argument(
        "--unpin-openblas",
        action="store_true",
        help=f"drop {' and '.join(OPENBLAS_PINS)}: OpenBLAS picks this CPU's kernels",
    )
    parser.add_argument("--list", action="store_true", help="print the benchmark names")
    args = parser.parse_args(argv)
    if args.threads < 1:
        parser.error(f"--threads must be at least 1, got {args.threads}")
    known = [b.name for b in BENCHMARKS]
    unknown = [n for n in args.names if n not in known]
    if unknown:
        parser.error(f"unknown benchmark(s) {unknown}; known: {known}")
    return args


def main(argv: list[str]) -> int:
    _check_every_script_is_listed()
    args = _parse(argv)
    chosen = [b for b in BENCHMARKS if not args.names or b.name in args.names]
    if args.list:
        print("\n".join(b.name for b in chosen))
        return 0
    env = environment(args.threads, args.unpin_openblas)
    print(blas_line(env), flush=True)
    ran, skipped, failed = [], [], []
    for benchmark in chosen:
        print(f"\n=== {benchmark.name} ({args.threads} thread(s))", flush=True)
        missing = benchmark.missing()
        if missing:
            print(f"skipped: needs {', '.join(missing)}, not installed here")
            skipped.append(benchmark.name)
            continue
        result = subprocess.run(benchmark.command(args.threads), cwd=HERE, env=env)
        (ran if result.returncode == 0 else failed).append(benchmark.name)
    print(
        f"\nbenchmarks/run.py: {len(ran)} ran, {len(skipped)} skipped {skipped}, "
        f"{len(failed)} failed {failed}"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
