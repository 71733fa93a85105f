"""Pytest plugin for the ``doctest`` session: the names Chainer's docstring examples assume.

Every example sees ``numpy``/``np``, ``chainer``, ``F`` (``chainer.functions``) and ``L``
(``chainer.links``) beside its own module's globals, starts from a fixed NumPy seed so that
random values shown in examples are reproducible, and runs in an empty temporary directory
so that the files it writes (``'model.npz'``, ``'result/'``) land nowhere else. Nothing else
is provided: an example that needs a model, a dataset or a trainer builds it in its own lines.
"""

from __future__ import annotations

import pathlib

import numpy
import pytest

import chainer
import chainer.functions
import chainer.links

SEED = 0


@pytest.fixture(autouse=True)
def _chainer_doctest_namespace(
    doctest_namespace: dict, tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doctest_namespace.update(
        numpy=numpy, np=numpy, chainer=chainer, F=chainer.functions, L=chainer.links
    )
    numpy.random.seed(SEED)
    monkeypatch.chdir(tmp_path)
