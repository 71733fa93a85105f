"""Evaluating a model on a validation set during training."""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable
from typing import Any

from chainer import backend, reporter
from chainer.configuration import using_config
from chainer.dataset import convert
from chainer.function import no_backprop_mode
from chainer.training import _batch, extension
from chainer.training.extensions import util
from chainer.utils import argument


class Evaluator(extension.Extension):
    """Trainer extension to evaluate models on a validation set.

    Each call resets the ``'main'`` iterator, and for every batch converts it, calls the
    evaluation function (``eval_func``, else the ``'main'`` target) under
    ``chainer.using_config('train', False)`` and :func:`~chainer.no_backprop_mode`, and
    collects the values it reports. The means over all batches are reported to the trainer
    prefixed by the extension's name: a target reporting ``'loss'`` gives
    ``'validation/main/loss'``.

    Args:
        iterator: The validation iterator (with ``repeat=False``), or a dict of them with a
            ``'main'`` entry.
        target: The link to evaluate, or a dict of links (with a ``'main'`` entry unless
            ``eval_func`` is given; it may then be empty).
        converter: Converter from a list of examples to arrays.
        device: Device to which the batches are sent.
        eval_hook: Called with the evaluator at the start of every evaluation.
        eval_func: Evaluation function called with the converted batch; the ``'main'``
            target when ``None``.
        progress_bar: Show the progress of the evaluation on stdout (keyword only).

    Attributes:
        converter: The converter.
        device: The device (a :class:`~chainer.backend.Device` or ``None``).
        eval_hook: The hook.
        eval_func: The evaluation function.

    Example:
        >>> model = L.Classifier(L.Linear(3, 2))
        >>> x, t = numpy.ones((4, 3), numpy.float32), numpy.zeros(4, numpy.int32)
        >>> test_dataset = chainer.datasets.TupleDataset(x, t)
        >>> test_iter = chainer.iterators.SerialIterator(test_dataset, 2, repeat=False)
        >>> evaluator = Evaluator(test_iter, model, device='@numpy')
        >>> sorted(evaluator())  # a trainer calls it (``trainer.extend(evaluator)``)
        ['main/accuracy', 'main/loss']
    """

    trigger = 1, "epoch"
    default_name = "validation"
    priority = extension.PRIORITY_WRITER
    name = None

    def __init__(
        self,
        iterator: Any,
        target: Any,
        converter: Callable = convert.concat_examples,
        device: Any = None,
        eval_hook: Callable[[Evaluator], None] | None = None,
        eval_func: Callable | None = None,
        **kwargs: Any,
    ) -> None:
        (progress_bar,) = argument.parse_kwargs(kwargs, ("progress_bar", False))
        self._iterators = _batch.as_named(iterator, "iterators")
        self._targets = dict(target) if isinstance(target, dict) else {"main": target}
        self.converter = converter
        self.device = None if device is None else backend.get_device(device)
        self.eval_hook = eval_hook
        self.eval_func = eval_func
        self._progress_bar = progress_bar
        for name, it in self._iterators.items():
            if getattr(it, "repeat", False):
                warnings.warn(
                    f"The `repeat` property of the iterator {name!r} is True: the evaluator "
                    "reads an iterator until it stops, so this evaluation may never end. "
                    "Create validation iterators with repeat=False.",
                    stacklevel=2,
                )

    def get_iterator(self, name: str) -> Any:
        """Return the iterator registered as ``name``."""
        return self._iterators[name]

    def get_all_iterators(self) -> dict[str, Any]:
        """Return a new dict of every iterator by name."""
        return dict(self._iterators)

    def get_target(self, name: str) -> Any:
        """Return the target link registered as ``name``."""
        return self._targets[name]

    def get_all_targets(self) -> dict[str, Any]:
        """Return a new dict of every target by name."""
        return dict(self._targets)

    def __call__(self, trainer: Any = None) -> dict[str, Any]:
        """Evaluate, report the results to the current reporter and return them.

        Returns:
            The mean of every reported value, keyed ``'<name>/<target>/<key>'`` (without the
            ``'<name>/'`` prefix when the evaluator is not registered to a trainer).
        """
        evaluation_reporter = reporter.Reporter()
        prefix = "" if self.name is None else self.name + "/"
        for name, target in self._targets.items():
            evaluation_reporter.add_observer(prefix + name, target)
            evaluation_reporter.add_observers(prefix + name, target.namedlinks(skipself=True))
        with evaluation_reporter, using_config("train", False):
            result = self.evaluate()
        reporter.report(result)
        return result

    def evaluate(self) -> dict[str, Any]:
        """Run the evaluation over the ``'main'`` iterator and return the mean observations.

        Subclasses may override it to evaluate differently; it runs inside the reporter set
        up by :meth:`__call__`.
        """
        iterator = self._iterators["main"]
        eval_func = self.eval_func or self._targets.get("main")
        if eval_func is None:
            raise KeyError(
                "Evaluator needs an eval_func or a 'main' target to evaluate, got the targets "
                f"{sorted(self._targets)}"
            )
        if self.eval_hook:
            self.eval_hook(self)
        if hasattr(iterator, "reset"):
            iterator.reset()
            it = iterator
        else:
            warnings.warn(
                "This iterator does not have the reset method. Evaluator copies the iterator "
                "instead of resetting. This behavior is deprecated. Please implement the reset "
                "method.",
                DeprecationWarning,
                stacklevel=2,
            )
            it = copy.copy(iterator)
        summary = reporter.DictSummary()
        progress = util.IteratorProgressBar(it) if self._progress_bar else None
        for batch in it:
            observation: dict[str, Any] = {}
            with reporter.report_scope(observation):
                in_arrays = convert._call_converter(self.converter, batch, self.device)
                with no_backprop_mode():
                    _batch.call_with_batch(eval_func, in_arrays)
            summary.add(observation)
            if progress is not None:
                progress.update()
        if progress is not None:
            progress.close()
        return summary.compute_mean()

    def finalize(self) -> None:
        """Finalize every iterator."""
        for iterator in self._iterators.values():
            iterator.finalize()
