"""connectionist_temporal_classification against a sum over every frame labelling."""

import itertools

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing

from .conftest import FLOAT_DTYPES, loosen_for_float16

BLANK = 0


def _collapse(frames):
    """Merge repeats, then drop blanks: the labels an alignment spells."""
    labels, previous = [], None
    for symbol in frames:
        if symbol != previous and symbol != BLANK:
            labels.append(symbol)
        previous = symbol
    return labels


def _reference(xs, t, input_length, label_length):
    n_vocab = xs.shape[2]
    losses = []
    for b in range(xs.shape[1]):
        frames = xs[: input_length[b], b].astype(numpy.float64)
        y = numpy.exp(frames - frames.max(axis=1, keepdims=True))
        y /= y.sum(axis=1, keepdims=True)
        target = [int(v) for v in t[b, : label_length[b]]]
        p = sum(
            numpy.prod([y[f, s] for f, s in enumerate(seq)])
            for seq in itertools.product(range(n_vocab), repeat=int(input_length[b]))
            if _collapse(seq) == target
        )
        losses.append(-numpy.log(p))
    return numpy.array(losses)


@testing.parameterize(
    *testing.product(
        {
            "dtype": FLOAT_DTYPES,
            "reduce": ["mean", "no"],
            "lengths": [None, ((4, 3, 2), (2, 1, 0))],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, [{}])
class TestCTC(testing.FunctionTestCase):
    skip_double_backward_test = True  # not supported (see test_double_backward_raises)
    shape = (4, 3, 3)  # frames, batch, vocabulary

    def setUp(self):
        loosen_for_float16(self)
        self.t = numpy.array([[1, 1], [2, 1], [1, 2]], numpy.int32)  # includes a repeat
        if self.lengths is None:
            self.input_length = numpy.full(3, 4, numpy.int32)
            self.label_length = numpy.full(3, 2, numpy.int32)
        else:
            self.input_length, self.label_length = (
                numpy.array(v, numpy.int32) for v in self.lengths
            )

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        xs = inputs[0]
        frames = [xs[f] for f in range(xs.shape[0])]
        if self.lengths is None:
            return (
                F.connectionist_temporal_classification(frames, self.t, BLANK, reduce=self.reduce),
            )
        loss = F.connectionist_temporal_classification(
            frames, self.t, BLANK, self.input_length, self.label_length, self.reduce
        )
        return (loss,)

    def forward_expected(self, inputs):
        loss = _reference(inputs[0], self.t, self.input_length, self.label_length)
        if self.reduce == "mean":
            loss = numpy.asarray(loss.mean())
        return (loss.astype(self.dtype),)


@testing.fix_random()
def test_frames_past_input_length_get_no_gradient():
    xs = [chainer.Variable(numpy.random.randn(2, 3).astype(numpy.float32)) for _ in range(3)]
    t = numpy.array([[1], [2]], numpy.int32)
    loss = F.connectionist_temporal_classification(
        xs, t, BLANK, numpy.array([3, 1], numpy.int32), numpy.array([1, 1], numpy.int32)
    )
    loss.backward()
    assert numpy.abs(xs[0].grad[1]).sum() > 0
    numpy.testing.assert_array_equal(xs[1].grad[1], 0)
    numpy.testing.assert_array_equal(xs[2].grad[1], 0)


def test_impossible_alignment_gives_a_huge_finite_loss():
    xs = [chainer.Variable(numpy.zeros((1, 3), numpy.float32))]
    loss = F.connectionist_temporal_classification(xs, numpy.array([[1, 2]], numpy.int32), 0)
    loss.backward()
    assert float(loss.array) > 1e9
    assert numpy.isfinite(xs[0].grad).all()


@testing.fix_random()
def test_double_backward_raises():
    x = chainer.Variable(numpy.random.randn(2, 1, 3))
    loss = F.connectionist_temporal_classification(
        [x[0], x[1]], numpy.array([[1]], numpy.int32), 0
    )
    (gx,) = chainer.grad([loss], [x], enable_double_backprop=True)
    with pytest.raises(NotImplementedError, match="does not support double backpropagation"):
        F.sum(gx * gx).backward()


def test_bad_arguments_raise():
    x = [numpy.zeros((2, 3), numpy.float32)] * 2
    t = numpy.array([[1], [2]], numpy.int32)
    ctc = F.connectionist_temporal_classification
    with pytest.raises(TypeError, match="x must be a list of Variables, got ndarray"):
        ctc(numpy.zeros((2, 2, 3), numpy.float32), t, 0)
    with pytest.raises(TypeError, match="blank_symbol must be a non-negative integer, got 0.5"):
        ctc(x, t, 0.5)
    with pytest.raises(ValueError, match=r"blank_symbol must lie in \[0, 3\), got 3"):
        ctc(x, t, 3)
    with pytest.raises(ValueError, match="only 'mean' and 'no' are valid for 'reduce'"):
        ctc(x, t, 0, reduce="sum")
    with pytest.raises(ValueError, match=r"input_length must lie in \[1, 2\].*\[3, 2\]"):
        ctc(x, t, 0, input_length=numpy.array([3, 2], numpy.int32))
    with pytest.raises(ValueError, match=r"label_length must lie in \[0, 1\].*\[2, 1\]"):
        ctc(x, t, 0, label_length=numpy.array([2, 1], numpy.int32))
    with pytest.raises(ValueError, match=r"\[0, 3\).*got 5"):
        ctc(x, numpy.array([[1], [5]], numpy.int32), 0)
    with pytest.raises(ValueError, match=r"shape \(B, V\), got \(2,\)"):
        ctc([numpy.zeros(2, numpy.float32)], t, 0)
