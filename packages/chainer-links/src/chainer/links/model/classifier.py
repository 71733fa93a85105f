"""``Classifier``: a predictor wrapped with a loss and an accuracy that it reports."""

from __future__ import annotations

import typing as tp
from collections.abc import Callable

from chainer import link, reporter
from chainer.functions.evaluation.accuracy import accuracy
from chainer.functions.loss.softmax_cross_entropy import softmax_cross_entropy


class Classifier(link.Chain):
    """A simple classifier model: computes the loss (and accuracy) of a predictor.

    Calling the model with ``(*args, t)`` runs ``y = predictor(*args)``, computes
    ``loss = lossfun(y, t)`` and, when :attr:`compute_accuracy` is ``True``,
    ``accuracy = accfun(y, t)``; both are reported with :func:`chainer.report` (as
    ``'main/loss'`` and ``'main/accuracy'`` under a trainer) and the loss is returned.

    Args:
        predictor: The predictor link (or any callable link), a child called ``predictor``.
        lossfun: Loss function of ``(y, t)``.
        accfun: Accuracy function of ``(y, t)``.
        label_key: Which argument is the label: a position among the positional arguments
            (``-1``, the last, by default) or the name of a keyword argument.

    Attributes:
        predictor: The predictor.
        lossfun, accfun, label_key: See above.
        compute_accuracy (bool): Compute and report the accuracy (default ``True``).
        y: The prediction of the last call.
        loss: The loss of the last call.
        accuracy: The accuracy of the last call (``None`` if not computed).

    Raises:
        TypeError: ``label_key`` is neither an int nor a str.

    Example:
        >>> model = L.Classifier(L.Linear(4, 3))
        >>> x = numpy.ones((2, 4), numpy.float32)
        >>> loss = model(x, numpy.array([0, 2], numpy.int32))
    """

    compute_accuracy = True

    def __init__(
        self,
        predictor: link.Link,
        lossfun: Callable = softmax_cross_entropy,
        accfun: Callable = accuracy,
        label_key: int | str = -1,
    ) -> None:
        if not isinstance(label_key, (int, str)) or isinstance(label_key, bool):
            raise TypeError(f"label_key must be int or str, but is {type(label_key).__name__}")
        super().__init__()
        self.lossfun = lossfun
        self.accfun = accfun
        self.y = None
        self.loss = None
        self.accuracy = None
        self.label_key = label_key
        with self.init_scope():
            self.predictor = predictor

    def _split_label(self, args: tuple, kwargs: dict) -> tuple[tp.Any, tuple, dict]:
        key = self.label_key
        if isinstance(key, int):
            if not -len(args) <= key < len(args):
                raise ValueError(
                    f"Label key {key} is out of bounds: the model got {len(args)} positional "
                    "arguments"
                )
            position = key % len(args)
            return args[position], args[:position] + args[position + 1 :], kwargs
        if key not in kwargs:
            raise ValueError(
                f'Label key "{key}" is not found among the keyword arguments {sorted(kwargs)}'
            )
        kwargs = dict(kwargs)
        return kwargs.pop(key), args, kwargs

    def forward(self, *args: tp.Any, **kwargs: tp.Any) -> tp.Any:
        """Predict from the arguments other than the label; return the loss.

        Raises:
            ValueError: The label is not among the arguments.
        """
        t, args, kwargs = self._split_label(args, kwargs)
        self.y = None
        self.loss = None
        self.accuracy = None
        self.y = self.predictor(*args, **kwargs)
        self.loss = self.lossfun(self.y, t)
        reporter.report({"loss": self.loss}, self)
        if self.compute_accuracy:
            self.accuracy = self.accfun(self.y, t)
            reporter.report({"accuracy": self.accuracy}, self)
        return self.loss
