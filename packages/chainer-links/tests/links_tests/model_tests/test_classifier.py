"""Classifier: loss and accuracy of a predictor, reported; label selection; errors."""

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L


class _Shift(chainer.Link):
    """A predictor taking a keyword argument, to check how arguments are passed."""

    def forward(self, x, shift=0.0):
        return F.identity(x) + shift


def _logits():
    return numpy.array([[2.0, 0.5, 0.1], [0.1, 0.2, 3.0], [1.0, 2.0, 0.0]], numpy.float32)


def _softmax_cross_entropy(y, t):
    log_p = y - numpy.log(numpy.exp(y).sum(axis=1, keepdims=True))
    return -log_p[numpy.arange(len(t)), t].mean()


def test_loss_and_accuracy_are_computed_and_reported():
    model = L.Classifier(_Shift())
    x, t = _logits(), numpy.array([0, 2, 0], numpy.int32)
    reporter = chainer.Reporter()
    reporter.add_observer("main", model)
    observation = {}
    with reporter.scope(observation):
        loss = model(x, t)
    assert loss is model.loss
    numpy.testing.assert_allclose(loss.array, _softmax_cross_entropy(x, t), rtol=1e-6)
    numpy.testing.assert_allclose(model.accuracy.array, 2 / 3, rtol=1e-6)
    numpy.testing.assert_array_equal(model.y.array, x)
    assert set(observation) == {"main/loss", "main/accuracy"}
    assert float(observation["main/loss"].array) == float(loss.array)


def test_compute_accuracy_can_be_switched_off():
    model = L.Classifier(_Shift())
    model.compute_accuracy = False
    reporter = chainer.Reporter()
    reporter.add_observer("main", model)
    observation = {}
    with reporter.scope(observation):
        model(_logits(), numpy.array([0, 1, 2], numpy.int32))
    assert model.accuracy is None and set(observation) == {"main/loss"}


def test_label_key_by_position_and_by_name():
    x, t = _logits(), numpy.array([1, 1, 1], numpy.int32)
    first = L.Classifier(_Shift(), label_key=0)
    numpy.testing.assert_allclose(first(t, x).array, _softmax_cross_entropy(x, t), rtol=1e-6)
    named = L.Classifier(_Shift(), label_key="t")
    loss = named(x, t=t, shift=1.0)
    numpy.testing.assert_allclose(loss.array, _softmax_cross_entropy(x + 1, t), rtol=1e-6)


def test_custom_loss_and_accuracy_functions():
    model = L.Classifier(_Shift(), lossfun=F.sigmoid_cross_entropy, accfun=F.binary_accuracy)
    y = numpy.array([[2.0], [-1.0]], numpy.float32)
    t = numpy.array([[1], [1]], numpy.int32)
    expected = numpy.mean(numpy.logaddexp(0, -y))
    numpy.testing.assert_allclose(model(y, t).array, expected, rtol=1e-6)
    numpy.testing.assert_allclose(model.accuracy.array, 0.5)


def test_defaults_and_child_registration():
    model = L.Classifier(L.Linear(3, 2))
    assert model.lossfun is F.softmax_cross_entropy and model.accfun is F.accuracy
    assert model.label_key == -1
    assert [name for name, _ in model.namedparams()] == ["/predictor/W", "/predictor/b"]


def test_errors():
    with pytest.raises(TypeError, match="label_key must be int or str, but is float"):
        L.Classifier(_Shift(), label_key=1.5)
    with pytest.raises(ValueError, match="Label key 2 is out of bounds"):
        L.Classifier(_Shift(), label_key=2)(_logits(), numpy.zeros(3, numpy.int32))
    with pytest.raises(ValueError, match='Label key "t" is not found'):
        L.Classifier(_Shift(), label_key="t")(_logits())
