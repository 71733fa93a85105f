"""print_runtime_info: one line per library, with fake optional libraries installed or not."""

import io
import platform
import sys
import types

import numpy
import pytest

import chainer
from chainer._runtime_info import print_runtime_info
from chainer.backends import _chainerx, _cupy_probe, cuda, intel64


@pytest.fixture
def modules(monkeypatch):
    """Return ``install({name: module or None})``; optional libraries start uninstalled."""
    cuda.available  # noqa: B018 (bind the lazy names, so that monkeypatch restores them)
    intel64.ideep  # noqa: B018
    for name in cuda._LAZY_NAMES:
        monkeypatch.delitem(vars(cuda), name)
    for name in ("ideep", "mdarray"):
        monkeypatch.delitem(vars(intel64), name)
    probes = (_cupy_probe.probe, intel64._load_ideep, _chainerx._load)
    for probe in probes:
        probe.cache_clear()

    def install(entries):
        for name, module in entries.items():
            monkeypatch.setitem(sys.modules, name, module)

    # None in sys.modules makes `import name` fail as if the package were missing.
    install({"chainerx": None, "cupy": None, "cupyx": None, "ideep4py": None})
    yield install
    for probe in probes:
        probe.cache_clear()


def report():
    out = io.StringIO()
    print_runtime_info(out)
    return out.getvalue()


def test_without_optional_libraries(modules):
    assert report() == (
        f"Platform: {platform.platform()}\n"
        f"Chainer: {chainer.__version__}\n"
        "ChainerX: Not Available\n"
        f"NumPy: {numpy.__version__}\n"
        "CuPy: Not Available\n"
        "iDeep: Not Available\n"
    )


def test_chainerx_with_an_array_core_is_available(modules):
    chainerx = types.ModuleType("chainerx")
    chainerx.ndarray = type("ndarray", (), {})
    chainerx.Device = type("Device", (), {})
    modules({"chainerx": chainerx})
    assert "ChainerX: Available\n" in report()


def test_chainerx_without_ndarray_is_not_available(modules):
    modules({"chainerx": types.ModuleType("chainerx")})
    assert "ChainerX: Not Available\n" in report()


def test_ideep_version_is_printed(modules):
    ideep = types.ModuleType("ideep4py")
    ideep.__version__ = "2.0.0.post3"
    ideep.mdarray = type("mdarray", (), {})
    modules({"ideep4py": ideep})
    assert report().endswith("iDeep: 2.0.0.post3\n")


def test_cupy_runtime_info_is_indented_under_cupy(modules):
    cupy = types.ModuleType("cupy")
    cupy.__version__ = "13.3.0"
    cupy.is_available = lambda: True
    cupy.ndarray = type("ndarray", (), {})
    cupy.cuda = types.SimpleNamespace(Device=object, Stream=object, Event=object)
    cupy.get_default_memory_pool = cupy.get_default_pinned_memory_pool = lambda: None
    cupyx = types.ModuleType("cupyx")
    cupyx.get_runtime_info = lambda: "CuPy Version : 13.3.0\nCUDA Root : /usr/local/cuda\n"
    modules({"cupy": cupy, "cupyx": cupyx, "cupyx.cudnn": None, "cupy.cudnn": None})
    lines = report().splitlines()
    start = lines.index("CuPy:")
    assert lines[start + 1 : start + 4] == [
        "  CuPy Version : 13.3.0",
        "  CUDA Root : /usr/local/cuda",
        "iDeep: Not Available",
    ]


def test_default_output_is_stdout_and_it_is_flushed(modules, capsys):
    print_runtime_info()
    assert capsys.readouterr().out.splitlines()[1] == f"Chainer: {chainer.__version__}"

    class Recorder(io.StringIO):
        flushes = 0

        def flush(self):
            self.flushes += 1

    out = Recorder()
    print_runtime_info(out)
    assert out.flushes == 1 and out.getvalue().startswith("Platform: ")


def test_v7_private_get_runtime_info_prints_the_same_text():
    from chainer import _runtime_info

    out = io.StringIO()
    print_runtime_info(out)
    info = _runtime_info._get_runtime_info()
    assert str(info) == out.getvalue() and chainer.__version__ in str(info)
