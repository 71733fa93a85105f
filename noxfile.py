"""Every way this repository is built and tested. CI only calls these sessions (see ci/).

Per-distribution test sessions install the distribution and its declared dependencies from
freshly built wheels into a fresh virtual environment, so a missing dependency fails here and
not on a user's machine. ``dev`` tests the editable workspace as a whole.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import sys
import zipfile

import nox

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib

ROOT = pathlib.Path(__file__).parent
PACKAGES = ROOT / "packages"
MATRIX = json.loads((ROOT / "ci" / "matrix.json").read_text())
PYTHONS: list[str] = MATRIX["pythons"]
DEFAULT_PYTHON: str = MATRIX["default_python"]

nox.needs_version = ">=2024.4.15"
nox.options.default_venv_backend = "uv|virtualenv"
nox.options.reuse_existing_virtualenvs = False
nox.options.error_on_missing_interpreters = True

# distribution name -> folder under packages/
DISTRIBUTIONS = {
    "chainer-core": "chainer-core",
    "chainer-links": "chainer-links",
    "chainer-training": "chainer-training",
    "chainerx": "chainerx",
    "chainermn": "chainermn",
    "onnx-chainer": "onnx-chainer",
    "chainer": "chainer",
}


def _pyproject(dist: str) -> dict:
    return tomllib.loads((PACKAGES / DISTRIBUTIONS[dist] / "pyproject.toml").read_text())


def _requirement_name(requirement: str) -> str:
    for i, char in enumerate(requirement):
        if not (char.isalnum() or char in "-_."):
            return requirement[:i].lower()
    return requirement.lower()


def _sibling_closure(dist: str, extras: tuple[str, ...] = ()) -> list[str]:
    """``dist`` and every sibling distribution it declares, directly or through siblings."""
    found: list[str] = []
    visited: set[tuple[str, str | None]] = set()
    pending: list[tuple[str, str | None]] = [(dist, None), *((dist, e) for e in extras)]
    while pending:
        name, extra = pending.pop()
        if (name, extra) in visited:
            continue
        visited.add((name, extra))
        if name not in found:
            found.append(name)
        project = _pyproject(name)["project"]
        if extra is None:
            requirements = project.get("dependencies", [])
        else:
            requirements = project.get("optional-dependencies", {})[extra]
        for requirement in requirements:
            base, _, rest = requirement.partition("[")
            req_name = _requirement_name(base)
            if req_name in DISTRIBUTIONS:
                pending.append((req_name, None))
                if rest:
                    pending += [(req_name, e.strip()) for e in rest.split("]")[0].split(",")]
    return found


def _build_wheels(session: nox.Session, dists: list[str]) -> list[str]:
    """Build a wheel of each distribution into the session's tmp dir; return their paths."""
    wheelhouse = pathlib.Path(session.create_tmp()) / "wheelhouse"
    shutil.rmtree(wheelhouse, ignore_errors=True)
    wheelhouse.mkdir(parents=True)
    for dist in dists:
        _build(session, PACKAGES / DISTRIBUTIONS[dist], wheelhouse, "--wheel")
    return sorted(str(p) for p in wheelhouse.glob("*.whl"))


def _build(session: nox.Session, source: pathlib.Path, out: pathlib.Path, *kinds: str) -> None:
    """Build ``source`` for the session's Python (uv when present, else `python -m build`)."""
    # uv on PATH, or the one installed beside nox (the README's venv: .venv/bin is not on PATH).
    uv = shutil.which("uv") or shutil.which("uv", path=os.path.dirname(sys.executable))
    if uv:
        python = os.path.join(session.bin, "python")
        session.run(
            uv,
            "build",
            "--quiet",
            "--python",
            python,
            *kinds,
            "--out-dir",
            str(out),
            str(source),
            external=True,
        )
    else:
        session.install("build")
        session.run(
            "python", "-m", "build", *kinds, "--outdir", str(out), str(source), silent=True
        )


def _uri(path: str) -> str:
    return pathlib.Path(path).resolve().as_uri()


def _install_test_group(session: nox.Session, dist: str) -> None:
    pyproject = PACKAGES / DISTRIBUTIONS[dist] / "pyproject.toml"
    session.install(*nox.project.dependency_groups(_load(pyproject), "test"))


def _load(path: pathlib.Path) -> dict:
    return tomllib.loads(path.read_text())


