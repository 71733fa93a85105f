"""discriminative_margin_based_clustering_loss: the three terms against loops."""

import itertools

import numpy
import pytest

import chainer.functions as F
from chainer import testing

from .conftest import loosen_for_float16

DIM = 3  # embedding channels = number of instance labels
DELTA_V, DELTA_D = 0.3, 0.8


def _norm(v, order):
    return numpy.abs(v).sum() if order == 1 else numpy.sqrt((v**2).sum())


def _reference(emb, labels, order, alpha, beta, gamma):
    emb = emb.astype(numpy.float64)
    batch = emb.shape[0]
    means = numpy.zeros((DIM, batch, DIM))
    variance = 0.0
    for c, b in itertools.product(range(DIM), range(batch)):
        pixels = emb[b].reshape(DIM, -1).T[labels[b].ravel() == c + 1]
        if len(pixels) == 0:
            continue
        means[c, b] = pixels.mean(axis=0)
        pulls = [max(0.0, _norm(means[c, b] - p, order) - DELTA_V) ** 2 for p in pixels]
        variance += numpy.sum(pulls) / len(pixels)
    variance /= DIM
    distance = 0.0
    for a, c in itertools.combinations(range(DIM), 2):
        for b in range(batch):
            distance += max(0.0, 2 * DELTA_D - _norm(means[a, b] - means[c, b], order)) ** 2
    distance /= DIM * (DIM - 1) // 2 * batch
    regularization = sum(_norm(means[c], order) for c in range(DIM)) / (DIM * batch)
    return alpha * variance, beta * distance, gamma * regularization


@testing.parameterize(
    *testing.product(
        {"dtype": [numpy.float32, numpy.float64], "norm": [1, 2], "weights": [(1, 1, 1e-3)]}
    ),
    {"dtype": numpy.float16, "norm": 1, "weights": (1, 1, 1e-3)},
    {"dtype": numpy.float64, "norm": 2, "weights": (0.5, 2.0, 0.1)},
)
@testing.fix_random()
@testing.inject_backend_tests(None, [{}])
class TestDiscriminativeLoss(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)
        self.labels = numpy.random.randint(0, DIM + 1, (2, 3, 3)).astype(numpy.int32)
        self.labels[1] = 0  # an image with no instance at all
        self.labels[1, 0, 0] = 2

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (2, DIM, 3, 3)).astype(self.dtype),)

    def forward(self, inputs, device):
        return F.discriminative_margin_based_clustering_loss(
            inputs[0], self.labels, DELTA_V, DELTA_D, DIM, self.norm, *self.weights
        )

    def forward_expected(self, inputs):
        terms = _reference(inputs[0], self.labels, self.norm, *self.weights)
        return tuple(numpy.asarray(term, self.dtype) for term in terms)


def test_bad_arguments_raise():
    emb = numpy.zeros((1, DIM, 2, 2), numpy.float32)
    labels = numpy.zeros((1, 2, 2), numpy.int32)
    loss = F.discriminative_margin_based_clustering_loss
    with pytest.raises(ValueError, match="norm must be 1 or 2 .* got 3"):
        loss(emb, labels, DELTA_V, DELTA_D, DIM, norm=3)
    with pytest.raises(ValueError, match="max_embedding_dim must be positive, got 0"):
        loss(emb, labels, DELTA_V, DELTA_D, 0)
    with pytest.raises(ValueError, match=r"embeddings must have shape \(B, 4, H, W\)"):
        loss(emb, labels, DELTA_V, DELTA_D, 4)
    with pytest.raises(ValueError, match=r"labels must have shape \(1, 2, 2\), got \(2, 2\)"):
        loss(emb, labels[0], DELTA_V, DELTA_D, DIM)
