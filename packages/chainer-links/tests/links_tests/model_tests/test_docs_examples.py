"""The models of the docs' "Chainer at a Glance" and convnet tutorial, on synthetic data."""

import numpy
import pytest

import chainer
import chainer as ch
import chainer.functions as F
import chainer.links as L


def MLP(n_units, n_out):
    layer = ch.Sequential(L.Linear(n_units), F.relu)
    model = layer.repeat(2)
    model.append(L.Linear(n_out))
    return model


def _mushrooms(n=60):
    # 22 categorical features coded as small integers, and a label that depends on them.
    rng = numpy.random.RandomState(0)
    X = rng.randint(0, 5, size=(n, 22)).astype(numpy.float32)
    Y = (X[:, 4] > 2).astype(numpy.int32)[:, None]
    return X, Y


def _sgd_step(model, lr=0.01):
    for param in model.params():
        param.array -= lr * param.grad


def test_glance_mlp_shapes_and_training_step():
    model = L.Classifier(MLP(44, 1), lossfun=F.sigmoid_cross_entropy, accfun=F.binary_accuracy)
    X, Y = _mushrooms()
    losses = []
    for _ in range(3):
        model.cleargrads()
        loss = model(X, Y)
        loss.backward()
        _sgd_step(model)
        losses.append(float(loss.array))
    # 44x22, 44x44 and 1x44, as the glance text says.
    shapes = [p.shape for name, p in sorted(model.namedparams()) if name.endswith("W")]
    assert shapes == [(44, 22), (44, 44), (1, 44)]
    assert losses[-1] < losses[0]
    assert 0 <= float(model.accuracy.array) <= 1
    predict = model.predictor(X[:1]).array
    assert predict.shape == (1, 1)


def test_glance_mlp_with_the_sgd_optimizer():
    optimizers = pytest.importorskip("chainer.optimizers")
    model = L.Classifier(MLP(8, 1), lossfun=F.sigmoid_cross_entropy, accfun=F.binary_accuracy)
    X, Y = _mushrooms()
    optimizer = optimizers.SGD().setup(model)
    model(X, Y)  # initializes the lazy parameters
    before = model.predictor[0][0].W.array.copy()
    optimizer.update(model, X, Y)
    assert not numpy.array_equal(before, model.predictor[0][0].W.array)


class LeNet5(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(in_channels=1, out_channels=6, ksize=5, stride=1)
            self.conv2 = L.Convolution2D(in_channels=6, out_channels=16, ksize=5, stride=1)
            self.conv3 = L.Convolution2D(in_channels=16, out_channels=120, ksize=4, stride=1)
            self.fc4 = L.Linear(None, 84)
            self.fc5 = L.Linear(84, 10)

    def forward(self, x):
        h = F.sigmoid(self.conv1(x))
        h = F.max_pooling_2d(h, 2, 2)
        h = F.sigmoid(self.conv2(h))
        h = F.max_pooling_2d(h, 2, 2)
        h = F.sigmoid(self.conv3(h))
        h = F.sigmoid(self.fc4(h))
        if chainer.config.train:
            return self.fc5(h)
        return F.softmax(self.fc5(h))


def test_lenet5_with_classifier():
    model = L.Classifier(LeNet5())
    x = numpy.random.rand(4, 1, 28, 28).astype(numpy.float32)
    t = numpy.random.randint(0, 10, size=(4,)).astype(numpy.int32)
    loss = model(x, t)
    loss.backward()
    assert model.predictor.fc4.W.shape == (84, 120)
    assert all(p.grad is not None for p in model.params())
    with chainer.using_config("train", False):
        y = model.predictor(x).array
    numpy.testing.assert_allclose(y.sum(axis=1), 1, rtol=1e-5)
