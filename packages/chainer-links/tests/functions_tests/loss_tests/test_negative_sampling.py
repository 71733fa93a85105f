"""negative_sampling: logistic losses on the target and sampled rows of W."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from .conftest import FLOAT_DTYPES, loosen_for_float16

N, UNITS, VOCAB, SAMPLES = 4, 3, 6, 2


class _FixedSampler:
    """Returns the same draw every call, so the test can recompute the loss."""

    def __init__(self):
        self.draw = numpy.random.randint(0, VOCAB, (N, SAMPLES + 1)).astype(numpy.int32)

    def __call__(self, shape):
        assert shape == self.draw.shape
        return self.draw.copy()


def _softplus(z):
    return numpy.logaddexp(0, z)


@testing.parameterize(*testing.product({"dtype": FLOAT_DTYPES, "reduce": ["sum", "no"]}))
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestNegativeSampling(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)
        self.sampler = _FixedSampler()
        self.t = numpy.array([1, -1, 3, 1], numpy.int32)

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (N, UNITS)).astype(self.dtype)
        W = numpy.random.uniform(-1, 1, (VOCAB, UNITS)).astype(self.dtype)
        return x, self.t, W

    def forward(self, inputs, device):
        x, t, W = inputs
        return (F.negative_sampling(x, t, W, self.sampler, SAMPLES, reduce=self.reduce),)

    def forward_expected(self, inputs):
        x, t, W = (a.astype(numpy.float64) if a.dtype.kind == "f" else a for a in inputs)
        loss = numpy.zeros(N)
        for i in range(N):
            if t[i] == -1:
                continue
            loss[i] = _softplus(-W[t[i]] @ x[i])
            for k in self.sampler.draw[i, 1:]:
                loss[i] += _softplus(W[k] @ x[i])
        if self.reduce == "sum":
            loss = numpy.asarray(loss.sum())
        return (loss.astype(self.dtype),)


@testing.fix_random()
def test_return_samples_puts_the_targets_first():
    sampler = _FixedSampler()
    x = numpy.zeros((N, UNITS), numpy.float32)
    W = numpy.zeros((VOCAB, UNITS), numpy.float32)
    t = numpy.array([5, 4, 3, 2], numpy.int32)
    loss, samples = F.negative_sampling(x, t, W, sampler, SAMPLES, return_samples=True)
    numpy.testing.assert_array_equal(samples[:, 0], t)
    numpy.testing.assert_array_equal(samples[:, 1:], sampler.draw[:, 1:])
    assert float(loss.array) == pytest.approx(N * (SAMPLES + 1) * numpy.log(2))


@testing.fix_random()
def test_bad_arguments_raise():
    x = numpy.zeros((N, UNITS), numpy.float32)
    W = numpy.zeros((VOCAB, UNITS), numpy.float32)
    t = numpy.zeros(N, numpy.int32)
    sampler = _FixedSampler()
    with pytest.raises(ValueError, match="only 'sum' and 'no' are valid for 'reduce'"):
        F.negative_sampling(x, t, W, sampler, SAMPLES, reduce="mean")
    with pytest.raises(TypeError, match="return_sample"):
        F.negative_sampling(x, t, W, sampler, SAMPLES, return_sample=True)
    with pytest.raises(TypeError, match="sampler must be callable"):
        F.negative_sampling(x, t, W, None, SAMPLES)
    with pytest.raises(ValueError, match=r"\[0, 6\) or equal ignore_label=-1.*got 6"):
        F.negative_sampling(x, numpy.array([0, 6, 0, 0], numpy.int32), W, sampler, SAMPLES)
    with pytest.raises(type_check.InvalidType, match=r"NegativeSampling[\s\S]*W.shape\[1\]"):
        F.negative_sampling(x, t, W[:, :2], sampler, SAMPLES)
