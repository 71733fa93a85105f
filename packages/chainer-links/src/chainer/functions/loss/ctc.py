"""Connectionist temporal classification (CTC) loss, by the forward-backward algorithm.

Labels ``l_1 ... l_L`` are extended to the path ``blank l_1 blank l_2 ... l_L blank`` of
length ``S = 2L + 1``; an alignment walks along the path one step per frame, staying, moving
on, or skipping a blank between two different labels. All sums over alignments run in log
space, vectorised over the batch, one frame at a time.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions.activation.log_softmax import _log_softmax
from chainer.functions.array.stack import stack
from chainer.functions.loss import _checks
from chainer.utils import type_check
from chainer.variable import Variable

# "log 0": finite, so impossible alignments give a huge loss instead of nan gradients.
_LOG_ZERO = -1e10


def _shift(a, steps: int, xp):
    """Move ``a`` (batch, S) ``steps`` places right along S (left when negative), padding zeros."""
    out = xp.full_like(a, _LOG_ZERO)
    if steps > 0:
        out[:, steps:] = a[:, :-steps]
    else:
        out[:, :steps] = a[:, -steps:]
    return out


class ConnectionistTemporalClassification(FunctionNode):
    """CTC loss of frame scores ``xs`` (T, B, V) for label sequences ``t`` (B, L)."""

    def __init__(self, blank_symbol: int, reduce: str = "mean") -> None:
        _checks.check_reduce(reduce, ("mean", "no"))
        self.blank_symbol = blank_symbol
        self.reduce = reduce

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("xs", "t", "input_length", "label_length"))
        xs_type, t_type, in_len_type, label_len_type = in_types
        type_check.expect(
            xs_type.dtype.kind == "f",
            xs_type.ndim == 3,
            t_type.dtype.kind == "i",
            t_type.ndim == 2,
            t_type.shape[0] == xs_type.shape[1],
            in_len_type.dtype.kind == "i",
            in_len_type.shape == t_type.shape[:1],
            label_len_type.dtype.kind == "i",
            label_len_type.shape == t_type.shape[:1],
        )

    def forward(self, inputs: tuple) -> tuple:
        xs, t, input_length, label_length = inputs
        self.retain_inputs((0,))
        xp = backend.get_array_module(xs)
        n_frame, batch, n_vocab = xs.shape
        self._check_lengths(t, input_length, label_length, n_frame, n_vocab)
        work = xs.astype(numpy.float32) if xs.dtype.itemsize < 4 else xs
        self.log_y = _log_softmax(work, 2)
        path = xp.full((batch, 2 * t.shape[1] + 1), self.blank_symbol, dtype=t.dtype)
        path[:, 1::2] = t
        self.path_length = 2 * label_length + 1
        self.path = xp.clip(path, 0, n_vocab - 1)  # labels past label_length may be padding
        self.on_path = xp.arange(path.shape[1])[None] < self.path_length[:, None]
        # A skip over the blank before position s needs a label there, unlike the one before.
        self.can_skip = xp.zeros(path.shape, bool)
        self.can_skip[:, 2:] = (path[:, 2:] != self.blank_symbol) & (path[:, 2:] != path[:, :-2])
        self.input_length = input_length
        self.emission = xp.take_along_axis(
            self.log_y, xp.broadcast_to(self.path[None], (n_frame,) + path.shape), axis=2
        )
        self.alpha = self._forward_variables(xp)
        self.log_p = self._log_likelihood(xp)
        loss = -self.log_p
        if self.reduce == "mean":
            return (xp.asarray(loss.mean() if batch else 0.0, dtype=xs.dtype),)
        return (loss.astype(xs.dtype),)

    def _check_lengths(self, t, input_length, label_length, n_frame, n_vocab) -> None:
        if not 0 <= self.blank_symbol < n_vocab:
            raise ValueError(f"blank_symbol must lie in [0, {n_vocab}), got {self.blank_symbol}")
        if type(t) is not numpy.ndarray or not t.size:
            return
        if input_length.size and not (0 < input_length.min() and input_length.max() <= n_frame):
            raise ValueError(
                f"input_length must lie in [1, {n_frame}] (the number of frames), got "
                f"{input_length.tolist()}"
            )
        if label_length.size and not (
            0 <= label_length.min() and label_length.max() <= t.shape[1]
        ):
            raise ValueError(
                f"label_length must lie in [0, {t.shape[1]}] (t.shape[1]), got "
                f"{label_length.tolist()}"
            )
        used = numpy.arange(t.shape[1])[None] < label_length[:, None]
        _checks.check_labels(t[used], n_vocab)

    def _forward_variables(self, xp):
        """``alpha[f, b, s]``: log-probability of the prefixes ending at path position s."""
        emission, on_path = self.emission, self.on_path
        alpha = xp.full(emission.shape, _LOG_ZERO, dtype=emission.dtype)
        start = xp.full(emission.shape[1:], _LOG_ZERO, dtype=emission.dtype)
        start[:, :2] = emission[0, :, :2]
        alpha[0] = xp.where(on_path, start, _LOG_ZERO)
        for f in range(1, len(emission)):
            prev = alpha[f - 1]
            moved = xp.logaddexp(prev, _shift(prev, 1, xp))
            skipped = xp.where(self.can_skip, _shift(prev, 2, xp), _LOG_ZERO)
            step = xp.where(on_path, xp.logaddexp(moved, skipped) + emission[f], _LOG_ZERO)
            # finished sequences keep their last values, so alpha[-1] ends every sequence
            alpha[f] = xp.where((f < self.input_length)[:, None], step, prev)
        return alpha

    def _end_mask(self, xp):
        """Path positions where an alignment may end: the last label or the final blank."""
        positions = xp.arange(self.path.shape[1])[None]
        last = self.path_length[:, None] - 1
        return (positions == last) | ((positions == last - 1) & (last > 0))

    def _log_likelihood(self, xp):
        final = xp.where(self._end_mask(xp), self.alpha[-1], _LOG_ZERO)
        top = final.max(axis=1, keepdims=True)
        return xp.log(xp.exp(final - top).sum(axis=1)) + top[:, 0]

    def backward_variables(self, xp):
        """``beta[f, b, s]``: log-probability of the rest after frame f, from position s."""
        emission = self.emission
        ends = xp.where(self._end_mask(xp), 0.0, _LOG_ZERO).astype(emission.dtype)
        last_frame = (self.input_length - 1)[:, None]
        can_skip_ahead = xp.zeros_like(self.can_skip)  # may position s skip to s + 2
        can_skip_ahead[:, :-2] = self.can_skip[:, 2:]
        beta = xp.full(emission.shape, _LOG_ZERO, dtype=emission.dtype)
        for f in range(len(emission) - 1, -1, -1):
            if f + 1 < len(emission):
                after = beta[f + 1] + emission[f + 1]
                moved = xp.logaddexp(after, _shift(after, -1, xp))
                skipped = xp.where(can_skip_ahead, _shift(after, -2, xp), _LOG_ZERO)
                step = xp.logaddexp(moved, skipped)
                beta[f] = xp.where(f < last_frame, step, _LOG_ZERO)
            beta[f] = xp.where(f == last_frame, ends, beta[f])
        return beta

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        # xs is an input of the gradient node only so that a second differentiation reaches
        # it and fails loudly, instead of silently treating the gradient as constant in xs.
        xs = self.get_retained_inputs()[0]
        gxs = _CTCGrad(self).apply((xs, grad_outputs[0]))[0]
        return tuple([gxs if i == 0 else None for i in indexes])


class _CTCGrad(FunctionNode):
    """``(softmax(x) - occupancy) * g`` on the frames of each sequence (first order only)."""

    def __init__(self, ctc: ConnectionistTemporalClassification) -> None:
        self.ctc = ctc

    def forward(self, inputs: tuple) -> tuple:
        ctc = self.ctc
        gloss = inputs[1]
        xp = backend.get_array_module(gloss)
        log_y = ctc.log_y
        n_frame, batch, n_vocab = log_y.shape
        beta = ctc.backward_variables(xp)
        # posterior of being at path position s at frame f, then summed per vocabulary entry
        posterior = xp.exp(ctc.alpha + beta - ctc.log_p[None, :, None])
        posterior *= ctc.on_path[None]
        onehot = (ctc.path[:, :, None] == xp.arange(n_vocab)).astype(posterior.dtype)
        occupancy = xp.matmul(posterior.transpose(1, 0, 2), onehot).transpose(1, 0, 2)
        gx = xp.exp(log_y) - occupancy
        gx *= (xp.arange(n_frame)[:, None] < ctc.input_length)[:, :, None]
        if ctc.reduce == "mean":
            gx *= gloss / max(batch, 1)
        else:
            gx *= gloss[None, :, None]
        return (gx.astype(gloss.dtype),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        raise NotImplementedError(
            "connectionist_temporal_classification does not support double backpropagation"
        )


def connectionist_temporal_classification(
    x, t, blank_symbol: int, input_length=None, label_length=None, reduce: str = "mean"
) -> Variable:
    """Connectionist temporal classification loss (Graves et al., 2006).

    The loss of a sequence is ``-log p(t | x)``, summing the probability of every alignment
    of the labels to the frames, where the frame distributions are ``softmax(x[f])`` and
    ``blank_symbol`` is the "no label" output.

    Args:
        x: List (or tuple) of ``T`` variables of shape ``(B, V)``: the scores of each frame.
        t: Integer labels of shape ``(B, L)`` in ``[0, V)``, without blanks.
        blank_symbol: Index of the blank, in ``[0, V)``.
        input_length: Integer array ``(B,)`` of the frames used per sequence (default ``T``).
        label_length: Integer array ``(B,)`` of the labels used per sequence (default ``L``).
        reduce: ``'mean'`` for the mean over sequences, ``'no'`` for one loss per sequence.

    Returns:
        A scalar variable or one of shape ``(B,)``, with the dtype of ``x``. It is
        differentiable once (double backpropagation is not supported).

    Example:
        >>> x = [numpy.zeros((1, 2), numpy.float32)] * 2  # two frames, uniform over 2 symbols
        >>> t = numpy.array([[1]], numpy.int32)
        >>> F.connectionist_temporal_classification(x, t, 0).array  # 3 alignments of 1/4
        array(0.2876821, dtype=float32)
    """
    if not isinstance(x, Sequence) or isinstance(x, str):
        raise TypeError(f"x must be a list of Variables, got {type(x).__name__}")
    if not x:
        raise ValueError("x must hold at least one frame, got an empty list")
    if not isinstance(blank_symbol, (int, numpy.integer)) or isinstance(blank_symbol, bool):
        raise TypeError(f"blank_symbol must be a non-negative integer, got {blank_symbol!r}")
    if len(x[0].shape) != 2:
        raise ValueError(f"each item of x must have shape (B, V), got {x[0].shape}")
    t_array = t.array if isinstance(t, Variable) else t
    xp = backend.get_array_module(t_array)
    if input_length is None:
        input_length = xp.full(len(t_array), len(x), dtype=numpy.int32)
    if label_length is None:
        label_length = xp.full(len(t_array), t_array.shape[1], dtype=numpy.int32)
    func = ConnectionistTemporalClassification(int(blank_symbol), reduce)
    return func.apply((stack(x), t, input_length, label_length))[0]
