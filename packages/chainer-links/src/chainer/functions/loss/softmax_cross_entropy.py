"""Softmax cross entropy: the classification loss, fused with its log-softmax.

The forward pass computes the log-softmax once and picks the target entries; the backward
pass is one node that forms ``softmax(x) - onehot(t)`` directly. That node has its own
backward, so the loss is twice differentiable whatever ``enable_double_backprop`` says.

Inputs of shape ``(N, C, d1, ..., dk)`` are handled as ``N * d1 * ... * dk`` rows of ``C``
scores (the "rows layout"); 2-D inputs already are rows and are never copied.
"""

from __future__ import annotations

import numpy

import chainer
from chainer import backend
from chainer._ops import array_ops
from chainer.function_node import Fallback, FunctionNode
from chainer.functions.activation.softmax import softmax
from chainer.functions.loss import _checks
from chainer.utils.type_check import InvalidType
from chainer.variable import Variable, _new_variable

_get_array_module = backend.get_array_module
_float16 = numpy.dtype(numpy.float16)
_float32 = numpy.dtype(numpy.float32)
_float64 = numpy.dtype(numpy.float64)
_SOFT_TARGET_LOSSES = ("cross-entropy", "kl-divergence")
# Offset inside log(t) of the KL divergence, so that zero target probabilities stay finite.
_KL_EPS = 1e-7


def _rows(a):
    """``(N, C, d...)`` array -> ``(N * prod(d), C)`` (a view when already 2-D)."""
    if a.ndim == 2:
        return a
    return _get_array_module(a).moveaxis(a, 1, -1).reshape(-1, a.shape[1])


def _unrows(rows, shape: tuple):
    """Inverse of :func:`_rows` for an input of ``shape``."""
    if len(shape) == 2:
        return rows
    xp = _get_array_module(rows)
    moved = rows.reshape((shape[0],) + shape[2:] + (shape[1],))
    return xp.ascontiguousarray(xp.moveaxis(moved, -1, 1))


def _rows_var(x: Variable) -> Variable:
    """:func:`_rows` on a variable (differentiable)."""
    if x.ndim == 2:
        return x
    axes = (0,) + tuple(range(2, x.ndim)) + (1,)
    return array_ops.reshape(array_ops.transpose(x, axes), (-1, x.shape[1]))


def _unrows_var(rows: Variable, shape: tuple) -> Variable:
    """:func:`_unrows` on a variable (differentiable)."""
    if len(shape) == 2:
        return rows
    ndim = len(shape)
    moved = array_ops.reshape(rows, (shape[0],) + shape[2:] + (shape[1],))
    return array_ops.transpose(moved, (0, ndim - 1) + tuple(range(1, ndim - 1)))


def _rows_chainerx(a):
    """:func:`_rows` of a ChainerX array (differentiable)."""
    import chainerx

    return a if a.ndim == 2 else chainerx.moveaxis(a, 1, -1).reshape(-1, a.shape[1])


_maximum_reduce = numpy.maximum.reduce
_add_reduce = numpy.add.reduce
_offsets_cache: dict[tuple[int, int], numpy.ndarray] = {}


def _row_offsets(n_rows: int, n_class: int) -> numpy.ndarray:
    """``arange(n_rows) * n_class``: the flat index of each row's first entry (cached)."""
    key = (n_rows, n_class)
    offsets = _offsets_cache.get(key)
    if offsets is None:
        if len(_offsets_cache) >= 64:  # a few shapes recur in training: keep the cache small
            _offsets_cache.clear()
        offsets = numpy.arange(n_rows, dtype=numpy.intp) * n_class
        offsets.flags.writeable = False
        _offsets_cache[key] = offsets
    return offsets


def _softmax_parts(xp, scores):
    """``(x - max, exp(x - max), sum(exp(x - max)))`` per row: softmax and log-softmax."""
    if scores.dtype == _float16:  # float16 sums and logs lose too much
        scores = scores.astype(numpy.float32)
    shifted = scores - scores.max(axis=1, keepdims=True)
    exp_shifted = xp.exp(shifted)
    return shifted, exp_shifted, exp_shifted.sum(axis=1, keepdims=True)


