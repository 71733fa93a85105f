"""Evaluators that split the evaluation among ranks."""

from __future__ import annotations

import types

from chainer.dataset import concat_examples
from chainer.training import extension
from chainermn.extensions._ranks_mean import mean_over_ranks


def create_multi_node_evaluator(actual_evaluator, communicator):
    """Patch ``actual_evaluator`` to report the mean of its results over all ranks.

    Each rank evaluates its own part of the data (e.g. from :func:`scatter_dataset`), then
    the observed means are averaged over the ranks. Call it on every rank (the trainer does).
    With equal parts and equal batch sizes the result equals a single-process evaluation of
    the whole set. Works with any ``Evaluator`` subclass: only ``evaluate`` is wrapped (the
    original is kept as ``_mn_original_evaluate``).
    """
    actual_evaluator._mn_original_evaluate = actual_evaluator.evaluate
    actual_evaluator._mn_communicator = communicator

    def evaluate(self):
        local = self._mn_original_evaluate()
        return mean_over_ranks(self._mn_communicator, local, "multi-node evaluator")

    actual_evaluator.evaluate = types.MethodType(evaluate, actual_evaluator)
    return actual_evaluator


class GenericMultiNodeEvaluator(extension.Extension):
    """Evaluation whose per-batch results are gathered and aggregated on ``root``.

    Each rank runs :meth:`calc_local` on every batch of its (non-repeating) iterator; the
    results of all ranks are gathered at ``root``, interleaved batch by batch (batch 0 of rank
    0, of rank 1, ..., then batch 1), and passed once to :meth:`aggregate`, whose return value
    :meth:`__call__` returns on ``root`` (``None`` elsewhere).

    Args:
        comm: ChainerMN communicator.
        iterator: A non-repeating iterator over this rank's part of the data.
        target: Callable evaluated by the default :meth:`calc_local`.
        device: Device the converter sends batches to.
        converter: Batch converter (``concat_examples`` by default).
        root: Rank that aggregates.
        progress_hook: Callable receiving each batch, on ``root`` (keyword only).
    """

    trigger = 1, "epoch"
    default_name = "validation"
    priority = extension.PRIORITY_WRITER
    name = None

    def __init__(
        self, comm, iterator, target, device=None, converter=concat_examples, root=0, **kwargs
    ) -> None:
        self.comm = comm
        self.iterator = iterator
        self._targets = {"main": target}
        self.device = device
        self.converter = converter
        self.root = root
        self._progress_hook = kwargs.pop("progress_hook", None)
        if kwargs:
            raise TypeError(f"unexpected keyword arguments {sorted(kwargs)}")

    def calc_local(self, *args, **kwargs):
        """The result of one batch (by default ``target(*args, **kwargs)``); not ``None``."""
        return self._targets["main"](*args, **kwargs)

    def aggregate(self, results):
        """Combine every batch result of every rank (on ``root``); returns them by default."""
        return results

    def __call__(self, trainer=None):
        """Evaluate on every rank; return :meth:`aggregate`'s result on ``root``."""
        if hasattr(self.iterator, "reset"):
            self.iterator.reset()
        local = []
        for batch in self.iterator:
            if self._progress_hook is not None and self.comm.rank == self.root:
                self._progress_hook(batch)
            inputs = self.converter(batch, self.device)
            if isinstance(inputs, tuple):
                result = self.calc_local(*inputs)
            elif isinstance(inputs, dict):
                result = self.calc_local(**inputs)
            else:
                result = self.calc_local(inputs)
            local.append(result)
        gathered = self.comm.gather_obj(local, root=self.root)
        if self.comm.rank != self.root:
            return None
        interleaved = []
        for index in range(max((len(r) for r in gathered), default=0)):
            interleaved.extend(r[index] for r in gathered if index < len(r))
        return self.aggregate(interleaved)