def _pytest(session: nox.Session, *paths: str, runner: tuple[str, ...] = ()) -> None:
    session.run(*runner, "python", "-m", "pytest", *paths, *session.posargs)


def _test_distribution(
    session: nox.Session,
    dist: str,
    extras: tuple[str, ...] = (),
    pytest_args: tuple = (),
    test_siblings: tuple[str, ...] = (),
) -> None:
    """Install ``dist`` with only its declared dependencies, from wheels, and run its tests.

    ``test_siblings`` are sibling distributions only the tests need (built as wheels too).
    """
    closure = _sibling_closure(dist, extras)
    wheels = _build_wheels(session, closure + [d for d in test_siblings if d not in closure])
    wanted = [w for w in wheels if pathlib.Path(w).name.startswith(dist.replace("-", "_") + "-")]
    extra_suffix = f"[{','.join(extras)}]" if extras else ""
    # The package under test by path (with its extras); its siblings by path so that the
    # resolver takes them from the wheelhouse; everything else from the package index.
    session.install(
        *(w for w in wheels if w not in wanted),
        *(f"{dist}{extra_suffix} @ {_uri(w)}" if extras else w for w in wanted),
    )
    _install_test_group(session, dist)
    _pytest(session, *pytest_args, str(PACKAGES / DISTRIBUTIONS[dist] / "tests"))


def _fuzz_selection(session: nox.Session) -> tuple[str, ...]:
    """Fuzz harnesses (1,000 cases each) run on the default Python only, to save CI time."""
    return () if session.python == DEFAULT_PYTHON else ("-m", "not fuzz")


@nox.session(name="tests-core", python=PYTHONS)
def tests_core(session: nox.Session) -> None:
    """chainer-core alone (numpy only), installed from its wheel."""
    _test_distribution(session, "chainer-core", pytest_args=_fuzz_selection(session))


@nox.session(name="tests-links", python=PYTHONS)
def tests_links(session: nox.Session) -> None:
    """chainer-links with only chainer-core, installed from wheels."""
    _test_distribution(session, "chainer-links", pytest_args=_fuzz_selection(session))


@nox.session(name="tests-training", python=PYTHONS)
def tests_training(session: nox.Session) -> None:
    """chainer-training with only chainer-core, installed from wheels."""
    _test_distribution(session, "chainer-training", pytest_args=_fuzz_selection(session))


@nox.session(name="tests-chainerx", python=PYTHONS)
def tests_chainerx(session: nox.Session) -> None:
    """chainerx Python binding, built from source into a wheel; then its pure-ChainerX example."""
    _test_distribution(session, "chainerx")
    example = ROOT / "examples" / "chainerx_convnet" / "train_convnet.py"
    session.run("python", str(example), "--min-accuracy", "0.9")


@nox.session(name="tests-chainermn", python=PYTHONS)
def tests_chainermn(session: nox.Session) -> None:
    """chainermn single-process tests (mpi4py + mpich wheels), installed from wheels."""
    # The tests' models use chainer.links (chainermn itself does not need it).
    _test_distribution(
        session,
        "chainermn",
        pytest_args=("-m", "not mpi and not mpi_launch"),
        test_siblings=("chainer-links",),
    )


@nox.session(name="tests-onnx", python=PYTHONS)
def tests_onnx(session: nox.Session) -> None:
    """onnx-chainer with core, links, onnx; exports run in onnxruntime, an import fine-tuned."""
    # The main job's MLP (examples/mnist), exported in a test, imports chainer.training.
    _test_distribution(session, "onnx-chainer", test_siblings=("chainer-training",))
    # Export the MLP, import it back and train it on scikit-learn's digits: the loss must fall.
    session.install("scikit-learn")
    session.run("python", str(ROOT / "examples" / "onnx" / "finetune_imported.py"))


@nox.session(name="tests-umbrella", python=PYTHONS)
@nox.parametrize("extras", [(), ("all",)], ids=["base", "all"])
def tests_umbrella(session: nox.Session, extras: tuple[str, ...]) -> None:
    """The umbrella `chainer` wheel (and its extras) pulls a working set; namespace merges."""
    _test_distribution(session, "chainer", extras)


