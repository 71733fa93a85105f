"""``create_multi_node_optimizer``: any Chainer optimizer, data-parallel over a communicator."""

from __future__ import annotations

from chainermn import _bucketing
from chainermn.communicators import _model_params
from chainermn.communicators.communicator_base import CommunicatorBase

DEFAULT_BUCKET_BYTES = 25 * 1024 * 1024


class _MultiNodeOptimizer:
    """Wraps ``actual_optimizer``: parameters broadcast from rank 0, gradients averaged.

    The first :meth:`update` (and the first after the set of parameters changed, e.g. a link
    added or a lazily initialized one) broadcasts rank 0's parameters instead of updating, as
    in v7. Every other attribute is the wrapped optimizer's.
    """

    def __init__(self, actual_optimizer, communicator, zero_fill, bucket_bytes) -> None:
        object.__setattr__(self, "actual_optimizer", actual_optimizer)
        object.__setattr__(self, "communicator", communicator)
        object.__setattr__(self, "zero_fill", zero_fill)
        object.__setattr__(self, "_broadcast_layout", None)
        reducer = None
        if bucket_bytes is not None:
            reducer = _bucketing.BucketedGradReducer(communicator, bucket_bytes, zero_fill)
        object.__setattr__(self, "_bucketed", reducer)

    def __getattr__(self, name):
        return getattr(self.actual_optimizer, name)

    def __setattr__(self, name, value) -> None:
        setattr(self.actual_optimizer, name, value)

    def setup(self, link):
        """Set up the wrapped optimizer on ``link``; its parameters are broadcast next update."""
        self.actual_optimizer.setup(link)
        return self

    def update(self, lossfun=None, *args, **kwds) -> None:
        """Backprop ``lossfun`` (if given), average the gradients over ranks, then update."""
        target = self.target
        self._backward(target, lossfun, args, kwds)
        if self._needs_broadcast(target):
            if self._bucketed is not None:
                self._bucketed.plan(target)
            return
        if self._bucketed is not None:
            self._bucketed.finish_step(target)
        else:
            self.communicator.multi_node_mean_grad(target, self.zero_fill)
        self.actual_optimizer.update(None, *args, **kwds)

    def _backward(self, target, lossfun, args: tuple, kwds: dict) -> None:
        """Clear the gradients and backprop ``lossfun(*args, **kwds)``, if it is given."""
        if lossfun is None:
            return
        loss = lossfun(*args, **kwds)
        if getattr(self.actual_optimizer, "_use_cleargrads", True):
            target.cleargrads()
        else:
            target.zerograds()
        if self._bucketed is not None:
            self._bucketed.start_step()
        loss.backward(loss_scale=getattr(self.actual_optimizer, "_loss_scale", None))

    def _needs_broadcast(self, target) -> bool:
        layout = _model_params.layout(_model_params.collect_params(target, "array"), "array")
        if layout == self._broadcast_layout:
            return False
        self.communicator.bcast_data(target)
        self._in_sync(target, layout)
        return True

    def _in_sync(self, target, layout: list) -> None:
        """Record that the parameters of ``target`` (of ``layout``) are equal on every rank."""
        del target
        object.__setattr__(self, "_broadcast_layout", layout)

    def _parameters_in_sync(self) -> None:
        """The parameters are already equal on every rank (all loaded from one checkpoint
        set): the next update updates instead of broadcasting."""
        target = self.target
        self._in_sync(
            target, _model_params.layout(_model_params.collect_params(target, "array"), "array")
        )

    def serialize(self, serializer) -> None:
        """Serialize the wrapped optimizer."""
        self.actual_optimizer.serialize(serializer)