class SoftmaxCrossEntropy(FunctionNode):
    """Softmax cross entropy of scores ``x`` against integer labels or soft targets ``t``."""

    _y = None  # cached softmax in the rows layout (cache_score)
    _coeff = 1.0
    _labels = None  # labels per row, ignored ones replaced by 0
    _weight = None  # weight per row (class weight, zero for ignored rows), or None for ones
    _targets = None  # soft targets in the rows layout

    def __init__(
        self,
        normalize: bool = True,
        cache_score: bool = True,
        class_weight=None,
        ignore_label: int = -1,
        reduce: str = "mean",
        soft_target_loss: str = "cross-entropy",
    ) -> None:
        if reduce != "mean":  # (the default needs no check)
            _checks.check_reduce(reduce, ("mean", "no"))
        if soft_target_loss not in _SOFT_TARGET_LOSSES:
            raise ValueError(
                "soft_target_loss must be 'cross-entropy' or 'kl-divergence', "
                f"got {soft_target_loss!r}"
            )
        if class_weight is not None:
            _check_class_weight(class_weight)
        self.normalize = normalize
        self.cache_score = cache_score
        self.class_weight = class_weight
        self.ignore_label = ignore_label
        self.reduce = reduce
        self.soft_target_loss = soft_target_loss
        self._x_shape = None

    @property
    def y(self):
        """The softmax of the scores kept by the forward pass (``cache_score``), else None."""
        if self._y is None:
            return None
        return _unrows(self._y, self._x_shape)

    def _check_arrays(self, in_data: tuple) -> None:
        # Direct checks: this is the hot loss of every classifier, so no expression trees.
        if len(in_data) == 2:  # the common case, all rules below at once
            x, t = in_data
            if (
                x.ndim == 2
                and t.ndim == 1
                and x.dtype.kind == "f"
                and t.dtype.kind == "i"
                and x.shape[1] != 0
                and x.shape[0] == t.shape[0]
            ):
                return
        if len(in_data) != 2:
            raise InvalidType("in_types.size() == 2", f"in_types.size() == {len(in_data)}")
        x, t = in_data
        if x.dtype.kind != "f":
            raise InvalidType("x.dtype.kind == f", f"x.dtype.kind == {x.dtype.kind} ({x.dtype})")
        if x.ndim < 2 or x.shape[1] == 0:
            raise InvalidType("x.ndim >= 2 and x.shape[1] > 0", f"x.shape == {x.shape}")
        if t.dtype.kind == "f":  # soft targets
            if t.shape != x.shape:
                raise InvalidType("x.shape == t.shape", f"{x.shape} != {t.shape}")
            return
        if t.dtype.kind != "i":
            raise InvalidType("t.dtype.kind == i", f"t.dtype.kind == {t.dtype.kind} ({t.dtype})")
        if t.ndim != x.ndim - 1:
            raise InvalidType("t.ndim == x.ndim - 1", f"{t.ndim} != {x.ndim} - 1")
        if x.shape[:1] != t.shape[:1] or x.shape[2:] != t.shape[1:]:
            raise InvalidType(
                "x.shape[0] == t.shape[0] and x.shape[2:] == t.shape[1:]",
                f"x.shape == {x.shape}, t.shape == {t.shape}",
            )

    def forward(self, inputs: tuple) -> tuple:
        x, t = inputs
        self._input_indexes_to_retain = (0,)  # retain_inputs, without the call
        if (
            type(x) is numpy.ndarray
            and x.ndim == 2
            and type(t) is numpy.ndarray
            and t.dtype.kind == "i"
            and t.ndim == 1
            and len(t) == len(x)
            and (x.dtype == _float32 or x.dtype == _float64)
            and self.reduce == "mean"
            and self.class_weight is None
            and not _checks.check_labels(t, x.shape[1], self.ignore_label)
        ):
            return self._mean_of_labels(x, t)
        return self._forward_any(x, t)

    def _forward_any(self, x, t) -> tuple:
        """:meth:`forward` of any input (``retain_inputs`` ran already)."""
        xp = _get_array_module(x)
        shifted, exp_shifted, total = _softmax_parts(xp, _rows(x))
        log_total = xp.log(total)
        if self.cache_score:
            exp_shifted /= total
            self._y = exp_shifted
            self._x_shape = x.shape
        if t.dtype.kind == "f":
            targets = _rows(t).astype(shifted.dtype, copy=False)
            loss = self._soft_target_loss(xp, shifted - log_total, targets)
            count = len(shifted)
            loss_shape = t.shape[:1] + t.shape[2:]
        else:
            loss = self._hard_target_loss(xp, shifted, log_total[:, 0], t, x.shape[1])
            count = self._count if self.normalize else len(x)
            loss_shape = t.shape
        if self.reduce == "mean":
            self._coeff = 1.0 / max(count, 1)
            return (xp.asarray(loss.sum() * -self._coeff, dtype=x.dtype),)
        return ((-loss).reshape(loss_shape).astype(x.dtype, copy=False),)

    def _mean_of_labels(self, x, t) -> tuple:
        """:meth:`forward` of the common case in fewer NumPy calls, bitwise the same.

        NumPy arrays, ``x`` of shape ``(N, C)`` in float32/float64, labels ``t`` of shape
        ``(N,)`` all in ``[0, C)`` (none ignored), no class weight, the mean.
        """
        # The same ufuncs as _softmax_parts and _hard_target_loss, called directly; the
        # labels' entries picked from the flat array (a gather: the same values).
        shifted = x - _maximum_reduce(x, axis=1, keepdims=True)
        exp_shifted = numpy.exp(shifted)
        total = _add_reduce(exp_shifted, axis=1, keepdims=True)
        log_total = numpy.log(total)
        if self.cache_score:
            exp_shifted /= total
            self._y = exp_shifted
            self._x_shape = x.shape
        n_rows, n_class = x.shape
        labels = t.ravel()
        self._labels = labels
        flat_index = labels if n_rows == 1 else labels + _row_offsets(n_rows, n_class)
        log_p = shifted.ravel()[flat_index]
        log_p -= log_total.ravel()
        self._count = n_rows
        self._coeff = coeff = 1.0 / max(n_rows, 1)
        return (numpy.asarray(_add_reduce(log_p) * -coeff, dtype=x.dtype),)

    def forward_chainerx(self, inputs: tuple):
        x, t = inputs
        if t.dtype.kind == "f":
            return self._soft_target_chainerx(x, t)
        import chainerx

        if (
            self.reduce == "mean"
            and self.class_weight is None
            and self.ignore_label == -1
            and x.ndim == 2
            and x.dtype != _float16
        ):  # the common case in one fused routine (ChainerX checks the labels)
            try:
                loss = chainerx.softmax_cross_entropy(x, t).sum()
            except chainerx.IndexError:
                return Fallback  # a label out of range: NumPy's forward raises the ValueError
            count = int((t != -1).sum()) if self.normalize else len(t)
            return (loss * (1.0 / max(count, 1)),)

        n_class = x.shape[1]
        labels = t.reshape(-1)
        if x.device.backend.name == "native" or chainer.is_debug():  # as check_labels
            _checks.check_labels(chainerx.to_numpy(labels), n_class, self.ignore_label)
        valid = labels != self.ignore_label
        if self.ignore_label != -1:  # chainerx.softmax_cross_entropy ignores the label -1
            labels = chainerx.where(valid, labels, -1)
        rows = _rows_chainerx(x)
        loss = chainerx.softmax_cross_entropy(rows, labels)
        if loss.dtype == _float16:  # sums of float16 terms lose too much
            loss = loss.astype(numpy.float32)
        if self.class_weight is not None:
            if self.class_weight.shape[0] != n_class:
                return Fallback  # NumPy raises the error
            weight = chainerx.asarray(self.class_weight, device=x.device).astype(loss.dtype)
            loss = loss * chainerx.take(weight, chainerx.where(valid, labels, 0), axis=0)
        if self.reduce == "no":
            return (loss.reshape(t.shape).astype(x.dtype),)
        count = int(valid.sum()) if self.normalize else len(x)
        return ((loss.sum() * (1.0 / max(count, 1))).astype(x.dtype),)

    def _soft_target_chainerx(self, x, t) -> tuple:
        """The soft-target loss of ChainerX arrays, as :meth:`_soft_target_loss` computes it."""
        import chainerx

        rows = _rows_chainerx(x)
        if rows.dtype == _float16:  # float16 sums and logs lose too much
            rows = rows.astype(numpy.float32)
        # The targets get no gradient, as in the NumPy path (and in Chainer).
        targets = _rows_chainerx(t.as_grad_stopped()).astype(rows.dtype, copy=False)
        loss = (targets * chainerx.log_softmax(rows, axis=1)).sum(axis=1)
        if self.soft_target_loss == "kl-divergence":
            loss = loss - (targets * chainerx.log(targets + _KL_EPS)).sum(axis=1)
        if self.reduce == "mean":
            return ((loss.sum() * (-1.0 / max(len(rows), 1))).astype(x.dtype),)
        return ((-loss).reshape(t.shape[:1] + t.shape[2:]).astype(x.dtype),)

    def _hard_target_loss(self, xp, shifted, log_total, t, n_class: int):
        """Weighted log-probabilities of the labels, one per row (ignored rows are zero).

        Only the labels' entries of the log-softmax are formed: ``shifted[t] - log_total``.
        """
        labels = t.ravel()
        may_ignore = _checks.check_labels(labels, n_class, self.ignore_label)
        valid = None
        if may_ignore:
            valid = labels != self.ignore_label
            labels = xp.where(valid, labels, 0)
        self._labels = labels
        log_p = shifted[xp.arange(len(labels)), labels] - log_total
        weight = None
        if self.class_weight is not None:
            if self.class_weight.shape[0] != n_class:
                raise ValueError(
                    f"class_weight must have one weight per class ({n_class}), got shape "
                    f"{self.class_weight.shape}"
                )
            weight = self.class_weight.astype(log_p.dtype, copy=False)[labels]
        if valid is not None:
            mask = valid.astype(log_p.dtype)
            weight = mask if weight is None else weight * mask
            # where, not a product: an ignored row may hold -inf, and -inf * 0 is nan
            log_p = xp.where(valid, log_p, 0)
        self._weight = weight
        self._count = len(labels) if valid is None else int(valid.sum())
        return log_p if weight is None else log_p * weight

    def _soft_target_loss(self, xp, log_y, targets):
        """``sum(t * log_y)`` per row, less the target entropy for the KL divergence."""
        self._targets = targets
        loss = (targets * log_y).sum(axis=1)
        if self.soft_target_loss == "kl-divergence":
            loss -= (targets * xp.log(targets + _KL_EPS)).sum(axis=1)
        return loss

    def softmax_rows(self, x):
        """The softmax of ``x`` in the rows layout (cached or recomputed)."""
        if self._y is not None:
            return self._y
        _, exp_shifted, total = _softmax_parts(_get_array_module(x), _rows(x))
        exp_shifted /= total
        return exp_shifted

    def targets_rows(self, xp, n_rows: int, n_class: int, dtype):
        """Per-row target distributions ``T`` and their sums ``S`` (rows layout)."""
        if self._targets is not None:
            targets = self._targets.astype(dtype, copy=False)
            return targets, targets.sum(axis=1, keepdims=True)
        onehot = xp.zeros((n_rows, n_class), dtype)
        onehot[xp.arange(n_rows), self._labels] = 1
        return onehot, None

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x = self.get_retained_inputs()[0]
        gx = _SoftmaxCrossEntropyGrad(self).apply((x, grad_outputs[0]))[0]
        return (gx,) if len(indexes) == 1 else (gx, None)

    def _backward_fast(self, indexes: tuple, grad_outputs: tuple) -> tuple | None:
        """``backward`` of the mean loss on NumPy arrays: the gradient node's forward."""
        gloss = grad_outputs[0]
        g = gloss._array
        x_node = self.inputs[0]
        x = x_node.data
        if (
            self.reduce != "mean"
            or type(g) is not numpy.ndarray
            or type(x) is not numpy.ndarray
            or g.shape != ()
        ):
            return None
        (gx,) = _SoftmaxCrossEntropyGrad(self).forward((x, g))
        gx_var = _new_variable(gx, x_node._requires_grad or gloss._requires_grad)
        return (gx_var,) if len(indexes) == 1 else (gx_var, None)