@nox.session(python=DEFAULT_PYTHON)
@nox.parametrize("mode", ["wheels", "editable", "mixed"])
def namespace(session: nox.Session, mode: str) -> None:
    """The shared `chainer` namespace in each install mode: all wheels, all editable, mixed."""
    dists = ["chainer-core", "chainer-links", "chainer-training"]
    editable = {"wheels": [], "editable": dists, "mixed": ["chainer-links"]}[mode]
    wheels = _build_wheels(session, [d for d in dists if d not in editable])
    # One resolver call, so editable siblings satisfy each other's requirements.
    session.install(*wheels, *(f"-e{PACKAGES / DISTRIBUTIONS[d]}" for d in editable))
    _install_test_group(session, "chainer")
    _pytest(session, str(PACKAGES / "chainer" / "tests"))


@nox.session(python=PYTHONS)
def dev(session: nox.Session) -> None:
    """The editable workspace: every distribution installed editable, all tests together."""
    session.install(*(f"-e{PACKAGES / d}" for d in DISTRIBUTIONS.values() if d != "chainer"))
    for dist in DISTRIBUTIONS:
        _install_test_group(session, dist)
    # The fuzz harnesses ran in tests-core, tests-links and tests-training already.
    _pytest(
        session,
        "-m",
        "not fuzz",
        *(str(PACKAGES / d / "tests") for d in DISTRIBUTIONS.values()),
        str(ROOT / "ci" / "test_conformance.py"),
        str(ROOT / "ci" / "test_docs_reference.py"),
        str(ROOT / "ci" / "test_public_names.py"),
        str(ROOT / "ci" / "test_signatures.py"),
        str(ROOT / "ci" / "test_benchmarks_listed.py"),
    )


@nox.session(default=False, python=DEFAULT_PYTHON)
def fuzz(session: nox.Session) -> None:
    """The long fuzzing run, by hand: every loader harness with 10,000 cases (hypothesis), then
    10,000 coverage-guided inputs per loader (atheris).

    ``-- N`` sets another number of cases per harness. See docs/reliability.rst.
    """
    examples = session.posargs[0] if session.posargs else "10000"
    dists = ("chainer-core", "chainer-links", "chainer-training")
    session.install(*(f"-e{PACKAGES / d}" for d in dists))
    for dist in dists:
        _install_test_group(session, dist)
    session.run(
        "python",
        "-m",
        "pytest",
        "-m",
        "fuzz",
        "-p",
        "no:cacheprovider",
        *(str(PACKAGES / d / "tests") for d in dists),
        env={"CHAINER_FUZZ_EXAMPLES": examples},
    )
    # The same loaders again, coverage-guided: atheris (libFuzzer), as many inputs per loader.
    session.install("atheris", "h5py", "pillow", "protobuf")
    script = str(ROOT / "ci" / "fuzz_atheris.py")
    crashes = session.create_tmp()
    targets = session.run("python", script, "list", silent=True)
    if not isinstance(targets, str):  # only when nox is told not to run commands
        return
    for target in targets.split():
        session.run("python", script, target, f"-runs={examples}", f"-artifact_prefix={crashes}/")


@nox.session(default=False, python=DEFAULT_PYTHON)
def soak(session: nox.Session) -> None:
    """The long soak, by hand: the main job's loop for 20,000 iterations, NumPy and ChainerX,
    and an MLP of ChainerX routines alone.

    ``-- N`` sets another number of iterations. See docs/reliability.rst.
    """
    iterations = session.posargs[0] if session.posargs else "20000"
    dists = ["chainer-core", "chainer-links", "chainer-training", "chainerx"]
    session.install(*_build_wheels(session, dists), "scikit-learn")
    script = str(ROOT / "examples" / "mnist" / "soak.py")
    for device in ("@numpy", "native:0"):
        session.run("python", script, "--iterations", iterations, "--device", device)
    # ChainerX alone (routines, graph, native device and its buffer cache), no Chainer on top.
    session.run(
        "python", script, "--iterations", iterations, "--loop", "chainerx-mlp", "--unit", "512"
    )


