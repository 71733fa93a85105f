"""The standard updater: one batch from one iterator, one optimizer step per iteration."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

from chainer import backend
from chainer.backends import cuda
from chainer.dataset import convert
from chainer.optimizer import Optimizer
from chainer.training import _batch, _updater
from chainer.utils import argument


class StandardUpdater(_updater.Updater):
    """Standard implementation of Updater.

    Each :meth:`update` takes a batch from the ``'main'`` iterator, converts it with
    ``converter`` onto ``input_device``, and calls the ``'main'`` optimizer's ``update`` with
    the loss function (the optimizer's target link when ``loss_func`` is ``None``) and the
    converted arrays: a tuple as positional arguments, a dict as keyword arguments. The loss
    function is expected to report its values (``chainer.report({'loss': loss}, self)``),
    which the trainer then records as ``'main/loss'``.

    Args:
        iterator: The dataset iterator, or a dict of them; the one named ``'main'`` is used.
        optimizer: The optimizer, or a dict of them; the one named ``'main'`` is used.
        converter: Converter from a list of examples to arrays (see
            :func:`~chainer.dataset.concat_examples`).
        device: Device to which the optimizers' target links are sent (any device specifier;
            ``None`` leaves them where they are). Batches go there too unless
            ``input_device`` says otherwise.
        loss_func: Loss function; the ``'main'`` optimizer's target link when ``None``.
        loss_scale: Static loss scale for mixed precision (given to the optimizers).
        auto_new_epoch: Call ``optimizer.new_epoch(auto=True)`` whenever the ``'main'``
            iterator finishes an epoch.
        input_device: Device to send the batches to (keyword only; defaults to ``device``).

    Attributes:
        converter: The converter.
        loss_func: The loss function.
        iteration (int): The number of updates done.
        auto_new_epoch (bool): See the argument.

    Example:
        >>> from chainer import training
        >>> model = L.Classifier(L.Linear(3, 2))
        >>> x, t = numpy.ones((6, 3), numpy.float32), numpy.zeros(6, numpy.int32)
        >>> train_iter = chainer.iterators.SerialIterator(chainer.datasets.TupleDataset(x, t), 2)
        >>> optimizer = chainer.optimizers.SGD().setup(model)
        >>> updater = training.updaters.StandardUpdater(train_iter, optimizer, device='@numpy')
        >>> trainer = training.Trainer(updater, (10, 'epoch'))
        >>> trainer.run()
        >>> trainer.updater.iteration  # 3 mini-batches of 2 per epoch
        30
    """

    def __init__(
        self,
        iterator: Any,
        optimizer: Optimizer | dict[str, Optimizer],
        converter: Callable = convert.concat_examples,
        device: Any = None,
        loss_func: Callable | None = None,
        loss_scale: float | None = None,
        auto_new_epoch: bool = True,
        **kwargs: Any,
    ) -> None:
        (input_device,) = argument.parse_kwargs(kwargs, ("input_device", None))
        if device is not None:
            device = backend.get_device(device)
        input_device = device if input_device is None else backend.get_device(input_device)
        self._iterators = _batch.as_named(iterator, "iterators")
        self._optimizers = _batch.as_named(optimizer, "optimizers")
        if device is not None:
            for opt in self._optimizers.values():
                _send_link(opt.target, device)
        self.converter = converter
        self.loss_func = loss_func
        self.iteration = 0
        self._device = device
        self._input_device = input_device
        self.loss_scale = loss_scale
        if loss_scale is not None:
            for opt in self._optimizers.values():
                opt.set_loss_scale(loss_scale)
        self.auto_new_epoch = auto_new_epoch
        if auto_new_epoch:
            for opt in self._optimizers.values():
                opt.use_auto_new_epoch = True

    @property
    def device(self) -> backend.Device | None:
        """The device of the models (``None`` if the updater did not move them)."""
        return self._device

    @property
    def input_device(self) -> backend.Device | None:
        """The device the batches are sent to (``None``: left where the converter puts them)."""
        return self._input_device

    @property
    def epoch(self) -> int:
        """The number of completed epochs of the ``'main'`` iterator."""
        return self._iterators["main"].epoch

    @property
    def epoch_detail(self) -> float:
        """The epoch of the ``'main'`` iterator as a float (fractional part: progress)."""
        return self._iterators["main"].epoch_detail

    @property
    def previous_epoch_detail(self) -> float | None:
        """:attr:`epoch_detail` before the last batch (``None`` before the first)."""
        return self._iterators["main"].previous_epoch_detail

    @property
    def is_new_epoch(self) -> bool:
        """Whether the last batch of the ``'main'`` iterator completed an epoch."""
        return self._iterators["main"].is_new_epoch

    def finalize(self) -> None:
        """Finalize every iterator."""
        for iterator in self._iterators.values():
            iterator.finalize()

    def get_optimizer(self, name: str) -> Optimizer:
        """Return the optimizer registered as ``name``."""
        return self._optimizers[name]

    def get_all_optimizers(self) -> dict[str, Optimizer]:
        """Return a new dict of every optimizer by name."""
        return dict(self._optimizers)

    def get_iterator(self, name: str) -> Any:
        """Return the iterator registered as ``name``."""
        return self._iterators[name]

    def update(self) -> None:
        """Do one update step (:meth:`update_core`) and increment ``iteration``."""
        self.update_core()
        self.iteration += 1

    def update_core(self) -> None:
        """Read a batch, compute the loss and update the parameters with the main optimizer."""
        iterator = self._iterators["main"]
        batch = iterator.next()
        in_arrays = convert._call_converter(self.converter, batch, self.input_device)
        optimizer = self._optimizers["main"]
        loss_func = self.loss_func or optimizer.target
        _batch.call_with_batch(functools.partial(optimizer.update, loss_func), in_arrays)
        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)

    def serialize(self, serializer: Any) -> None:
        """Save or load the iterators, optimizers, models and the iteration count."""
        for name, iterator in self._iterators.items():
            iterator.serialize(serializer["iterator:" + name])
        for name, opt in self._optimizers.items():
            opt.serialize(serializer["optimizer:" + name])
            opt.target.serialize(serializer["model:" + name])
        self.iteration = serializer("iteration", self.iteration)


def _send_link(link: Any, device: backend.Device) -> None:
    # to_gpu leaves arrays that are already on another GPU where they are (a model split over
    # GPUs stays split), as Chainer's updater did; to_device covers every other device.
    if isinstance(device, cuda.GpuDevice):
        with warnings.catch_warnings():  # to_gpu is deprecated for users, not for this use
            warnings.simplefilter("ignore", DeprecationWarning)
            link.to_gpu(device.device.id)
    else:
        link.to_device(device)
