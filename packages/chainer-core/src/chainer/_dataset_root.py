"""The dataset root: where Chainer keeps downloaded datasets and converted pre-trained models.

It lives in chainer-core so that chainer-training (datasets, :mod:`chainer.dataset.download`,
which re-exports both functions as the public API) and chainer-links (the model zoo's cached
weights) share one setting without either depending on the other.
"""

from __future__ import annotations

import os

_ENV_ROOT = "CHAINER_DATASET_ROOT"

_root: str | None = None  # set by set_dataset_root; None defers to the environment


def get_dataset_root() -> str:
    """Gets the path to the root directory to download and cache datasets.

    Returns:
        The path given to :func:`set_dataset_root`, else ``$CHAINER_DATASET_ROOT``, else
        ``~/.chainer/dataset``.
    """
    if _root is not None:
        return _root
    root = os.environ.get(_ENV_ROOT)
    if root:
        return root
    return os.path.join(os.path.expanduser("~"), ".chainer", "dataset")


def set_dataset_root(path: str | os.PathLike) -> None:
    """Sets the root directory to download and cache datasets.

    Args:
        path: The new root directory; it takes precedence over ``$CHAINER_DATASET_ROOT``.
    """
    global _root
    _root = os.fspath(path)
