"""chainer.testing.doctest_helper: skip conditions for documentation examples."""

import pytest

from chainer.testing import doctest_helper


@pytest.fixture(autouse=True)
def _not_on_read_the_docs(monkeypatch):
    monkeypatch.delenv("READTHEDOCS", raising=False)


def test_skipif_follows_the_condition():
    assert doctest_helper.skipif(True) is True
    assert doctest_helper.skipif(False) is False


def test_nothing_is_skipped_on_read_the_docs(monkeypatch):
    monkeypatch.setenv("READTHEDOCS", "True")
    assert doctest_helper.skipif(True) is False
    assert doctest_helper.skipif_requires_satisfied("numpy") is False


def test_skipif_requires_satisfied():
    assert doctest_helper.skipif_requires_satisfied("numpy>=1.0") is True
    assert doctest_helper.skipif_requires_satisfied("numpy<1.0") is False
    assert doctest_helper.skipif_requires_satisfied("no-such-distribution-xyz") is False


def test_skipif_not_enough_cuda_devices(monkeypatch):
    monkeypatch.setenv("CHAINER_TEST_GPU_LIMIT", "0")
    assert doctest_helper.skipif_not_enough_cuda_devices(1) is True
    assert doctest_helper.skipif_not_enough_cuda_devices(0) is False
