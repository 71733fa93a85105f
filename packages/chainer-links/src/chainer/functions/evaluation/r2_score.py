"""R^2, the coefficient of determination of a regression."""

from __future__ import annotations

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable

_MULTIOUTPUTS = ("uniform_average", "raw_values")


class R2_score(FunctionNode):
    """``1 - SS_res / SS_tot`` per output column (not differentiable)."""

    def __init__(self, sample_weight=None, multioutput: str = "uniform_average") -> None:
        if sample_weight is not None:
            raise NotImplementedError("r2_score does not support sample_weight; pass None")
        if multioutput not in _MULTIOUTPUTS:
            raise ValueError(
                f"multioutput must be 'uniform_average' or 'raw_values', got {multioutput!r}"
            )
        self.multioutput = multioutput

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("pred", "true"))
        pred_type, true_type = in_types
        type_check.expect(
            pred_type.dtype.kind == "f",
            true_type.dtype.kind == "f",
            pred_type.shape == true_type.shape,
            pred_type.ndim >= 1,
        )

    def forward(self, inputs: tuple) -> tuple:
        pred, true = inputs
        xp = backend.get_array_module(pred)
        ss_res = ((pred - true) ** 2).sum(axis=0)
        ss_tot = ((true - true.mean(axis=0)) ** 2).sum(axis=0)
        # A constant target has no variance to explain: its score is defined as 0.
        constant = ss_tot == 0
        score = xp.where(constant, 0.0, 1 - ss_res / xp.where(constant, 1, ss_tot))
        score = score.astype(pred.dtype, copy=False)
        if self.multioutput == "uniform_average":
            return (xp.asarray(score.mean(), dtype=pred.dtype),)
        return (xp.asarray(score),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        pred, true = inputs
        ss_res = chainerx.square(pred - true).sum(axis=0)
        ss_tot = chainerx.square(true - true.mean(axis=0)).sum(axis=0)
        constant = ss_tot == 0
        score = chainerx.where(constant, 0.0, 1 - ss_res / chainerx.where(constant, 1.0, ss_tot))
        if self.multioutput == "uniform_average":
            score = score.mean()
        return (score,)


def r2_score(pred, true, sample_weight=None, multioutput: str = "uniform_average") -> Variable:
    """Coefficient of determination ``1 - sum((pred - true)^2) / sum((true - mean)^2)``.

    Sums run over the first axis (the samples); each remaining position is one output.

    Args:
        pred: Predicted values, float, shape ``(N, ...)``.
        true: Target values of the shape and kind of ``pred``.
        sample_weight: Must be ``None`` (weights are not supported).
        multioutput: ``'uniform_average'`` for the mean score over outputs, or
            ``'raw_values'`` for one score per output.

    Returns:
        A scalar variable, or one of shape ``pred.shape[1:]`` for ``'raw_values'``; outputs
        whose target is constant score 0. It is not differentiable.

    Example:
        >>> true = numpy.array([1.0, 2.0, 3.0], numpy.float32)
        >>> F.r2_score(true + 0.5, true).array
        array(0.625, dtype=float32)
    """
    return R2_score(sample_weight, multioutput).apply((pred, true))[0]
