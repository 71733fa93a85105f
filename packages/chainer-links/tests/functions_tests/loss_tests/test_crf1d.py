"""crf1d and argmax_crf1d against brute force over every label sequence."""

import itertools

import numpy
import pytest

import chainer.functions as F
from chainer import testing

from .conftest import FLOAT_DTYPES, loosen_for_float16

N_LABEL = 3
LENGTHS = (3, 2, 2, 1)  # sorted by decreasing length, as transpose_sequence gives them


def _batch_sizes(lengths):
    return [sum(length > i for length in lengths) for i in range(max(lengths))]


def _sequence_score(cost, xs, b, labels):
    score = sum(float(xs[i][b, y]) for i, y in enumerate(labels))
    return score + sum(float(cost[p, y]) for p, y in zip(labels, labels[1:]))


def _brute_force(cost, xs, lengths):
    """(log Z, best score, best labels) of each sequence by enumerating every labelling."""
    results = []
    for b, length in enumerate(lengths):
        scored = [
            (_sequence_score(cost, xs, b, seq), seq)
            for seq in itertools.product(range(N_LABEL), repeat=length)
        ]
        best_score, best_labels = max(scored)
        scores = numpy.array([s for s, _ in scored])
        log_z = best_score + numpy.log(numpy.exp(scores - best_score).sum())
        results.append((log_z, best_score, best_labels))
    return results


@testing.parameterize(
    *testing.product(
        {"dtype": FLOAT_DTYPES, "reduce": ["mean", "no"], "lengths": [LENGTHS, (2, 2)]}
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, [{}])
class TestCRF1d(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)
        sizes = _batch_sizes(self.lengths)
        self.ys = [numpy.random.randint(0, N_LABEL, n).astype(numpy.int32) for n in sizes]

    def generate_inputs(self):
        cost = numpy.random.uniform(-1, 1, (N_LABEL, N_LABEL)).astype(self.dtype)
        xs = [
            numpy.random.uniform(-1, 1, (n, N_LABEL)).astype(self.dtype)
            for n in _batch_sizes(self.lengths)
        ]
        return (cost, *xs)

    def forward(self, inputs, device):
        cost, *xs = inputs
        return (F.crf1d(cost, xs, self.ys, reduce=self.reduce),)

    def forward_expected(self, inputs):
        cost, *xs = inputs
        losses = []
        for b, (log_z, _, _) in enumerate(_brute_force(cost, xs, self.lengths)):
            labels = [int(self.ys[i][b]) for i in range(self.lengths[b])]
            losses.append(log_z - _sequence_score(cost, xs, b, labels))
        loss = numpy.array(losses)
        if self.reduce == "mean":
            loss = numpy.asarray(loss.mean())
        return (loss.astype(self.dtype),)


@testing.parameterize({"lengths": LENGTHS}, {"lengths": (1,)}, {"lengths": (4, 4)})
@testing.fix_random()
@testing.inject_backend_tests(None, [{}])
class TestArgmaxCRF1d(testing.FunctionTestCase):
    skip_double_backward_test = True  # the best score is piecewise linear

    def generate_inputs(self):
        cost = numpy.random.uniform(-1, 1, (N_LABEL, N_LABEL))
        xs = [numpy.random.uniform(-1, 1, (n, N_LABEL)) for n in _batch_sizes(self.lengths)]
        return (cost, *xs)

    def forward(self, inputs, device):
        cost, *xs = inputs
        return (F.argmax_crf1d(cost, xs)[0],)

    def forward_expected(self, inputs):
        cost, *xs = inputs
        return (numpy.array([best for _, best, _ in _brute_force(cost, xs, self.lengths)]),)


@pytest.mark.parametrize("lengths", [LENGTHS, (1,), (4, 4), (2, 1, 1)])
@testing.fix_random()
def test_argmax_path_is_the_best_labelling(lengths):
    cost = numpy.random.uniform(-1, 1, (N_LABEL, N_LABEL)).astype(numpy.float32)
    xs = [
        numpy.random.uniform(-1, 1, (n, N_LABEL)).astype(numpy.float32)
        for n in _batch_sizes(lengths)
    ]
    _, path = F.argmax_crf1d(cost, xs)
    assert [p.shape for p in path] == [x.shape[:1] for x in xs]
    assert all(p.dtype == numpy.int32 for p in path)
    for b, (_, _, labels) in enumerate(_brute_force(cost, xs, lengths)):
        assert tuple(int(path[i][b]) for i in range(lengths[b])) == labels


def test_bad_sequences_raise():
    cost = numpy.zeros((2, 2), numpy.float32)
    x = numpy.zeros((2, 2), numpy.float32)
    y = numpy.zeros(2, numpy.int32)
    with pytest.raises(ValueError, match="only 'mean' and 'no' are valid for 'reduce'"):
        F.crf1d(cost, [x], [y], reduce="sum")
    with pytest.raises(ValueError, match=r"batch sizes of xs must not increase: len\(xs\[1\]\)"):
        F.crf1d(cost, [x[:1], x], [y[:1], y])
    with pytest.raises(ValueError, match=r"xs\[0\] must have shape \(batch, 2\), got \(2, 3\)"):
        F.crf1d(cost, [numpy.zeros((2, 3), numpy.float32)], [y])
    with pytest.raises(ValueError, match=r"ys must have one item per item of xs \(2\), got 1"):
        F.crf1d(cost, [x, x], [y])
    with pytest.raises(ValueError, match=r"\[0, 2\).*got 2"):
        F.crf1d(cost, [x], [numpy.array([0, 2], numpy.int32)])
    with pytest.raises(ValueError, match="at least one position"):
        F.argmax_crf1d(cost, [])
