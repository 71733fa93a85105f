import unittest

import pytest

from chainer.testing import _marks, attr


def summary(target):
    return [
        (mark.name, mark.args[0] if mark.name == "skipif" else None, mark.kwargs.get("reason", ""))
        for mark in target.pytestmark
    ]


@pytest.fixture
def hardware(monkeypatch):
    """Set what the probes report: ``hardware(gpus=..., cudnn=..., chainerx=..., ideep=...)``."""

    def set_hardware(gpus=0, cudnn=False, chainerx=False, ideep=False):
        monkeypatch.setattr(_marks, "gpu_count", lambda: gpus)
        monkeypatch.setattr(_marks, "cudnn_available", lambda: cudnn)
        monkeypatch.setattr(_marks, "chainerx_available", lambda: chainerx)
        monkeypatch.setattr(_marks, "ideep_available", lambda: ideep)

    return set_hardware


def make_test():
    def test_something():
        pass

    return test_something


@pytest.mark.parametrize(
    ("decorator", "marker", "probe"),
    [
        (attr.gpu, "gpu", {"gpus": 1}),
        (attr.cudnn, "gpu", {"gpus": 1, "cudnn": True}),
        (attr.chainerx, "chainerx", {"chainerx": True}),
        (attr.ideep, None, {"ideep": True}),
        (attr.multi_gpu(2), "gpu", {"gpus": 2}),
    ],
)
def test_decorators_mark_and_skip_by_hardware(decorator, marker, probe, hardware):
    hardware()
    missing = summary(decorator(make_test()))
    hardware(**probe)
    present = summary(decorator(make_test()))
    markers = [] if marker is None else [(marker, None, "")]
    assert [entry[:2] for entry in missing] == [entry[:2] for entry in markers] + [
        ("skipif", True)
    ]
    assert [entry[:2] for entry in present] == [entry[:2] for entry in markers] + [
        ("skipif", False)
    ]
    assert missing[-1][2].startswith("needs ")


def test_multi_gpu_needs_enough_devices(hardware):
    hardware(gpus=2)
    (_, skip) = summary(attr.multi_gpu(3)(make_test()))
    assert skip[1] is True and skip[2].startswith("needs 3 CUDA GPUs, 2 can be used")


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "2"])
def test_multi_gpu_rejects_bad_counts(bad):
    with pytest.raises(ValueError, match=r"multi_gpu expects a positive number of GPUs, got"):
        attr.multi_gpu(bad)


def test_slow_only_marks():
    assert summary(attr.slow(make_test())) == [("slow", None, "")]


def test_decorators_apply_to_classes(hardware):
    hardware()

    @attr.gpu
    class TestOnGpu(unittest.TestCase):
        def test_a(self):
            pass

    assert [entry[:2] for entry in summary(TestOnGpu)] == [("gpu", None), ("skipif", True)]


def test_gpu_limit_caps_the_device_count(monkeypatch):
    monkeypatch.setattr(_marks, "_cuda_device_count", lambda: 4)
    monkeypatch.setenv(_marks.GPU_LIMIT_ENV, "1")
    assert _marks.gpu_count() == 1
    monkeypatch.setenv(_marks.GPU_LIMIT_ENV, "0")
    assert _marks.gpu_count() == 0
    monkeypatch.delenv(_marks.GPU_LIMIT_ENV)
    assert _marks.gpu_count() == 4


def test_gpu_limit_must_be_a_count(monkeypatch):
    monkeypatch.setenv(_marks.GPU_LIMIT_ENV, "two")
    with pytest.raises(ValueError, match="CHAINER_TEST_GPU_LIMIT must be a non-negative integer"):
        _marks.gpu_count()


def test_probes_agree_with_the_backends():
    from chainer.backends import cuda, intel64

    assert (_marks.gpu_count() > 0) == bool(cuda.available)
    assert _marks.ideep_available() == intel64.is_ideep_available()
    assert isinstance(_marks.chainerx_available(), bool)


def test_missing_pytest_is_reported(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "pytest", None)
    with pytest.raises(ImportError, match="chainer.testing.attr.slow needs pytest"):
        attr.slow(make_test())


def test_pytest_skips_and_deselects_by_marker(run_pytest):
    source = """
        import unittest
        from chainer.testing import attr

        @attr.gpu
        def test_gpu():
            pass

        @attr.slow
        def test_slow():
            pass

        class TestMixed(unittest.TestCase):
            @attr.chainerx
            def test_chainerx(self):
                pass

            def test_plain(self):
                pass
        """
    gpu = "PASSED" if _marks.gpu_count() else "SKIPPED"
    chainerx = "PASSED" if _marks.chainerx_available() else "SKIPPED"
    run = run_pytest(source)
    assert run.outcomes == {
        "test_gpu": gpu,
        "test_slow": "PASSED",
        "TestMixed::test_chainerx": chainerx,
        "TestMixed::test_plain": "PASSED",
    }, run.output
    run = run_pytest(source, "-m", "not slow and not gpu")
    assert set(run.outcomes) == {"TestMixed::test_chainerx", "TestMixed::test_plain"}, run.output
