"""BlackOut: a sampled softmax loss with weighted negative samples (a composed function)."""

from __future__ import annotations

from chainer._ops import array_ops
from chainer._ops.exponential import exp, log
from chainer._ops.get_item import get_item
from chainer.functions.array.concat import concat
from chainer.functions.loss import _checks
from chainer.functions.math.logsumexp import logsumexp
from chainer.variable import Variable


def black_out(x, t, W, samples, reduce: str = "mean") -> Variable:
    """BlackOut loss (Ji et al., 2016): a discriminative loss over the target and samples.

    With ``p = W[t] . x`` and ``n_k = W[samples_k] . x``, and ``log Z`` the log-sum-exp of
    ``p`` and all ``n_k``, a row costs ``-(p - log Z + sum_k log(1 - exp(n_k - log Z)))``.

    Args:
        x: Input vectors of shape ``(N, D)``, float.
        t: Integer targets of shape ``(N,)`` in ``[0, V)``.
        W: Output embeddings of shape ``(V, D)``, of the dtype of ``x``.
        samples: Integer negative samples of shape ``(N, S)`` in ``[0, V)``.
        reduce: ``'mean'`` for the mean over rows, ``'no'`` for one loss per row.

    Returns:
        A scalar variable or one of shape ``(N,)``.

    Example:
        >>> x = numpy.zeros((1, 2), numpy.float32)
        >>> W = numpy.ones((3, 2), numpy.float32)
        >>> t, samples = numpy.array([0], numpy.int32), numpy.array([[1]], numpy.int32)
        >>> F.black_out(x, t, W, samples).array  # 2 log 2
        array(1.3862944, dtype=float32)
    """
    _checks.check_reduce(reduce, ("mean", "no"))
    t = t.array if isinstance(t, Variable) else t
    samples = samples.array if isinstance(samples, Variable) else samples
    batch, units = x.shape
    if len(W.shape) != 2 or W.shape[1] != units:
        raise ValueError(f"W must have shape (V, {units}) to match x {x.shape}, got {W.shape}")
    if t.shape != (batch,) or samples.ndim != 2 or samples.shape[0] != batch:
        raise ValueError(
            f"t must have shape ({batch},) and samples ({batch}, S), got {t.shape} and "
            f"{samples.shape}"
        )
    _checks.check_labels(t, W.shape[0])
    _checks.check_labels(samples, W.shape[0])
    x3 = array_ops.reshape(x, (batch, 1, units))
    negative = array_ops.sum(get_item(W, samples) * x3, axis=2)
    positive = array_ops.sum(get_item(W, t) * x, axis=1)
    log_z = logsumexp(concat([array_ops.reshape(positive, (batch, 1)), negative]), axis=1)
    reject = log(1 - exp(negative - array_ops.reshape(log_z, (batch, 1))))
    loss = log_z - positive - array_ops.sum(reject, axis=1)
    if reduce == "mean":
        return array_ops.sum(loss) * (1.0 / max(batch, 1))
    return loss