@nox.session(default=False, python=DEFAULT_PYTHON)
def mpi(session: nox.Session) -> None:
    """chainermn tests under `mpiexec -n 1`, `-n 2`, `-n 3`, fault tests, and the examples.

    -n 3 oversubscribes a 2-core machine; MPICH's mpiexec needs no flag for that.
    """
    wheels = _build_wheels(session, [*_sibling_closure("chainermn"), "chainer-links"])
    session.install(*wheels)
    _install_test_group(session, "chainermn")
    tests = str(PACKAGES / "chainermn" / "tests")
    for ranks in ("1", "2", "3"):
        session.run(
            "timeout",
            "300",
            "mpiexec",
            "-n",
            ranks,
            "python",
            "-m",
            "mpi4py",
            "-m",
            "pytest",
            "-q",
            "-m",
            "mpi",
            tests,
            *session.posargs,
            external=True,
        )
    # Fault tests: each starts its own 2-process jobs, so they run outside mpiexec.
    session.run(
        "timeout", "300", "python", "-m", "pytest", "-q", "-m", "mpi_launch", tests, external=True
    )
    # The examples on 2 ranks, at smoke size (scikit-learn ships the digits).
    session.install("scikit-learn")
    out = pathlib.Path(session.create_tmp())
    examples = ROOT / "examples" / "chainermn"
    for script, *args in (
        ("train_mnist_data_parallel.py", "--min-accuracy", "0.9", "--out", out / "data"),
        ("train_mlp_model_parallel.py", "--epoch", "3", "--min-accuracy", "0.9", "--out", out),
        ("train_seq2seq_pipeline.py", "--iterations", "150", "--min-accuracy", "0.9"),
    ):
        session.run(
            "timeout",
            "300",
            "mpiexec",
            "-n",
            "2",
            "python",
            "-m",
            "mpi4py",
            str(examples / script),
            *map(str, args),
            external=True,
        )


@nox.session(default=False, python=DEFAULT_PYTHON)
def gpu(session: nox.Session) -> None:
    """Tests marked `gpu` (needs CUDA and CuPy; skipped cleanly elsewhere)."""
    session.install(
        *(f"-e{PACKAGES / d}" for d in ("chainer-core", "chainer-links", "chainer-training"))
    )
    session.install("cupy-cuda12x", "pytest")
    _pytest(
        session,
        "-m",
        "gpu",
        *(
            str(PACKAGES / d / "tests")
            for d in ("chainer-core", "chainer-links", "chainer-training")
        ),
    )


@nox.session(name="cpp", python=DEFAULT_PYTHON)
def cpp(session: nox.Session) -> None:
    """chainerx C++ library and GoogleTest unit tests with plain CMake + ctest.

    Built twice: with OpenBLAS/LAPACK from scipy-openblas32 (as the wheel ships, so the LAPACK
    routines are tested) and without it (the native GEMM fallback). CMake and Ninja come from
    the package index when the machine lacks them; a missing C++ compiler or GoogleTest skips
    the session with what to install (fails it where the `CI` environment variable is set).
    """
    session.install(_pinned_requirement(PACKAGES / "chainerx", "scipy-openblas32"))
    tools = [tool for tool in ("cmake", "ninja") if not shutil.which(tool)]
    if tools:
        session.install(*tools)
    missing = _missing_cpp_prerequisites(session)
    if missing and os.environ.get("CI"):
        session.error(f"needs {missing}, not found on this machine")
    elif missing:
        session.skip(f"needs {missing}, not found on this machine")
    for use_openblas in ("ON", "OFF"):
        build_dir = pathlib.Path(session.create_tmp()) / f"chainerx-cpp-openblas-{use_openblas}"
        session.run(
            "cmake",
            "-S",
            str(PACKAGES / "chainerx"),
            "-B",
            str(build_dir),
            "-G",
            "Ninja",
            "-DCHAINERX_BUILD_TEST=ON",
            "-DCHAINERX_BUILD_PYTHON=OFF",
            f"-DCHAINERX_USE_OPENBLAS={use_openblas}",
            f"-DPython_EXECUTABLE={session.virtualenv.location}/bin/python",
            "-DCMAKE_BUILD_TYPE=Release",
            external=True,
        )
        jobs = str(os.cpu_count() or 2)
        session.run("cmake", "--build", str(build_dir), "-j", jobs, external=True)
        session.run("ctest", "--test-dir", str(build_dir), "--output-on-failure", external=True)


