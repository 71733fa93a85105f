"""Data-parallel updater with one process per device."""

from __future__ import annotations

import contextlib
import time
import traceback
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import chainer
from chainer import backend, reporter
from chainer.backends import cuda
from chainer.dataset import convert
from chainer.optimizer import Optimizer
from chainer.training import _batch
from chainer.training.updaters import _gradient_exchange
from chainer.training.updaters.standard_updater import StandardUpdater

# Optimizers whose step does not scale with the gradient: their eps is scaled instead of lr
# when the gradients of n processes are summed (squared for those that square it twice).
_EPS_SCALED = ("Adam", "AdaGrad", "RMSprop")
_EPS_SQUARE_SCALED = ("RMSpropGraves", "AdaDelta")


# Seconds finalize() gives the workers to stop before terminating them.
_FINALIZE_GRACE = 5.0


class MultiprocessParallelUpdater(StandardUpdater):
    """Implementation of a multiprocess parallel GPU Updater.

    Process 0 is the calling process, with the ``'main'`` iterator, the optimizer and the
    model; one worker process is started per other device, with its own iterator and a copy of
    the model. Every iteration each process computes the gradients of its own batch, the
    gradients are summed into process 0's model, the optimizer updates it, and the new
    parameters are copied to the workers. Only process 0 reports observations.

    Since the summed gradient is ``n`` times larger than one process's mean gradient, the
    optimizer is adjusted for ``n`` devices when the updater is created (with a warning):
    ``lr`` is divided by ``n``, or ``eps`` multiplied by ``n`` (``n**2`` for RMSpropGraves
    and AdaDelta) for optimizers whose step does not scale with the gradient.

    CUDA devices exchange data with NCCL; CPU devices (``'@numpy'``, one process each) through
    pipes. Workers are started with the default :mod:`multiprocessing` start method: with
    ``spawn`` or ``forkserver`` the model, iterators and converter must be picklable. Lazily
    initialized parameters are initialized independently in every process, so the first step
    mixes gradients of differently initialized copies; they agree from the second step on.

    Args:
        iterators: One iterator per device, all over datasets of the same length (usually
            :func:`chainer.datasets.split_dataset_n_random` shards).
        optimizer: The optimizer of the model.
        converter: Converter from a list of examples to arrays.
        devices: The devices: a list or tuple (the first is process 0's), or a dict with a
            ``'main'`` entry.
        auto_new_epoch: Call ``optimizer.new_epoch(auto=True)`` at each epoch end.
        worker_timeout: Seconds to wait for a worker's gradients in a step (CPU devices)
            before the step fails with :class:`RuntimeError` (``None``: no limit, as in
            Chainer v7). A worker that dies fails the step at once in any case. Keyword only.

    Example:
        Needs two GPUs and CuPy, so it is not run here.

        >>> shards = chainer.datasets.split_dataset_n_random(train, 2)  # doctest: +SKIP
        >>> iterators = [chainer.iterators.SerialIterator(s, 32) for s in shards]  # doctest: +SKIP
        >>> updater = training.updaters.MultiprocessParallelUpdater(  # doctest: +SKIP
        ...     iterators, optimizer, devices=['@cupy:0', '@cupy:1'])
    """

    def __init__(
        self,
        iterators: Sequence[Any],
        optimizer: Optimizer,
        converter: Callable = convert.concat_examples,
        devices: Sequence[Any] | dict[str, Any] | None = None,
        auto_new_epoch: bool = True,
        *,
        worker_timeout: float | None = None,
    ) -> None:
        devices = _device_list(devices)
        iterators = list(iterators)
        if len(iterators) != len(devices):
            raise ValueError(
                f"MultiprocessParallelUpdater needs one iterator per device: got "
                f"{len(iterators)} iterators for {len(devices)} devices"
            )
        lengths = {len(iterator.dataset) for iterator in iterators}
        if len(lengths) > 1:
            raise ValueError(
                f"the iterators' datasets must all have the same length, got {sorted(lengths)}"
            )
        if any(isinstance(d, cuda.GpuDevice) for d in devices) and not self.available():
            raise RuntimeError(
                "MultiprocessParallelUpdater needs NCCL for GPU devices; install CuPy with NCCL"
                " support (or use CPU devices)"
            )
        _adjust_optimizer(optimizer, len(devices))
        super().__init__(
            iterators[0], optimizer, converter=converter, auto_new_epoch=auto_new_epoch
        )
        self._master = optimizer.target
        self._devices = devices
        self._mpu_iterators = iterators
        self._initialized = False
        self._pipes: list = []
        self._workers: list = []
        self._exchange: Any = None
        self._worker_timeout = worker_timeout

    @staticmethod
    def available() -> bool:
        """Whether NCCL is available (needed for GPU devices; CPU devices always work)."""
        return _gradient_exchange.nccl_module() is not None

    def setup_workers(self) -> None:
        """Start the worker processes (done by the first :meth:`update_core`)."""
        if self._initialized:
            return
        self._initialized = True
        self._master.cleargrads()
        main_device = self._devices[0]
        use_nccl = isinstance(main_device, cuda.GpuDevice)
        import multiprocessing  # here: it costs 4 ms at `import chainer.training`

        context = multiprocessing.get_context()
        for rank in range(1, len(self._devices)):
            pipe, worker_end = context.Pipe()
            worker = context.Process(
                target=_run_worker,
                args=(
                    rank,
                    worker_end,
                    self._master,
                    self._devices[rank],
                    self._mpu_iterators[rank],
                    self.converter,
                    len(self._devices),
                    use_nccl,
                ),
                daemon=True,  # never outlive the trainer's process
            )
            worker.start()
            worker_end.close()  # so that a dead worker shows up as EOF on our end
            self._workers.append(worker)
            self._pipes.append(pipe)
        with chainer.using_device(main_device):
            self._master.to_device(main_device)
            if use_nccl and self._pipes:
                comm_id = _gradient_exchange.nccl_module().get_unique_id()
                self._send_message(("comm_id", comm_id))
                self._exchange = _gradient_exchange.NcclExchange(len(self._devices), comm_id, 0)
            else:
                self._exchange = _gradient_exchange.PipeExchange(
                    self._pipes, is_master=True, timeout=self._worker_timeout
                )

    def _send_message(self, message: tuple[str, Any]) -> None:
        for pipe in self._pipes:
            pipe.send(message)

    def update_core(self) -> None:
        """Compute this process's gradients, sum everyone's, update and share the result."""
        self.setup_workers()
        self._send_message(("update", None))
        optimizer = self.get_optimizer("main")
        iterator = self.get_iterator("main")
        with chainer.using_device(self._devices[0]):
            self._master.cleargrads()
            batch = iterator.next()
            in_arrays = convert._call_converter(self.converter, batch, self._devices[0])
            loss = _batch.call_with_batch(self._master, in_arrays)
            loss.backward(loss_scale=self.loss_scale)
            del loss
            self._exchange.reduce_grads(self._master)
            optimizer.update()
            self._exchange.bcast_params(self._master)
        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)

    def finalize(self) -> None:
        """Stop the worker processes, then finalize the iterators.

        A worker still running ``_FINALIZE_GRACE`` seconds later (stalled) is terminated.
        """
        for pipe in self._pipes:
            with contextlib.suppress(OSError):  # a worker that failed has closed its end
                pipe.send(("finalize", None))
        deadline = time.monotonic() + _FINALIZE_GRACE
        for pipe, worker in zip(self._pipes, self._workers):
            # After a step that failed half way, a worker may be blocked sending gradients
            # that were never read: drain its messages until it exits.
            while worker.is_alive() and time.monotonic() < deadline:
                if pipe.poll(0.05):
                    with contextlib.suppress(EOFError, OSError):
                        pipe.recv()
            if worker.is_alive():
                worker.terminate()
            worker.join()
        for pipe in self._pipes:
            pipe.close()
        self._workers, self._pipes = [], []
        super().finalize()


