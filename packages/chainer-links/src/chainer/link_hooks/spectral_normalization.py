"""``SpectralNormalization``: a link hook that divides a weight by its largest singular value."""

from __future__ import annotations

import typing as tp

import numpy

from chainer import backend, configuration, utils
from chainer.functions.math.matmul import matmul
from chainer.link_hooks._weight_hook import WeightTransformHook
from chainer.links.connection.deconvolution_2d import Deconvolution2D
from chainer.links.connection.deconvolution_nd import DeconvolutionND
from chainer.variable import Parameter, Variable


class SpectralNormalization(WeightTransformHook):
    """Spectral Normalization (Miyato et al., 2018) of a link's weight.

    In every forward pass the link computes with ``W / sigma(W)`` (times ``gamma`` with
    ``use_gamma``), where ``sigma`` estimates the largest singular value of ``W`` seen as a
    matrix ``(W.shape[axis], -1)`` (``axis`` is 1 for the deconvolutions, whose output
    channels come second, else 0). The estimate ``sigma = u^T W v`` comes from power
    iteration: each pass runs ``n_power_iteration`` steps ``v = normalize(W^T u)``,
    ``u = normalize(W v)`` from the vector ``u`` kept on the link as the persistent value
    ``<weight_name>_u`` (saved and loaded with the link). In training mode the improved
    ``u`` is stored for the next pass; in test mode it is left unchanged, so evaluation is
    deterministic. The gradient flows through ``sigma`` to the weight.

    Register it on one link with ``link.add_hook``; it cannot be used as a context manager.

    Args:
        n_power_iteration: Power-iteration steps per forward pass (at least 1).
        eps: Added to the norms when normalizing the vectors.
        use_gamma: Also learn a scale ``link.gamma``, initialized to the exact largest
            singular value of the initial weight.
        factor: If given, the weight is divided by ``sigma / factor`` instead.
        weight_name: Name of the link's weight parameter.
        name: Name of the hook (default ``'SpectralNormalization'``).

    Attributes:
        vector_name (str): Name of the persistent vector ``u`` on the link.
        axis (int): The axis of the weight that forms the rows of the matrix.

    Example:
        >>> layer = L.Linear(3, 4).add_hook(SpectralNormalization())
        >>> layer.W_u.shape
        (4,)
    """

    name = "SpectralNormalization"

    def __init__(
        self,
        n_power_iteration: int = 1,
        eps: float = 1e-6,
        use_gamma: bool = False,
        factor: float | None = None,
        weight_name: str = "W",
        name: str | None = None,
    ) -> None:
        if n_power_iteration < 1:
            raise ValueError(f"n_power_iteration must be at least 1, got {n_power_iteration}")
        super().__init__(weight_name, name)
        self.n_power_iteration = n_power_iteration
        self.eps = eps
        self.use_gamma = use_gamma
        self.factor = factor
        self.vector_name = weight_name + "_u"
        self.axis = 0
        self.u: tp.Any = None
        self.v: tp.Any = None

    def added(self, link: tp.Any) -> None:
        """Register ``u`` (and ``gamma``) on ``link`` when its weight is initialized.

        Raises:
            ValueError: ``link`` has no attribute ``weight_name``.
        """
        if isinstance(link, (Deconvolution2D, DeconvolutionND)):
            self.axis = 1
        super().added(link)

    def deleted(self, link: tp.Any) -> None:
        """Remove ``u`` (and ``gamma``) from ``link``."""
        delattr(link, self.vector_name)
        if self.use_gamma:
            del link.gamma

    def prepare(self, link: tp.Any) -> None:
        weight = getattr(link, self.weight_name)
        rows = weight.shape[self.axis]
        if rows == 0:
            raise ValueError(f"Expect {self.weight_name}.shape[{self.axis}] > 0, got 0")
        u = numpy.random.normal(size=(rows,)).astype(weight.dtype)
        setattr(link, self.vector_name, link.device.send(u))
        link.register_persistent(self.vector_name)
        if self.use_gamma:
            matrix = backend.CpuDevice().send(self.reshape_W(weight.array))
            largest = numpy.linalg.svd(matrix, compute_uv=False)[0]
            with link.init_scope():
                link.gamma = Parameter(link.device.send(utils.force_array(largest)))
        super().prepare(link)

    def reshape_W(self, W: tp.Any) -> tp.Any:
        """The weight as a matrix: ``W.shape[axis]`` rows, the other axes flattened."""
        if self.axis != 0:
            W = W.transpose([self.axis] + [i for i in range(W.ndim) if i != self.axis])
        return W if W.ndim == 2 else W.reshape(W.shape[0], -1)

    def normalize_weight(self, link: tp.Any) -> Variable:
        """The link's weight divided by its estimated largest singular value."""
        weight = getattr(link, self.weight_name)
        matrix = self.reshape_W(weight)
        if configuration.config.in_recomputing:
            # A recomputed forward pass must see the vectors of the original one.
            u, v = self.u, self.v
        else:
            u, v = _power_iteration(
                matrix.array, getattr(link, self.vector_name), self.n_power_iteration, self.eps
            )
        sigma = matmul(matmul(u, matrix), v)
        if self.factor is not None:
            sigma /= self.factor
        normalized = weight / sigma
        if self.use_gamma:
            normalized = link.gamma * normalized
        self.u, self.v = u, v
        if configuration.config.train:
            getattr(link, self.vector_name)[...] = u
        return normalized

    def transform(self, link: tp.Any, weight: Variable) -> Variable:
        return self.normalize_weight(link)


def _l2_normalize(xp: tp.Any, v: tp.Any, eps: float) -> tp.Any:
    # Not xp.linalg.norm: ChainerX has no linalg module.
    return v / (xp.sqrt((v * v).sum()) + eps)


def _power_iteration(matrix: tp.Any, u: tp.Any, steps: int, eps: float) -> tuple:
    """``steps`` power-iteration steps from ``u``: the first left and right singular vectors."""
    xp = backend.get_array_module(matrix)
    for _ in range(steps):
        v = _l2_normalize(xp, xp.dot(u, matrix), eps)
        u = _l2_normalize(xp, xp.dot(matrix, v), eps)
    return u, v