def _missing_cpp_prerequisites(session: nox.Session) -> str:
    """What the C++ build needs beyond CMake and Ninja and this machine lacks ('' if nothing)."""
    compilers = (os.environ.get("CXX", ""), "c++", "g++", "clang++")
    if not any(shutil.which(c.split()[0]) for c in compilers if c):
        return "a C++17 compiler (Debian/Ubuntu: apt-get install g++; or set CXX)"
    probe = pathlib.Path(session.create_tmp()) / "gtest-probe"
    shutil.rmtree(probe, ignore_errors=True)
    probe.mkdir(parents=True)
    (probe / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.18)\nproject(gtest_probe LANGUAGES CXX)\n"
        "find_package(GTest)\n"
        'if(GTest_FOUND)\n  file(WRITE "${CMAKE_BINARY_DIR}/found" "")\nendif()\n'
    )
    session.run(
        "cmake",
        "-S",
        str(probe),
        "-B",
        str(probe / "build"),
        "-G",
        "Ninja",
        silent=True,
        external=True,
    )
    if (probe / "build" / "found").exists():
        return ""
    return (
        "GoogleTest (Debian/Ubuntu: apt-get install libgtest-dev; elsewhere install it and "
        "point GTest_ROOT or CMAKE_PREFIX_PATH at it)"
    )


def _pinned_requirement(package_dir: pathlib.Path, name: str) -> str:
    """The requirement string for ``name`` exactly as ``package_dir``'s pyproject pins it."""
    dependencies = _load(package_dir / "pyproject.toml")["project"]["dependencies"]
    matches = [d for d in dependencies if d.split("==")[0].strip() == name]
    if len(matches) != 1:
        raise RuntimeError(f"{package_dir.name} must pin {name} once; found {matches}")
    return matches[0]


# Chainer v7's own test suite sits beside the checkout (see its README); CI clones it there too.
# $CHAINER_CONFORMANCE_DIR points elsewhere (for a checkout in another folder, such as a worktree).
CONFORMANCE = pathlib.Path(
    os.environ.get("CHAINER_CONFORMANCE_DIR") or ROOT.parent / "shared" / "conformance"
)
CONFORMANCE_SAMPLE_ENV = "CHAINER_CONFORMANCE_SAMPLE"
# CI runs every CONFORMANCE_CI_SAMPLE-th test file of each area: measured on 2 idle cores, the
# full suite ran in 2.3 minutes (plus about 3 for the wheels), so every 2nd file leaves room
# for the suite to slow down as more of it passes.
CONFORMANCE_CI_SAMPLE = 2
# chainerx_tests has few, very parametrized files (39 files, ~143,000 CPU cases); every 10th
# file (4 files, ~28,000 cases) ran in 28 s on 2 quiet cores (5-12 minutes on busy ones), all
# of them in 5-10 minutes with two shards.
CONFORMANCE_CHAINERX_CI_SAMPLE = 10
CONFORMANCE_CHAINERX_MARKER = "not slow and not gpu and not cudnn and not cuda and not ideep"
CONFORMANCE_MARKER = f"{CONFORMANCE_CHAINERX_MARKER} and not chainerx"
CONFORMANCE_REQUIREMENTS = (
    "numpy==1.26.4",
    "pytest==7.4.4",
    "pytest-timeout",
    "mock",
    "six",
    "scipy",
    "h5py",
    "pillow",
    "protobuf",  # chainer-links' `caffe` extra: exporters_tests, links_tests/caffe_tests
)


def _conformance_args(session: nox.Session, ci_sample: int) -> tuple[int, bool]:
    """``(sample, record)`` from ``-- [--sample K] [--record]`` or $CHAINER_CONFORMANCE_SAMPLE."""
    args = list(session.posargs)
    record = "--record" in args
    args = [a for a in args if a != "--record"]
    sample_text = os.environ.get(CONFORMANCE_SAMPLE_ENV, str(ci_sample))
    if args[:1] == ["--sample"] and len(args) == 2:
        sample_text = args[1]
    elif args:
        session.error(f"conformance takes `-- [--sample K] [--record]`, got {session.posargs}")
    if not sample_text.isdigit() or int(sample_text) < 1:
        session.error(f"the sample must be a positive integer, got {sample_text!r}")
    return int(sample_text), record


