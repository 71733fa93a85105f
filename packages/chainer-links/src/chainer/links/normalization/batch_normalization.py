"""``BatchNormalization``: normalization by batch statistics, with running averages."""

from __future__ import annotations

import typing as tp
from collections.abc import Iterator

import numpy

import chainer
from chainer import configuration, initializers, link, variable
from chainer.functions.normalization.batch_normalization import (
    batch_normalization,
    fixed_batch_normalization,
)
from chainer.links._weights import with_dtype
from chainer.utils import argument

_TEST_REMOVED = "test argument is not supported anymore. Use chainer.using_config"


class BatchNormalization(link.Link):
    """Batch normalization layer on outputs of linear or convolution functions.

    In training mode (``chainer.config.train``) the input is normalized with the statistics
    of the batch, and the running averages ``avg_mean`` / ``avg_var`` are updated with them:
    ``avg = decay * avg + (1 - decay) * batch_statistic`` (the variance unbiased). In
    evaluation mode the running averages are used instead. Called with ``finetune=True`` in
    training mode, the running averages become the plain mean over all batches seen since
    :meth:`start_finetuning` (``decay = 1 - 1/N``), to compute exact population statistics
    after training.

    Args:
        size: Shape of the statistics and parameters (an int ``C`` for ``(n, C)`` or
            ``(n, C, h, w)`` inputs). ``None`` reads it from the first input, the axes of
            ``axis`` removed; then ``axis`` is required.
        decay: Decay rate of the running averages.
        eps: Added to the variance for numerical stability.
        dtype: Dtype of the parameters and statistics (``None``: the default dtype;
            ``chainer.mixed16`` gives float32 here).
        use_gamma: Learn the scale ``gamma``.
        use_beta: Learn the shift ``beta``.
        initial_gamma: Initializer of ``gamma``; ``None`` means ones.
        initial_beta: Initializer of ``beta``; ``None`` means zeros.
        axis: Axes to normalize over (int or tuple, ascending). ``None`` means the batch axis
            and every axis after the parameters' (e.g. ``(0, 2, 3)`` for images).
        initial_avg_mean: Initializer of ``avg_mean``; ``None`` means zeros.
        initial_avg_var: Initializer of ``avg_var``; ``None`` means ones.

    Attributes:
        gamma (~chainer.Parameter): Scale (``None`` without ``use_gamma``).
        beta (~chainer.Parameter): Shift (``None`` without ``use_beta``).
        avg_mean: Running average of the mean (persistent).
        avg_var: Running average of the variance (persistent).
        N (int): Number of batches seen while fine-tuning (persistent).
        decay (float): Decay rate of the running averages (see above).
        eps (float): Added to the variance (see above).

    Raises:
        RuntimeError: Neither ``size`` nor ``axis`` is given.

    Example:
        >>> bn = L.BatchNormalization(3)
        >>> y = bn(numpy.random.randn(8, 3, 4, 4).astype(numpy.float32))
        >>> with chainer.using_config('train', False):
        ...     y = bn(numpy.random.randn(8, 3, 4, 4).astype(numpy.float32))
    """

    gamma: variable.Parameter | None = None
    beta: variable.Parameter | None = None
    avg_mean: tp.Any = None
    avg_var: tp.Any = None

    def __init__(
        self,
        size: tp.Any = None,
        decay: float = 0.9,
        eps: float = 2e-5,
        dtype: tp.Any = None,
        use_gamma: bool = True,
        use_beta: bool = True,
        initial_gamma: tp.Any = None,
        initial_beta: tp.Any = None,
        axis: tp.Any = None,
        initial_avg_mean: tp.Any = None,
        initial_avg_var: tp.Any = None,
    ) -> None:
        super().__init__()
        if size is None and axis is None:
            raise RuntimeError(
                "BatchNormalization needs size or axis: size is the shape of gamma, axis the "
                "axes to normalize over (then the size is read from the first input)"
            )
        self._initial_avg_mean = initial_avg_mean
        self._initial_avg_var = initial_avg_var
        self.N = 0
        self.register_persistent("N")
        self.decay = decay
        self.eps = eps
        self.axis = (axis,) if isinstance(axis, int) else axis
        self._highprec_dtype = chainer.get_dtype(dtype, map_mixed16=numpy.float32)
        # Registered before they have a value, so that loading a file into a link whose size
        # is still unknown restores them too.
        self.add_persistent("avg_mean", None)
        self.add_persistent("avg_var", None)
        with self.init_scope():
            if use_gamma:
                self.gamma = self._parameter(initial_gamma, 1)
            if use_beta:
                self.beta = self._parameter(initial_beta, 0)
        if size is not None:
            self._initialize_params(size)

    def _parameter(self, initial: tp.Any, default: float) -> variable.Parameter:
        initializer = initializers._get_initializer(default if initial is None else initial)
        initializer = with_dtype(initializer, self._highprec_dtype)
        return variable.Parameter(initializer)

    def _initialize_params(self, shape: tp.Any) -> None:
        self.avg_mean = self._statistic(self._initial_avg_mean, 0, shape)
        self.avg_var = self._statistic(self._initial_avg_var, 1, shape)
        self._initial_avg_mean = self._initial_avg_var = None
        if self.gamma is not None:
            self.gamma.initialize(shape)
        if self.beta is not None:
            self.beta.initialize(shape)

    def _statistic(self, initial: tp.Any, default: float, shape: tp.Any) -> tp.Any:
        initializer = initializers._get_initializer(default if initial is None else initial)
        return initializers.generate_array(
            initializer, shape, self.xp, dtype=self._highprec_dtype, device=self.device
        )

    def serialize(self, serializer: chainer.AbstractSerializer) -> None:
        before = {name: getattr(self, name) for name in ("avg_mean", "avg_var")}
        super().serialize(serializer)
        for name, previous in before.items():
            value = getattr(self, name)
            if value is None:
                # A file saved before its link knew its size holds no statistics: keep ours.
                object.__setattr__(self, name, previous)
            else:
                # Statistics loaded into a link whose size was unknown arrive as host arrays.
                object.__setattr__(self, name, self.device.send(value))

    @property
    def printable_specs(self) -> Iterator[tuple[str, tp.Any]]:
        yield "size", None if self.avg_mean is None else self.avg_mean.shape[0]
        yield "decay", self.decay
        yield "eps", self.eps
        yield "dtype", self._highprec_dtype
        yield "use_gamma", self.gamma is not None
        yield "use_beta", self.beta is not None

    def _ensure_initialized(self, x: tp.Any) -> None:
        if self.avg_mean is None:
            self._initialize_params(tuple(d for i, d in enumerate(x.shape) if i not in self.axis))

    def _gamma_and_beta(self) -> tuple:
        # A link without gamma (beta) normalizes with a fixed scale of one (shift of zero).
        gamma, beta = self.gamma, self.beta
        if gamma is None or beta is None:
            with chainer.using_device(self.device):
                shape, dtype = self.avg_mean.shape, self._highprec_dtype
                if gamma is None:
                    gamma = self.xp.ones(shape, dtype=dtype)
                if beta is None:
                    beta = self.xp.zeros(shape, dtype=dtype)
        return gamma, beta

    def forward(self, x: tp.Any, **kwargs: tp.Any) -> variable.Variable:
        """Normalize ``x``.

        Args:
            x: Input batch.
            finetune (bool): In training mode, accumulate exact population statistics
                (keyword only).
        """
        (finetune,) = argument.parse_kwargs(kwargs, ("finetune", False), test=_TEST_REMOVED)
        self._ensure_initialized(x)
        gamma, beta = self._gamma_and_beta()
        if not configuration.config.train:
            return fixed_batch_normalization(
                x, gamma, beta, self.avg_mean, self.avg_var, self.eps, axis=self.axis
            )
        decay = training_decay(self, finetune)
        avg_mean, avg_var = self.avg_mean, self.avg_var
        if configuration.config.in_recomputing:
            # A recomputation repeats a forward pass already counted: leave the statistics.
            if finetune:
                self.N -= 1
            avg_mean = avg_var = None
        return batch_normalization(
            x,
            gamma,
            beta,
            eps=self.eps,
            running_mean=avg_mean,
            running_var=avg_var,
            decay=decay,
            axis=self.axis,
        )

    def start_finetuning(self) -> None:
        """Reset the batch count, to start accumulating population statistics anew."""
        self.N = 0


def training_decay(link: tp.Any, finetune: bool) -> float:
    """The decay of ``link``'s running statistics for one training batch.

    Fine-tuning counts the batches in ``link.N`` and turns the running averages into the
    exact mean over the batches seen; otherwise ``link.decay`` is used.
    """
    if finetune:
        link.N += 1
        return 1.0 - 1.0 / link.N
    return link.decay
