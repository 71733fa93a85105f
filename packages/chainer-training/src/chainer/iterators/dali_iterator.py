"""``DaliIterator``: the NVIDIA DALI bridge of Chainer, not provided by this release."""

from __future__ import annotations

import importlib.util
from typing import Any, NoReturn

from chainer.dataset.iterator import Iterator


def _unavailable(*args: Any) -> NoReturn:
    if (
        importlib.util.find_spec("nvidia") is None
        or importlib.util.find_spec("nvidia.dali") is None
    ):
        raise RuntimeError(
            "DaliIterator needs NVIDIA DALI and a CUDA GPU; DALI is not installed "
            "(see https://docs.nvidia.com/deeplearning/dali/ for the nvidia-dali package)"
        )
    raise RuntimeError(
        "DaliIterator needs NVIDIA DALI, and this release of chainer-training does not "
        "bridge DALI pipelines: run the pipeline with DALI's own iterator and feed its "
        "batches to Chainer"
    )


class DaliIterator(Iterator):
    """(Experimental) Iterator for DALI pipeline.

    In Chainer this runs an NVIDIA DALI pipeline on the GPU and returns its batches. This
    release does not provide the bridge: creating one raises :class:`RuntimeError`, which
    says whether DALI is installed.

    Args:
        pipeline: A ``nvidia.dali.pipeline.Pipeline``.
        repeat: Whether to cycle through the data forever.
    """

    def __init__(self, pipeline: Any, repeat: bool = True) -> None:
        _unavailable()

    batch_size = property(_unavailable, doc="The batch size of the pipeline.")
    epoch_detail = property(_unavailable, doc="The epoch as a float.")
    previous_epoch_detail = property(_unavailable, doc="epoch_detail before the last batch.")
    repeat = property(_unavailable, doc="Whether the iterator cycles forever.")

    def next(self) -> NoReturn:
        """Return the next batch (never reached: see the class description)."""
        _unavailable()

    def reset(self) -> NoReturn:
        """Go back to the start (never reached: see the class description)."""
        _unavailable()

    def serialize(self, serializer: Any) -> NoReturn:
        """Save or load the position (never reached: see the class description)."""
        _unavailable()