def gather_grads(link: Any) -> Any:
    """Return the gradients of ``link``'s parameters as one flat CuPy array.

    The parameters are taken in the order of their sorted names (the same in every process);
    a missing gradient counts as zeros. :func:`scatter_grads` is the inverse.

    Raises:
        RuntimeError: ``link`` is not on a CUDA GPU.
    """
    _check_on_gpu(link, "gather_grads")
    return _gradient_exchange.flatten(_gradient_exchange.params_in_order(link), "grad")


def gather_params(link: Any) -> Any:
    """Return the values of ``link``'s parameters as one flat CuPy array (see
    :func:`gather_grads`); :func:`scatter_params` is the inverse.

    Raises:
        RuntimeError: ``link`` is not on a CUDA GPU.
    """
    _check_on_gpu(link, "gather_params")
    return _gradient_exchange.flatten(_gradient_exchange.params_in_order(link), "array")


def scatter_grads(link: Any, array: Any) -> None:
    """Copy the flat ``array`` made by :func:`gather_grads` into ``link``'s gradients."""
    _gradient_exchange.unflatten(array, _gradient_exchange.params_in_order(link), "grad")


def scatter_params(link: Any, array: Any) -> None:
    """Copy the flat ``array`` made by :func:`gather_params` into ``link``'s parameters."""
    _gradient_exchange.unflatten(array, _gradient_exchange.params_in_order(link), "array")


