"""Data-parallel updater driving several copies of a model from one process."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import chainer
from chainer import backend
from chainer.dataset import convert
from chainer.optimizer import Optimizer
from chainer.training import _batch
from chainer.training.updaters.standard_updater import StandardUpdater


class ParallelUpdater(StandardUpdater):
    """Implementation of a parallel GPU Updater.

    Every iteration splits the batch of the ``'main'`` iterator into one sub-batch per model
    (example ``i`` goes to model ``i % n``), computes each model's loss on its device,
    accumulates all gradients into the main model (the ``'main'`` optimizer's target),
    updates it, and copies the new parameters back to the other models. The loss functions
    are expected to average over their sub-batch, so the step is the one for the summed loss.

    Any devices work, several CPU copies included (useful for testing); the speed-up needs
    GPUs.

    Args:
        iterator: The dataset iterator, or a dict of them with a ``'main'`` entry.
        optimizer: The optimizer, or a dict of them with a ``'main'`` entry.
        converter: Converter from a list of examples to arrays.
        models: Dict of models by name, with the optimizer's target as ``'main'``. When
            ``None``, the target is copied once per non-main entry of ``devices``.
        devices: Dict of device specifiers by name (the same names as ``models``); the
            ``'main'`` device also receives the main model.
        loss_func: Loss function; each model itself when ``None``.
        loss_scale: Static loss scale for mixed precision.
        auto_new_epoch: Call ``optimizer.new_epoch(auto=True)`` at each epoch end.

    Example:
        Needs two GPUs and CuPy, so it is not run here.

        >>> updater = training.updaters.ParallelUpdater(  # doctest: +SKIP
        ...     train_iter, optimizer, devices={'main': '@cupy:0', 'second': '@cupy:1'})
    """

    def __init__(
        self,
        iterator: Any,
        optimizer: Optimizer | dict[str, Optimizer],
        converter: Callable = convert.concat_examples,
        models: dict[str, chainer.Link] | None = None,
        devices: dict[str, Any] | None = None,
        loss_func: Callable | None = None,
        loss_scale: float | None = None,
        auto_new_epoch: bool = True,
    ) -> None:
        super().__init__(
            iterator,
            optimizer,
            converter=converter,
            loss_func=loss_func,
            loss_scale=loss_scale,
            auto_new_epoch=auto_new_epoch,
        )
        if not isinstance(devices, dict) or "main" not in devices:
            raise ValueError(
                "ParallelUpdater needs devices: a dict of device specifiers with a 'main' "
                f"entry, got {devices!r}"
            )
        self._devices = {name: backend.get_device(spec) for name, spec in devices.items()}
        main = self.get_optimizer("main").target
        if models is None:
            main.to_device(self._devices["main"])
            models = {"main": main}
            for name, device in self._devices.items():
                if name != "main":
                    models[name] = copy.deepcopy(main).to_device(device)
        elif models.get("main") is not main or set(models) != set(self._devices):
            raise ValueError(
                "models must map the same names as devices and hold the optimizer's target as "
                f"'main'; got models {sorted(models)} and devices {sorted(self._devices)}"
            )
        self._models = dict(models)

    def connect_trainer(self, trainer: Any) -> None:
        """Register every non-main model (and its descendants) as observers under its name."""
        for name, model in self._models.items():
            if name != "main":
                trainer.reporter.add_observer(name, model)
                trainer.reporter.add_observers(name, model.namedlinks(skipself=True))

    def update_core(self) -> None:
        """Run each model on its share of the batch, sum the gradients and update."""
        optimizer = self.get_optimizer("main")
        main = optimizer.target
        iterator = self.get_iterator("main")
        batch = iterator.next()
        n_models = len(self._models)
        for model in self._models.values():
            model.cleargrads()  # free the previous gradients before the forward passes
        losses = []
        for index, (name, model) in enumerate(self._models.items()):
            device = self._devices[name]
            in_arrays = convert._call_converter(self.converter, batch[index::n_models], device)
            with chainer.force_backprop_mode(), chainer.using_device(device):
                losses.append(_batch.call_with_batch(self.loss_func or model, in_arrays))
        for loss in losses:
            loss.backward(loss_scale=self.loss_scale)
        others = [model for name, model in self._models.items() if name != "main"]
        for model in others:
            main.addgrads(model)
        optimizer.update()
        for model in others:
            model.copyparams(main)
        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)