def _run_conformance(
    session: nox.Session,
    areas: list[str],
    marker: str,
    pytest_args: list[str],
    baseline: pathlib.Path,
    label: str,
    ci_sample: int = CONFORMANCE_CI_SAMPLE,
    pythonpath: str = "",
) -> pathlib.Path:
    """Run ``areas`` of v7's suite on our wheels; print the table and check (or record) floors.

    K comes from ``-- --sample K``, else $CHAINER_CONFORMANCE_SAMPLE, else the CI sample;
    ``-- --record`` writes this run's passes as the new floors of ``baseline`` instead.
    """
    runner = CONFORMANCE / "run.sh"
    if not runner.is_file():
        # The suite is not part of this repository (it is Chainer v7's, kept beside checkouts
        # for measuring); a checkout without it cannot run this session, which says so.
        session.skip(
            f"the conformance suite is missing: expected {runner} (Chainer v7's tests in "
            "../shared/conformance beside this checkout, or set $CHAINER_CONFORMANCE_DIR)"
        )
    sample, record = _conformance_args(session, ci_sample)
    dists = ["chainer-core", "chainer-links", "chainer-training", "chainerx"]
    session.install(*_build_wheels(session, dists), *CONFORMANCE_REQUIREMENTS)
    out = pathlib.Path(session.create_tmp()) / "conformance"
    shutil.rmtree(out, ignore_errors=True)
    python = os.path.join(session.bin, "python")
    session.run(
        "bash",
        str(runner),
        "--sample",
        str(sample),
        "--timeout",
        "60",
        "--jobs",
        str(os.cpu_count() or 2),
        "--marker",
        marker,
        "--out",
        str(out),
        *areas,
        "--",
        "--tb=native",
        *pytest_args,
        env={"PYTHON": python, "PYTHONPATH": pythonpath},
        external=True,
    )
    session.run(
        "python",
        str(ROOT / "ci" / "conformance.py"),
        "record" if record else "check",
        str(out / "summary.json"),
        "--baseline",
        str(baseline),
        "--label",
        label,
    )
    return out


@nox.session(python=DEFAULT_PYTHON)
def conformance(session: nox.Session) -> None:
    """Chainer v7's own tests (non-ChainerX cases) on our wheels and NumPy 1.26, ratcheted.

    Runs every K-th test file of each ``chainer_tests`` area and ``chainer_core`` (K from
    ``-- --sample K``, else $CHAINER_CONFORMANCE_SAMPLE, else the CI sample), prints the
    per-area table and fails when an area passes fewer cases than ci/conformance-baseline.json
    records for K. ``-- --record`` writes this run's passes as the new floors instead.
    """
    suite = CONFORMANCE / "chainer-v7" / "tests"
    areas = ["chainer_core"] + sorted(
        f"chainer_tests/{d.name}" for d in (suite / "chainer_tests").iterdir() if d.is_dir()
    )
    _run_conformance(
        session,
        areas,
        CONFORMANCE_MARKER,
        ["-k", "not use_chainerx_true"],
        ROOT / "ci" / "conformance-baseline.json",
        "non-ChainerX cases",
    )


@nox.session(name="conformance-chainerx", python=DEFAULT_PYTHON)
def conformance_chainerx(session: nox.Session) -> None:
    """v7's own ``chainerx_tests`` (CPU cases) on our chainerx wheel and NumPy 1.26, ratcheted.

    Every K-th test file as in ``conformance`` (``-- --sample 1`` runs all of them), floors in
    ci/conformance-baseline-chainerx.json. The plugin ci/conformance_v7_private.py supplies, in
    the test process only, the private names that the suite's helpers use (see its docstring).
    The failures are then matched against ``## chainerx`` of ci/conformance-deviations.txt.
    """
    out = _run_conformance(
        session,
        ["chainerx_tests"],
        CONFORMANCE_CHAINERX_MARKER,
        ["-p", "conformance_v7_private"],
        ROOT / "ci" / "conformance-baseline-chainerx.json",
        "chainerx_tests, CPU cases",
        ci_sample=CONFORMANCE_CHAINERX_CI_SAMPLE,
        pythonpath=str(ROOT / "ci"),
    )
    # Which deviation line accounts for each failure; reported, not enforced (some cases draw
    # random values, and the floors above are the gate).
    session.run(
        "python",
        str(ROOT / "ci" / "conformance_deviations.py"),
        str(out),
        "--section",
        "chainerx",
        success_codes=[0, 1],
    )


# Pinned: another release may format differently (the pre-commit hook uses the same).
CLANG_FORMAT = "clang-format==23.1.5"


@nox.session(python=DEFAULT_PYTHON)
def lint(session: nox.Session) -> None:
    """ruff: lint and format check over the whole repository; clang-format over chainerx's
    C++ (``packages/chainerx/.clang-format``); the pre-commit config is valid."""
    session.install("ruff>=0.6", "pre-commit", CLANG_FORMAT)
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    cpp = PACKAGES / "chainerx" / "cpp"
    sources = sorted(str(p) for p in cpp.rglob("*") if p.suffix in (".cc", ".h"))
    session.run("clang-format", "--dry-run", "--Werror", "--style=file", *sources, silent=True)
    session.run("pre-commit", "validate-config", str(ROOT / ".pre-commit-config.yaml"))