def _check_on_gpu(link: Any, what: str) -> None:
    if not isinstance(link.device, cuda.GpuDevice):
        raise RuntimeError(f"{what} works only on a CUDA GPU, but the link is on {link.device}")


def _device_list(devices: Any) -> list:
    if isinstance(devices, dict):
        if "main" not in devices:
            raise ValueError(f"a dict of devices must have a 'main' entry, got {sorted(devices)}")
        others = [spec for name, spec in devices.items() if name != "main"]
        devices = [devices["main"], *others]
    elif not isinstance(devices, (list, tuple)):
        raise ValueError(
            f"devices must be a list, tuple or dict of device specifiers, got {devices!r}"
        )
    if any(spec is None for spec in devices):
        raise ValueError(f"every device must be specified, got {list(devices)!r}")
    return [backend.get_device(spec) for spec in devices]


def _adjust_optimizer(optimizer: Optimizer, n_devices: int) -> None:
    name = type(optimizer).__name__
    if name in _EPS_SCALED or name in _EPS_SQUARE_SCALED:
        optimizer.eps *= n_devices if name in _EPS_SCALED else n_devices**2
        message = f"optimizer.eps is changed to {optimizer.eps}"
    elif hasattr(optimizer, "lr"):
        optimizer.lr /= n_devices
        message = f"optimizer.lr is changed to {optimizer.lr}"
    else:
        return
    warnings.warn(
        f"{message} by MultiprocessParallelUpdater for the batch of {n_devices} devices",
        stacklevel=3,
    )


def _run_worker(
    rank: int,
    pipe: Any,
    model: Any,
    device: Any,
    iterator: Any,
    converter: Callable,
    n_devices: int,
    use_nccl: bool,
) -> None:
    master = "the master process"
    try:
        device.use()
        model.to_device(device)
        if use_nccl:
            _, comm_id = _gradient_exchange.receive(pipe, master, "comm_id")
            exchange = _gradient_exchange.NcclExchange(n_devices, comm_id, rank)
        else:
            exchange = _gradient_exchange.PipeExchange([pipe], is_master=False)
        # The model reports as the master's does; this private reporter discards the values.
        worker_reporter = reporter.Reporter()
        worker_reporter.add_observer("main", model)
        worker_reporter.add_observers("main", model.namedlinks(skipself=True))
        while _gradient_exchange.receive(pipe, master, "update", "finalize")[0] == "update":
            model.cleargrads()
            in_arrays = convert._call_converter(converter, iterator.next(), device)
            with worker_reporter.scope({}):
                loss = _batch.call_with_batch(model, in_arrays)
            loss.backward()
            del loss
            exchange.reduce_grads(model)
            model.cleargrads()
            exchange.bcast_params(model)
    except Exception:
        pipe.send(("error", f"worker process {rank}: {traceback.format_exc()}"))
        raise
