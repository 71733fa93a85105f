"""The RNN language model of the docs' "Recurrent Nets and their Computational Graph"."""

import numpy
import pytest

import chainer
import chainer.links as L
from chainer import Chain, Variable


class RNN(Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(1000, 100)  # word embedding
            self.mid = L.LSTM(100, 50)  # the first LSTM layer
            self.out = L.Linear(50, 1000)  # the feed-forward output layer

    def reset_state(self):
        self.mid.reset_state()

    def forward(self, cur_word):
        # Given the current word ID, predict the next word.
        x = self.embed(cur_word)
        h = self.mid(x)
        y = self.out(h)
        return y


def _words(length=6, batch=4, seed=0):
    rng = numpy.random.RandomState(seed)
    return [Variable(rng.randint(0, 1000, size=batch).astype(numpy.int32)) for _ in range(length)]


def _compute_loss(model, x_list):
    loss = 0
    for cur_word, next_word in zip(x_list, x_list[1:]):
        loss += model(cur_word, next_word)
    return loss


def test_one_lstm_step_as_in_the_text():
    l = L.LSTM(100, 50)  # noqa: E741  (the docs' name)
    l.reset_state()
    x = Variable(numpy.random.randn(10, 100).astype(numpy.float32))
    y = l(x)
    x2 = Variable(numpy.random.randn(10, 100).astype(numpy.float32))
    y2 = l(x2)
    assert y.shape == y2.shape == (10, 50)
    assert y2.creator is not None and l.h is y2


def test_full_backprop_reaches_every_parameter_and_lowers_the_loss():
    rnn = RNN()
    model = L.Classifier(rnn)
    x_list = _words()
    losses = []
    for _ in range(3):
        rnn.reset_state()
        model.cleargrads()
        loss = _compute_loss(model, x_list)
        loss.backward()
        for name, param in model.namedparams():
            assert param.grad is not None, name
            param.array -= 0.5 * param.grad
        losses.append(float(loss.array))
    assert losses[-1] < losses[0]
    # The embedding of a word that never occurs gets no gradient.
    unused = sorted(set(range(1000)) - {int(w) for x in x_list for w in x.array})[0]
    numpy.testing.assert_array_equal(rnn.embed.W.grad[unused], 0)


def test_truncated_backprop_unchains_the_history_but_keeps_the_state():
    rnn = RNN()
    model = L.Classifier(rnn)
    x_list = _words(length=7)
    rnn.reset_state()
    loss, count, seqlen = 0, 0, len(x_list[1:])
    for cur_word, next_word in zip(x_list, x_list[1:]):
        loss += model(cur_word, next_word)
        count += 1
        if count % 3 == 0 or count == seqlen:
            model.cleargrads()
            loss.backward()
            loss.unchain_backward()
            assert loss.creator is None
            assert rnn.mid.h is not None  # the state survives the truncation
    assert count == 6


def test_evaluation_without_history():
    rnn = RNN()
    model = L.Classifier(rnn)
    rnn.reset_state()
    with chainer.no_backprop_mode():
        loss = _compute_loss(model, _words())
    assert loss.creator is None and numpy.isfinite(float(loss.array))


def test_with_the_sgd_optimizer():
    optimizers = pytest.importorskip("chainer.optimizers")
    rnn = RNN()
    model = L.Classifier(rnn)
    optimizer = optimizers.SGD()
    optimizer.setup(model)
    x_list = _words()
    before = rnn.mid.upward.W.array.copy()
    rnn.reset_state()
    optimizer.update(lambda xs: _compute_loss(model, xs), x_list)
    assert not numpy.array_equal(before, rnn.mid.upward.W.array)
