"""More converter cases, in the form of ``cases.py`` (which they extend)."""

from __future__ import annotations

import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L
from onnx_chainer.testing import input_generator as gen


def _fn(f):
    return chainer.Sequential(f)


def _x(*shape):
    return gen.increasing(*shape)


class _SequenceModel(chainer.Chain):
    """An ``NStep*`` link over sequences of different lengths; returns hy (, cy) and ys."""

    def __init__(self, link):
        super().__init__()
        with self.init_scope():
            self.rnn = link

    def forward(self, *xs):
        *states, ys = self.rnn(None, *([None] if len(self._states()) == 2 else []), list(xs))
        return (*states, F.concat(ys, axis=0))

    def _states(self):
        return ("hx", "cx") if "LSTM" in type(self.rnn).__name__ else ("hx",)


def _sequences(*lengths):
    rng = np.random.RandomState(1)
    return tuple(rng.uniform(-1, 1, (n, 3)).astype(np.float32) for n in lengths)


def _n_step_lstm(xs_lengths):
    """``F.n_step_lstm`` itself, two layers, the batch shrinking over time."""
    rng = np.random.RandomState(2)
    units, in_size = 4, 3
    ws = [
        [rng.uniform(-1, 1, (units, in_size if layer == 0 and k < 4 else units)).astype("f")]
        for layer in range(2)
        for k in range(8)
    ]
    ws = [sum(ws[layer * 8 : layer * 8 + 8], []) for layer in range(2)]
    bs = [[rng.uniform(-1, 1, units).astype("f") for _ in range(8)] for _ in range(2)]
    batch = xs_lengths[0]

    def forward(h, c, *xs):
        hy, cy, ys = F.n_step_lstm(2, 0.0, h, c, ws, bs, list(xs))
        return hy, cy, F.concat(ys, axis=0)

    xs = tuple(rng.uniform(-1, 1, (b, in_size)).astype("f") for b in xs_lengths)
    h = rng.uniform(-1, 1, (2, batch, units)).astype("f")
    return _fn(forward), (h, h * 0.5, *xs)


def _triple():
    rng = np.random.RandomState(3)
    return tuple(rng.uniform(-1, 1, (4, 3)).astype(np.float32) for _ in range(3))


def _pair_and_labels():
    return (*_triple()[:2], np.array([1, 0, 0, 1], np.int32))


def _r2_inputs():
    true = np.array([[1, 2, 5], [2, 2, 1], [4, 2, 0]], np.float32)  # column 1 is constant
    return true + _x(3, 3), true


def _labels_nd():
    return np.array([[[0, 2], [-1, 1]], [[1, 1], [2, 0]], [[2, 0], [0, 0]], [[1, -1], [0, 2]]])[
        :2
    ].astype(np.int32)


def _sparse_matmul(transposed):
    """A sparse ``(3, 4)`` with a padding entry (-1) and, transposed, a repeated position."""
    row = np.array([0, 2, 1, -1, 2], np.int32)
    col = np.array([1, 3, 0, -1, 3 if transposed else 2], np.int32)

    def forward(b):  # CooMatrix holds its entries as a constant, as in Chainer
        a = chainer.utils.CooMatrix(_x(5) + 2, row, col, (3, 4))
        return F.sparse_matmul(a, b, transa=transposed, transb=transposed)

    b = _x(3, 2) if transposed else _x(4, 2)
    return _fn(forward), b.T.copy() if transposed else b


def _sparse_matmul_batched():
    row = np.array([[0, 1], [1, 1]], np.int32)
    col = np.array([[2, 0], [1, 2]], np.int32)

    def forward(b):
        return F.sparse_matmul(chainer.utils.CooMatrix(_x(2, 2) + 2, row, col, (2, 3)), b)

    return _fn(forward), _x(2, 3, 4)


def _scores():
    return np.random.RandomState(4).uniform(-1, 1, (6, 4)).astype(np.float32)


def _upsampling(shape, ksize, cover_all):
    def forward(x):
        y, indexes = F.max_pooling_2d(x, ksize, cover_all=cover_all, return_indices=True)
        return F.upsampling_2d(y * 2, indexes, ksize, cover_all=cover_all, outsize=shape[2:])

    return _fn(forward), _x(*shape)