class _DoubleBufferingOptimizer(_MultiNodeOptimizer):
    """Updates with the previous step's averaged gradients while this step's are averaged in
    the background (``double_buffering=True``), following v7 step by step.

    The first :meth:`update` (and the first after :meth:`setup` or a change in the set of
    parameters) broadcasts rank 0's parameters; the next one starts averaging its gradients
    and does not update; every later one starts averaging its own gradients, then updates
    with those the previous one averaged. After ``k`` updates ``t`` is so ``k - 2``.
    :attr:`communicated_target` is a copy of the target sharing its parameter arrays whose
    gradients are the second buffer: the ones in flight. Every other attribute is the wrapped
    optimizer's.
    """

    def __init__(self, actual_optimizer, communicator, zero_fill) -> None:
        super().__init__(actual_optimizer, communicator, zero_fill, None)
        object.__setattr__(self, "communicated_target", None)
        object.__setattr__(self, "_grad_pairs", [])
        object.__setattr__(self, "_needs_update", False)
        object.__setattr__(self, "_mean", communicator._make_nonblocking_mean())

    def setup(self, link):
        """Set up the wrapped optimizer on ``link``; its parameters are broadcast next update."""
        self.wait()
        object.__setattr__(self, "_broadcast_layout", None)
        return super().setup(link)

    def update(self, lossfun=None, *args, **kwds) -> None:
        """Backprop ``lossfun`` (if given), start averaging the gradients over the ranks,
        and update with the gradients averaged at the previous update."""
        target = self.target
        self._backward(target, lossfun, args, kwds)
        self.wait()
        if self._needs_broadcast(target):
            return
        for param, spare in self._grad_pairs:
            param.grad, spare.grad = spare.grad, param.grad
        self._mean.start(self.communicated_target, self.zero_fill)
        if self._needs_update:
            self.actual_optimizer.update(None, *args, **kwds)
        else:
            object.__setattr__(self, "_needs_update", True)

    def wait(self) -> None:
        """Wait until the average in flight is in :attr:`communicated_target`'s gradients."""
        self._mean.wait()

    def _in_sync(self, target, layout: list) -> None:
        super()._in_sync(target, layout)
        spare_target = target.copy(mode="share")
        spares = dict(spare_target.namedparams())
        pairs = [(param, spares[name]) for name, param in target.namedparams()]
        for param, spare in pairs:
            # Never applied: the next update swaps them in and only starts averaging.
            if param.grad is not None:
                spare.grad = param.xp.zeros_like(param.grad)
        object.__setattr__(self, "communicated_target", spare_target)
        object.__setattr__(self, "_grad_pairs", pairs)
        object.__setattr__(self, "_needs_update", False)


def create_multi_node_optimizer(
    actual_optimizer,
    communicator: CommunicatorBase,
    double_buffering: bool = False,
    zero_fill: bool = True,
    *,
    bucketed: bool = False,
    bucket_bytes: int = DEFAULT_BUCKET_BYTES,
):
    """Make ``actual_optimizer`` data-parallel over ``communicator``.

    Args:
        actual_optimizer: A Chainer optimizer (e.g. ``chainer.optimizers.Adam()``).
        communicator: A ChainerMN communicator.
        double_buffering: Overlap the gradient allreduce with the next step, updating with
            the previous step's averaged gradients, in v7's sequence: the first update
            broadcasts, the second only starts averaging, each later one updates with the
            previous average. ``pure_nccl`` averages on a CUDA stream of its own, the CPU
            communicators (beyond v7) with non-blocking ``Iallreduce``, which proceeds during
            the next step only with asynchronous MPI progress (see the package README).
            Cannot be combined with ``bucketed``.
        zero_fill: Give initialized parameters that got no gradient a zero gradient, so that
            links unused on some ranks still take part in the average.
        bucketed: (beyond v7) Pack gradients into buckets of about ``bucket_bytes`` and start
            each bucket's non-blocking allreduce as soon as backward has finished all of its
            gradients; :meth:`update` waits only for what is still in flight. Pass the loss
            function to ``update`` (as ``StandardUpdater`` does) or call ``backward`` between
            updates; results equal the plain path to float rounding.
        bucket_bytes: Bucket size in bytes for ``bucketed``.

    Returns:
        The multi-node optimizer; use it like ``actual_optimizer``.

    Example:
        Every process of an MPI job runs it, e.g. under ``mpiexec -n 2``; the doctests run in one
        process, so they skip it.

        >>> optimizer = chainermn.create_multi_node_optimizer(  # doctest: +SKIP
        ...     chainer.optimizers.Adam(), comm)
        >>> optimizer.setup(model)  # doctest: +SKIP
    """
    if double_buffering:
        if bucketed:
            raise ValueError(
                "double_buffering=True and bucketed=True cannot be combined; choose one way "
                "to overlap communication (with the next step, or with backward)"
            )
        if not hasattr(communicator, "_make_nonblocking_mean"):
            raise ValueError(
                "double_buffering=True needs a ChainerMN MPI or pure_nccl communicator, got "
                f"{type(communicator).__name__}"
            )
        return _DoubleBufferingOptimizer(actual_optimizer, communicator, zero_fill)
    if bucketed and (not isinstance(bucket_bytes, int) or bucket_bytes <= 0):
        raise ValueError(f"bucket_bytes must be a positive int, got {bucket_bytes!r}")
    return _MultiNodeOptimizer(
        actual_optimizer, communicator, zero_fill, bucket_bytes if bucketed else None
    )
