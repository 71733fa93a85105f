"""black_out: discriminative loss over the target and given negative samples."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing

from .conftest import FLOAT_DTYPES, loosen_for_float16

N, UNITS, VOCAB, SAMPLES = 3, 4, 5, 2


@testing.parameterize(*testing.product({"dtype": FLOAT_DTYPES, "reduce": ["mean", "no"]}))
@testing.fix_random()
@testing.inject_backend_tests(None, [{}])
class TestBlackOut(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)
        self.t = numpy.array([0, 2, 4], numpy.int32)
        self.samples = numpy.array([[1, 3], [0, 1], [2, 2]], numpy.int32)

    def generate_inputs(self):
        x = numpy.random.uniform(-0.5, 0.5, (N, UNITS)).astype(self.dtype)
        W = numpy.random.uniform(-0.5, 0.5, (VOCAB, UNITS)).astype(self.dtype)
        return x, W

    def forward(self, inputs, device):
        x, W = inputs
        return (F.black_out(x, self.t, W, self.samples, reduce=self.reduce),)

    def forward_expected(self, inputs):
        x, W = (a.astype(numpy.float64) for a in inputs)
        loss = []
        for i in range(N):
            positive = W[self.t[i]] @ x[i]
            negatives = [W[k] @ x[i] for k in self.samples[i]]
            log_z = numpy.log(numpy.exp(positive) + sum(numpy.exp(n) for n in negatives))
            rejected = sum(numpy.log(1 - numpy.exp(n - log_z)) for n in negatives)
            loss.append(-(positive - log_z + rejected))
        loss = numpy.array(loss)
        if self.reduce == "mean":
            loss = numpy.asarray(loss.mean())
        return (loss.astype(self.dtype),)


def test_bad_arguments_raise():
    x = numpy.zeros((N, UNITS), numpy.float32)
    W = numpy.zeros((VOCAB, UNITS), numpy.float32)
    t = numpy.zeros(N, numpy.int32)
    samples = numpy.zeros((N, SAMPLES), numpy.int32)
    with pytest.raises(ValueError, match="only 'mean' and 'no' are valid for 'reduce'"):
        F.black_out(x, t, W, samples, reduce="sum")
    with pytest.raises(ValueError, match=r"W must have shape \(V, 4\).*got \(5, 3\)"):
        F.black_out(x, t, W[:, :3], samples)
    with pytest.raises(ValueError, match=r"t must have shape \(3,\) and samples \(3, S\)"):
        F.black_out(x, t, W, samples[:2])
    with pytest.raises(ValueError, match=r"\[0, 5\).*got 7"):
        F.black_out(x, t, W, samples + 7)