# The type checker, pinned so that a new release cannot turn CI red on its own.
TYPECHECK_REQUIREMENTS = (
    "mypy==2.4.1",
    "numpy>=1.26",
    "pytest>=8",
    "hypothesis>=6.100",
    "nox>=2024.4.15",
    "tomli>=2",
)


@nox.session(python=DEFAULT_PYTHON)
def typecheck(session: nox.Session) -> None:
    """mypy over chainer-core and the build/CI tooling (``[tool.mypy]`` in pyproject.toml).

    Only what the checked code imports is installed, for its type information: NumPy, pytest,
    hypothesis, nox and tomli; CuPy, iDeep, h5py and chainerx are untyped or not built here.
    """
    session.install(*TYPECHECK_REQUIREMENTS)
    session.run("mypy", *session.posargs)


@nox.session(python=DEFAULT_PYTHON)
def build(session: nox.Session) -> None:
    """sdist + wheel of every distribution, metadata checked, wheel contents disjoint."""
    dist_dir = ROOT / "dist"
    shutil.rmtree(dist_dir, ignore_errors=True)
    session.install("twine")
    for folder in DISTRIBUTIONS.values():
        _build(session, PACKAGES / folder, dist_dir, "--sdist", "--wheel")
    wheels = sorted(dist_dir.glob("*.whl"))
    sdists = sorted(dist_dir.glob("*.tar.gz"))
    session.run("twine", "check", "--strict", *map(str, wheels + sdists))
    if len(wheels) != len(DISTRIBUTIONS) or len(sdists) != len(DISTRIBUTIONS):
        session.error(
            f"expected {len(DISTRIBUTIONS)} wheels and sdists, got "
            f"{[w.name for w in wheels]} and {[s.name for s in sdists]}"
        )
    _check_wheel_contents(session, wheels)


def _check_wheel_contents(session: nox.Session, wheels: list[pathlib.Path]) -> None:
    owners: dict[str, str] = {}
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            for name in archive.namelist():
                if ".dist-info/" in name:
                    continue
                if name in owners:
                    session.error(f"{name} is shipped by both {owners[name]} and {wheel.name}")
                owners[name] = wheel.name
    init_owner = owners.get("chainer/__init__.py", "")
    if not init_owner.startswith("chainer_core-"):
        session.error(f"chainer/__init__.py must ship in chainer-core only, found {init_owner!r}")
    if "chainer/py.typed" in owners and not owners["chainer/py.typed"].startswith("chainer_core-"):
        session.error("chainer/py.typed may only ship in chainer-core")
    session.log(f"{len(owners)} files in {len(wheels)} wheels, no overlap")


@nox.session(python=DEFAULT_PYTHON)
def docs(session: nox.Session) -> None:
    """Sphinx site under docs/ with the API reference of every distribution, warnings as
    errors (broken references included); then the tutorial's code, run and its output checked
    by Sphinx's doctest builder."""
    session.install("-r", str(ROOT / "docs" / "requirements.txt"))
    # Every distribution but the umbrella, so that autodoc imports what the pages document.
    session.install(*(f"-e{PACKAGES / d}" for d in DISTRIBUTIONS.values() if d != "chainer"))
    build = ROOT / "docs" / "_build"
    for builder in ("html", "doctest"):
        session.run(
            "sphinx-build", "-W", "--keep-going", "-n", "-b", builder,
            "-d", str(build / "doctrees"), str(ROOT / "docs"), str(build / builder),
        )  # fmt: skip


# The Python sources whose docstring examples the `doctest` session runs.
DOCTEST_SOURCES = (
    ("chainer-core", "chainer"),
    ("chainer-links", "chainer"),
    ("chainer-training", "chainer"),
    ("chainermn", "chainermn"),
    ("onnx-chainer", "onnx_chainer"),
)


