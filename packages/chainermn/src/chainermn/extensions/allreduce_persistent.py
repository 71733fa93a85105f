"""``AllreducePersistent``: average floating-point persistent values over ranks."""

from __future__ import annotations

import numpy

from chainer import backend, serializer
from chainer.training import extension


class _ArrayCollector(serializer.Serializer):
    """Walks a link's ``serialize`` and records every array it is given, by path."""

    def __init__(self, found: dict, path: str = "") -> None:
        self.found = found
        self.path = path

    def __getitem__(self, key):
        return _ArrayCollector(self.found, f"{self.path}/{key}")

    def __call__(self, key, value):
        if isinstance(value, backend.get_array_types()):
            self.found[f"{self.path}/{key}"] = value
        return value


class AllreducePersistent(extension.Extension):
    """Replace every floating-point persistent array of ``model`` by its mean over ranks.

    Typically the running mean and variance of batch normalization, before evaluating or
    saving the model. Integer persistents (counters) are left alone.

    Args:
        model: The link whose persistents are averaged.
        comm: ChainerMN communicator.
    """

    trigger = 1, "epoch"
    priority = extension.PRIORITY_WRITER + 1  # before writers (snapshots, reports) read them

    def __init__(self, model, comm) -> None:
        self.model = model
        self.comm = comm

    def __call__(self, trainer=None) -> None:
        """Average the persistents now (every rank must call it)."""
        found: dict = {}
        self.model.serialize(_ArrayCollector(found))
        params = {id(p.array) for p in self.model.params()}
        for key in sorted(found):
            array = found[key]
            if id(array) in params or array.dtype.kind != "f":
                continue
            host = backend.CpuDevice().send(array)
            mean = self.comm.allreduce(numpy.ascontiguousarray(host)) / self.comm.size
            backend.copyto(array, mean.astype(array.dtype, copy=False))