class _SoftmaxCrossEntropyGrad(FunctionNode):
    """Gradient of the loss with respect to ``x``: ``(S * softmax(x) - T) * w * g``.

    ``T`` is the target distribution of each row (one-hot for labels), ``S`` its sum (one for
    labels), ``w`` the per-row weight (class weight, zero for ignored rows) and ``g`` the
    upstream gradient times the mean's coefficient.
    """

    def __init__(self, loss: SoftmaxCrossEntropy) -> None:
        self.loss = loss

    def _row_scale(self, gloss):
        """Upstream gradient per row (array or variable): a scalar, or a column for ``'no'``."""
        if self.loss.reduce == "mean":
            return gloss * self.loss._coeff
        if isinstance(gloss, Variable):
            return array_ops.reshape(gloss, (-1, 1))
        return gloss.reshape(-1, 1)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs((0, 1))
        x, gloss = inputs
        loss = self.loss
        y = loss.softmax_rows(x)
        scale = self._row_scale(gloss.astype(y.dtype, copy=False))
        if loss._targets is not None:
            t = loss._targets
            gx = y * t.sum(axis=1, keepdims=True) - t
            gx *= scale
        else:
            if loss._weight is not None:
                scale = scale * loss._weight[:, None]
            gx = y * scale
            # minus the one-hot part: the scale of each row at its label
            rows = _get_array_module(gx).arange(len(gx))
            gx[rows, loss._labels] -= scale if scale.ndim == 0 else scale[:, 0]
        return (_unrows(gx, x.shape).astype(x.dtype, copy=False),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        x, gloss = self.get_retained_inputs()
        loss = self.loss
        xp = x.xp
        dtype = x.dtype
        ggx = _rows_var(grad_outputs[0])
        y = softmax(_rows_var(x), axis=1)
        targets, sums = loss.targets_rows(xp, y.shape[0], y.shape[1], dtype)
        weight = loss._weight
        row_factor = None if weight is None else weight.astype(dtype)[:, None]
        if sums is not None:
            row_factor = sums if row_factor is None else row_factor * sums
        scale = self._row_scale(gloss)
        ret = []
        for i in indexes:
            if i == 0:  # through softmax: y * (v - sum(y * v)) with v = ggx * w * S * g
                v = ggx * scale if row_factor is None else ggx * row_factor * scale
                gx = y * (v - array_ops.sum(y * v, axis=1, keepdims=True))
                ret.append(_unrows_var(gx, x.shape))
            else:  # linear in the upstream gradient
                a = (y if sums is None else y * sums) - targets
                if weight is not None:
                    a = a * weight.astype(dtype)[:, None]
                per_row = array_ops.sum(ggx * a, axis=1)
                if loss.reduce == "mean":
                    ret.append(array_ops.sum(per_row) * loss._coeff)
                else:
                    ret.append(array_ops.reshape(per_row, gloss.shape))
        return tuple(ret)


def _check_class_weight(class_weight) -> None:
    if isinstance(class_weight, Variable):  # a ValueError, as in Chainer
        raise ValueError(
            "class_weight must be a numpy.ndarray or cupy.ndarray, not a chainer.Variable"
        )
    if getattr(class_weight, "ndim", None) != 1:
        raise ValueError(
            f"class_weight must be a 1-D array, got shape {getattr(class_weight, 'shape', None)}"
        )
    if class_weight.dtype.kind != "f":
        raise ValueError(f"class_weight must have a floating dtype, got {class_weight.dtype}")


def softmax_cross_entropy(
    x,
    t,
    normalize: bool = True,
    cache_score: bool = True,
    class_weight=None,
    ignore_label: int = -1,
    reduce: str = "mean",
    enable_double_backprop: bool = False,
    soft_target_loss: str = "cross-entropy",
) -> Variable:
    """Cross entropy between the softmax of ``x`` and the labels (or distributions) ``t``.

    For integer labels the loss of a row is ``-w[t] * log(softmax(x)[t])``; rows whose label is
    ``ignore_label`` contribute zero. For float ``t`` of the shape of ``x`` (soft targets) it is
    ``-sum(t * log(softmax(x)))``, or the KL divergence ``sum(t * (log(t) - log(softmax(x))))``.

    Args:
        x: Scores before softmax, shape ``(N, C)`` or ``(N, C, d1, ..., dk)``, float dtype.
        t: Integer labels of shape ``(N,)`` / ``(N, d1, ..., dk)`` with values in ``[0, C)``
            or ``ignore_label``; or float soft targets of the shape of ``x``.
        normalize: With ``reduce='mean'``, divide by the number of non-ignored labels (True)
            or by ``N`` (False). Soft-target losses are divided by the number of rows.
        cache_score: Keep the softmax from the forward pass for backward (faster; more memory).
        class_weight: 1-D float array of ``C`` weights applied to the labels' terms.
        ignore_label: Label value whose rows are skipped.
        reduce: ``'mean'`` for a scalar loss, ``'no'`` for one loss per label position.
        enable_double_backprop: Accepted for compatibility; the loss is always twice
            differentiable here.
        soft_target_loss: ``'cross-entropy'`` or ``'kl-divergence'`` (soft targets only).

    Returns:
        A scalar variable (``'mean'``) or one of the shape of the labels (``'no'``), with the
        dtype of ``x``.

    Raises:
        ValueError: On an unknown ``reduce``/``soft_target_loss``, a bad ``class_weight`` or a
            label outside ``[0, C)`` that is not ``ignore_label``.

    Example:
        >>> x = numpy.array([[-1.0, 0.0, 1.0], [3.0, 1.0, 0.0]], numpy.float32)
        >>> t = numpy.array([2, 0], numpy.int32)
        >>> F.softmax_cross_entropy(x, t).array
        array(0.28872603, dtype=float32)
    """
    func = SoftmaxCrossEntropy(
        normalize, cache_score, class_weight, ignore_label, reduce, soft_target_loss
    )
    return func.apply((x, t))[0]