@nox.session(python=DEFAULT_PYTHON)
def doctest(session: nox.Session) -> None:
    """Every docstring example (``>>>``) of the Python distributions, run by pytest.

    The distributions are installed editable with the extras the examples use (HDF5, SciPy,
    images, plots); chainerx is not built. ``ci/doctest_namespace.py`` gives each example
    ``numpy``/``np``, ``chainer``, ``F`` and ``L``, a fixed NumPy seed and an empty working
    directory; anything else an example uses it builds in its own lines. ``-p no:unittest``
    keeps the ``TestCase`` bases of ``chainer.testing`` from being collected as tests.
    """
    session.install(
        f"-e{PACKAGES / 'chainer-core'}[hdf5]",
        f"-e{PACKAGES / 'chainer-links'}[special,vision]",
        f"-e{PACKAGES / 'chainer-training'}[images,plot]",
        f"-e{PACKAGES / 'chainermn'}",
        f"-e{PACKAGES / 'onnx-chainer'}",
        "pytest>=8",
    )
    session.run(
        "python",
        "-m",
        "pytest",
        "-p",
        "doctest_namespace",
        "-p",
        "no:unittest",
        "--doctest-modules",
        "-o",
        "consider_namespace_packages=true",
        *(str(PACKAGES / dist / "src" / top) for dist, top in DOCTEST_SOURCES),
        *session.posargs,
        env={"PYTHONPATH": str(ROOT / "ci")},
    )


@nox.session(python=DEFAULT_PYTHON)
def example(session: nox.Session) -> None:
    """The main job: the examples on freshly built `chainer` wheels, accuracy asserted."""
    # With the `x` extra: the main job runs on ChainerX too (Chainer on ChainerX).
    wheels = _build_wheels(session, _sibling_closure("chainer", ("x",)))
    # scikit-learn ships the real datasets the examples train on offline.
    session.install(*wheels, "scikit-learn", "matplotlib")
    # The session's own folder, so that a result/ of the user's own runs is left alone.
    out = pathlib.Path(session.create_tmp()).resolve() / "result"
    session.log(f"results go to {out}")
    examples = ROOT / "examples"
    session.run("python", str(examples / "autograd_demo.py"))
    session.run(
        "python",
        str(examples / "mnist" / "train_mnist.py"),
        "--min-accuracy",
        "0.95",
        "--out",
        str(out / "mnist"),
        *session.posargs,
    )
    # The same run on ChainerX reaches the same accuracy (same seed and data).
    session.run(
        "python",
        str(examples / "mnist" / "train_mnist.py"),
        "--device",
        "native:0",
        "--no-progress",
        "--min-accuracy",
        "0.95",
        "--out",
        str(out / "mnist-chainerx"),
        *session.posargs,
    )
    accuracies = [
        json.loads((out / name / "log").read_text())[-1]["validation/main/accuracy"]
        for name in ("mnist", "mnist-chainerx")
    ]
    if abs(accuracies[0] - accuracies[1]) > 0.01:
        session.error(f"the main job on NumPy and on ChainerX differ: accuracies {accuracies}")
    session.run(
        "python",
        str(examples / "glance" / "glance.py"),
        "--min-accuracy",
        "0.9",
        "--out",
        str(out / "glance"),
    )
    session.run(
        "python",
        str(examples / "convnet" / "train_convnet.py"),
        "--min-accuracy",
        "0.9",
        "--out",
        str(out / "convnet"),
    )
    # Soak, CI form: 2,000 iterations of the main job's loop, memory traced over the last 500
    # (tracemalloc triples an iteration's cost; about 55 s of CPU on 2 cores).
    session.run(
        "python",
        str(examples / "mnist" / "soak.py"),
        "--iterations",
        "2000",
        "--warmup",
        "1500",
    )
    for produced in ("log", "loss.png", "accuracy.png"):
        if not (out / "mnist" / produced).is_file():
            session.error(f"the MNIST example did not write {produced} into {out / 'mnist'}")
    session.log(f"results (logs, plots, snapshots) are in {out}")


@nox.session(default=False, python=DEFAULT_PYTHON)
def benchmarks(session: nox.Session) -> None:
    """Speed side by side: Chainer and ChainerX vs PyTorch CPU vs NumPy floors (run by hand).

    Installs what every benchmark compares, from wheels, and runs `benchmarks/run.py`
    (posargs go to it: benchmark names, `--threads N`, `--unpin-openblas`).
    """
    dists = ["chainer-core", "chainer-links", "chainer-training", "chainerx"]
    dists += ["chainermn", "onnx-chainer"]
    wheels = _build_wheels(session, dists)
    session.install(*wheels, "torch==2.13.0", "onnxruntime", "threadpoolctl")
    session.run("python", str(ROOT / "benchmarks" / "run.py"), *session.posargs)


if __name__ == "__main__":  # pragma: no cover
    sys.exit("run this file with nox: `nox -l` lists the sessions")