CASES = [
    (
        "permutate_const_inv",
        "Permutate",
        lambda: (
            _fn(lambda x: F.permutate(x, np.array([1, 2, 0], np.int32), axis=1, inv=True)),
            _x(2, 3),
        ),
    ),
    ("im2col", "Im2Col", lambda: (_fn(lambda x: F.im2col(x, 3, 2, 1)), _x(1, 3, 5, 6))),
    (
        "im2col_cover_all_dilate",
        "Im2Col",
        lambda: (
            _fn(lambda x: F.im2col(x, (2, 3), (2, 1), (0, 1), cover_all=True, dilate=(1, 2))),
            _x(2, 2, 5, 6),
        ),
    ),
    (
        "local_convolution_2d",
        "Im2Col",
        lambda: (
            _fn(lambda x: F.local_convolution_2d(x, _x(2, 2, 2, 3, 2, 2), _x(2, 2, 2))),
            _x(1, 3, 3, 3),
        ),
    ),
    ("upsampling_2d", "Upsampling2D", lambda: _upsampling((1, 2, 4, 6), 2, False)),
    ("upsampling_2d_cover_all", "Upsampling2D", lambda: _upsampling((2, 2, 5, 5), 2, True)),
    (
        "scatter_add",
        "ScatterAdd",
        lambda: (
            _fn(lambda a, b: F.scatter_add(a, ([0, 2], slice(None)), b)),
            (_x(3, 4), _x(2, 4) * 3),
        ),
    ),
    (
        "scatter_add_repeated",
        "ScatterAdd",
        lambda: (
            _fn(lambda a, b: F.scatter_add(a, (slice(None), np.array([1, 0, 1])), b)),
            (_x(2, 3), _x(2, 3) * 3),
        ),
    ),
    ("diagonal", "Diagonal", lambda: (_fn(lambda x: F.diagonal(x, 1, 2, 0)), _x(3, 2, 4))),
    (
        "as_strided",
        "AsStrided",
        lambda: (_fn(lambda x: F.as_strided(x, (3, 2), (2, 1), 1)), _x(8)),
    ),
    (
        "as_strided_overlapping",
        "AsStrided",
        lambda: (_fn(lambda x: F.as_strided(x, (3, 3), (1, 0))), _x(2, 2)),
    ),
    (
        "pad_sequence",
        "PadSequence",
        lambda: (_fn(lambda *xs: F.pad_sequence(xs, padding=-2)), (_x(3, 2), _x(1, 2), _x(2, 2))),
    ),
    (
        "pad_sequence_length",
        "PadSequence",
        lambda: (_fn(lambda *xs: F.pad_sequence(xs, 4)), (_x(3), _x(4))),
    ),
    (
        "slstm",
        "SLSTM",
        lambda: (_fn(F.slstm), (_x(2, 3), _x(2, 3) * 2, _x(2, 12), _x(2, 12)[::-1].copy())),
    ),
    ("tree_lstm", "TreeLSTM", lambda: (_fn(F.tree_lstm), (_x(2, 3), _x(2, 3) * 2, _x(2, 15)))),
    ("tree_lstm_one_child", "TreeLSTM", lambda: (_fn(F.tree_lstm), (_x(2, 3, 2), _x(2, 12, 2)))),
    (
        "contrastive",
        "Contrastive",
        lambda: (_fn(lambda a, b, y: F.contrastive(a, b, y, 1.5)), _pair_and_labels()),
    ),
    (
        "contrastive_no_reduce",
        "Contrastive",
        lambda: (_fn(lambda a, b, y: F.contrastive(a, b, y, reduce="no")), _pair_and_labels()),
    ),
    ("triplet", "Triplet", lambda: (_fn(F.triplet), _triple())),
    (
        "triplet_no_reduce",
        "Triplet",
        lambda: (_fn(lambda a, p, n: F.triplet(a, p, n, 0.5, "no")), _triple()),
    ),
    ("cross_covariance", "CrossCovariance", lambda: (_fn(F.cross_covariance), _triple()[:2])),
    (
        "cross_covariance_no_reduce",
        "CrossCovariance",
        lambda: (_fn(lambda y, z: F.cross_covariance(y, z, "no")), _triple()[:2]),
    ),
    ("decov", "DeCov", lambda: (_fn(F.decov), _triple()[0])),
    ("decov_no_reduce", "DeCov", lambda: (_fn(lambda h: F.decov(h, "no")), _triple()[0])),
    (
        "binary_accuracy",
        "BinaryAccuracy",
        lambda: (
            _fn(F.binary_accuracy),
            (_x(2, 3), np.array([[0, 1, -1], [1, 1, 0]], np.int32)),
        ),
    ),
    ("r2_score", "R2_score", lambda: (_fn(F.r2_score), _r2_inputs())),
    (
        "r2_score_raw",
        "R2_score",
        lambda: (_fn(lambda p, t: F.r2_score(p, t, multioutput="raw_values")), _r2_inputs()),
    ),
    ("shift", "Shift", lambda: (_fn(F.shift), _x(2, 10, 4, 5))),
    (
        "shift_dilated",
        "Shift",
        lambda: (_fn(lambda x: F.shift(x, (3, 5), (2, -1))), _x(1, 16, 5, 6)),
    ),
    ("cumprod", "Cumprod", lambda: (_fn(lambda x: F.cumprod(x, -2)), _x(2, 4, 3))),
    ("cumprod_flat", "Cumprod", lambda: (_fn(F.cumprod), _x(2, 3) + 1.5)),
    ("fft", "FFT", lambda: (_fn(lambda r, i: F.fft((r, i))), (_x(2, 5), _x(2, 5)[::-1].copy()))),
    ("ifft", "FFT", lambda: (_fn(lambda r, i: F.ifft((r, i))), (_x(3, 2, 4), _x(3, 2, 4) * 2))),
    ("fft_1d", "FFT", lambda: (_fn(lambda r, i: F.fft((r, i))), (_x(6), _x(6) * 3))),
    (
        "spatial_transformer_grid",
        "SpatialTransformerGrid",
        lambda: (_fn(lambda t: F.spatial_transformer_grid(t, (3, 4))), _x(2, 2, 3)),
    ),
    (
        "softmax_cross_entropy_nd",
        "SoftmaxCrossEntropy",
        lambda: (_fn(F.softmax_cross_entropy), (_x(2, 3, 2, 2), _labels_nd())),
    ),
    (
        "softmax_cross_entropy_nd_no_reduce",
        "SoftmaxCrossEntropy",
        lambda: (
            _fn(lambda x, t: F.softmax_cross_entropy(x, t, normalize=False, reduce="no")),
            (_x(2, 3, 4), _labels_nd().reshape(2, 4)),
        ),
    ),
    (
        "softmax_cross_entropy_nd_batch_mean",
        "SoftmaxCrossEntropy",
        lambda: (
            _fn(lambda x, t: F.softmax_cross_entropy(x, t, normalize=False)),
            (_x(2, 3, 2, 2), _labels_nd()),
        ),
    ),
    (
        "simplified_dropconnect_test_mode",
        "SimplifiedDropconnect",
        lambda: (
            _fn(lambda x: F.simplified_dropconnect(x, _x(3, 4), _x(3) + 1, 0.5, train=False)),
            _x(2, 2, 2),
        ),
    ),
    (
        "simplified_dropconnect_no_bias",
        "SimplifiedDropconnect",
        lambda: (
            _fn(lambda x: F.simplified_dropconnect(x, _x(3, 4).astype("d"), train=False)),
            _x(2, 4),
        ),
    ),
    ("sparse_matmul", "CooMatMul", lambda: _sparse_matmul(False)),
    ("sparse_matmul_transposed", "CooMatMul", lambda: _sparse_matmul(True)),
    ("sparse_matmul_batched", "CooMatMul", lambda: _sparse_matmul_batched()),
    (
        "classification_summary",
        "ClassificationSummary",
        lambda: (
            _fn(lambda y, t: F.classification_summary(y, t, label_num=4, beta=2.0)),
            (_scores(), np.array([0, 1, -1, 3, 1, 0], np.int32)),
        ),
    ),
    (
        "f1_score_nd",
        "ClassificationSummary",
        lambda: (
            _fn(lambda y, t: F.f1_score(y, t, label_num=3)),
            (_scores().reshape(2, 3, 4), _labels_nd().reshape(2, 4)),
        ),
    ),
    ("n_step_lstm", "LSTMRecurrence", lambda: _n_step_lstm([3, 3, 3])),
    ("n_step_lstm_shrinking", "LSTMRecurrence", lambda: _n_step_lstm([3, 2, 2, 1])),
    (
        "n_step_lstm_link",
        "LSTMRecurrence",
        lambda: (_SequenceModel(L.NStepLSTM(2, 3, 4, 0.0)), _sequences(4, 2, 3)),
    ),
    (
        "n_step_bilstm_link",
        "LSTMRecurrence",
        lambda: (_SequenceModel(L.NStepBiLSTM(1, 3, 4, 0.0)), _sequences(2, 4, 3)),
    ),
]

MIN_OPSET = {
    "sparse_matmul_transposed": 16,  # entries at one position add up
    "permutate_const_inv": 9,  # the inverse permutation is a Scatter
    "scatter_add_repeated": 16,
    "n_step_lstm_link": 9,  # the link permutes the batch back (Permutate with inv=True)
    "n_step_bilstm_link": 9,
}
WARNS: set[str] = set()
INEXACT_BELOW: dict[str, int] = {}
FLOAT32_ONLY = {
    "classification_summary",
    "f1_score_nd",
    "sparse_matmul",
    "sparse_matmul_transposed",
    "sparse_matmul_batched",
    "simplified_dropconnect_test_mode",
    "simplified_dropconnect_no_bias",
    "softmax_cross_entropy_nd",
    "softmax_cross_entropy_nd_no_reduce",
    "softmax_cross_entropy_nd_batch_mean",
    "local_convolution_2d",
    "n_step_lstm",
    "n_step_lstm_shrinking",
    "im2col",
    "im2col_cover_all_dilate",
    "upsampling_2d",
    "upsampling_2d_cover_all",
}
