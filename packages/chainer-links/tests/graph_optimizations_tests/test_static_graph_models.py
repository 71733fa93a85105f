"""@static_graph on the models of the docs: MLP, dropout, batch normalization, RNN loops.

Each static model is compared with the same model run define-by-run (same parameters, same
random numbers): values, input gradients and parameter gradients must be identical.
"""

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import gradient_check, static_graph


class MLP(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, 6)
            self.l2 = L.Linear(None, 6)
            self.l3 = L.Linear(None, 3)

    def forward(self, x):
        return self.l3(F.relu(self.l2(F.relu(self.l1(x)))))


class DropoutMLP(MLP):
    def forward(self, x):
        return self.l3(F.dropout(F.relu(self.l2(F.dropout(F.relu(self.l1(x)), 0.3))), 0.3))


class BNNet(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(4, 5)
            self.bn = L.BatchNormalization(5)

    def forward(self, x):
        return F.relu(self.bn(self.l1(x)))


class RNN(chainer.Chain):
    """An RNN unrolled inside the chain over a list of inputs."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.x2h = L.Linear(4, 5)
            self.h2h = L.Linear(5, 5, nobias=True)
            self.out = L.Linear(5, 2)

    def forward(self, xs, h):
        for x in xs:
            h = F.tanh(self.x2h(x) + self.h2h(h))
        return self.out(h), h


def _static(cls):
    return type(f"Static{cls.__name__}", (cls,), {"forward": static_graph(cls.forward)})


def _train_step(model, args, seed):
    numpy.random.seed(seed)
    outputs = model(*args)
    if isinstance(outputs, tuple):
        outputs = outputs[0]
    loss = F.sum(outputs * outputs)
    model.cleargrads()
    loss.backward()
    for p in model.params():
        p.array -= 0.05 * p.grad
    return outputs


def _assert_same(plain, static, out_plain, out_static, inputs_plain, inputs_static):
    numpy.testing.assert_array_equal(out_static.array, out_plain.array)
    for a, b in zip(inputs_plain, inputs_static):
        numpy.testing.assert_array_equal(b.grad, a.grad)
    for (name, p), (_, q) in zip(plain.namedparams(), static.namedparams()):
        numpy.testing.assert_array_equal(q.array, p.array, err_msg=name)


@pytest.mark.parametrize("cls", [MLP, DropoutMLP, BNNet])
def test_training_matches_define_by_run(cls):
    rng = numpy.random.default_rng(0)
    plain, static = cls(), _static(cls)()
    with chainer.no_backprop_mode():
        plain(rng.standard_normal((4, 4)).astype(numpy.float32))
    static.copyparams(plain)
    for it in range(4):
        x = rng.standard_normal((4, 4)).astype(numpy.float32)
        xp, xs = chainer.Variable(x), chainer.Variable(x.copy())
        yp, ys = _train_step(plain, (xp,), it), _train_step(static, (xs,), it)
        _assert_same(plain, static, yp, ys, [xp], [xs])
    assert sum(len(s) for s in static.schedule_manager.schedules.values()) == 1
    if cls is BNNet:
        numpy.testing.assert_array_equal(static.bn.avg_mean, plain.bn.avg_mean)
        numpy.testing.assert_array_equal(static.bn.avg_var, plain.bn.avg_var)
        with chainer.using_config("train", False), chainer.no_backprop_mode():
            numpy.testing.assert_array_equal(static(x).array, plain(x).array)


def test_dropout_draws_a_new_mask_on_every_replay():
    model = _static(DropoutMLP)()
    x = numpy.ones((1, 8), numpy.float32)
    with chainer.no_backprop_mode():
        outputs = {model(x).array.tobytes() for _ in range(6)}
    assert len(outputs) > 1
    with chainer.using_config("train", False), chainer.no_backprop_mode():
        outputs = {model(x).array.tobytes() for _ in range(3)}
    assert len(outputs) == 1


def test_rnn_loop_inside_the_chain_matches_define_by_run():
    rng = numpy.random.default_rng(1)
    plain, static = RNN(), _static(RNN)()
    static.copyparams(plain)
    for it in range(3):
        xs = [rng.standard_normal((2, 4)).astype(numpy.float32) for _ in range(3)]
        h0 = rng.standard_normal((2, 5)).astype(numpy.float32)
        vp = [chainer.Variable(x) for x in xs] + [chainer.Variable(h0)]
        vs = [chainer.Variable(x.copy()) for x in xs] + [chainer.Variable(h0.copy())]
        yp = _train_step(plain, (vp[:3], vp[3]), it)
        ys = _train_step(static, (vs[:3], vs[3]), it)
        _assert_same(plain, static, yp, ys, vp, vs)


def test_static_cell_called_in_a_python_loop_matches_define_by_run():
    """A static chain called several times per iteration (one schedule per call)."""

    class Cell(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.x2h = L.Linear(3, 4)
                self.h2h = L.Linear(4, 4)

        def forward(self, x, h):
            return F.tanh(self.x2h(x) + self.h2h(h))

    rng = numpy.random.default_rng(2)
    plain, static = Cell(), _static(Cell)()
    static.copyparams(plain)
    for _ in range(3):
        xs = [rng.standard_normal((1, 3)).astype(numpy.float32) for _ in range(4)]
        losses = []
        for model in (plain, static):
            h = chainer.Variable(numpy.zeros((1, 4), numpy.float32))
            for x in xs:
                h = model(x, h)
            loss = F.sum(h * h)
            model.cleargrads()
            loss.backward()
            losses.append(loss.array)
        numpy.testing.assert_array_equal(losses[1], losses[0])
        for p, q in zip(plain.params(), static.params()):
            numpy.testing.assert_array_equal(q.grad, p.grad)
    assert sum(len(s) for s in static.schedule_manager.schedules.values()) == 4


@pytest.mark.parametrize("cls", [MLP, BNNet])
def test_gradients_of_static_models(cls):
    rng = numpy.random.default_rng(3)
    model = _static(cls)()
    x = rng.standard_normal((4, 4))
    model.to_device("@numpy")
    with chainer.no_backprop_mode():
        model(x.astype(numpy.float32))
    for p in model.params():
        p.array = p.array.astype(numpy.float64)
    for name in ("avg_mean", "avg_var"):
        if hasattr(model, "bn"):
            setattr(model.bn, name, getattr(model.bn, name).astype(numpy.float64))
    gy = rng.standard_normal(model(x).shape)
    with chainer.using_config("train", False):
        gradient_check.check_backward(model, x, gy, tuple(model.params()), eps=1e-6)


@pytest.mark.parametrize("batch", [1, 5])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_and_relu_replay_kernels_write_what_forward_returns(batch, bias):
    from chainer.functions.activation.relu import ReLU
    from chainer.functions.connection.linear import LinearFunction

    rng = numpy.random.default_rng(4)
    x = rng.standard_normal((batch, 7)).astype(numpy.float32)
    W = rng.standard_normal((6, 7)).astype(numpy.float32)
    b = rng.standard_normal(6).astype(numpy.float32)
    inputs = (x, W, b) if bias else (x, W)
    y = numpy.full((batch, 6), numpy.nan, numpy.float32)
    LinearFunction()._static_kernel(inputs, (y,))()
    numpy.testing.assert_array_equal(y, LinearFunction().forward(inputs)[0])
    r = numpy.full_like(y, numpy.nan)
    ReLU()._static_kernel((y,), (r,))()
    numpy.testing.assert_array_equal(r, ReLU().forward((y,))[0])


def test_replay_kernels_decline_what_they_cannot_write():
    from chainer.functions.activation.relu import ReLU
    from chainer.functions.connection.linear import LinearFunction

    x, W = numpy.ones((2, 3), numpy.float32), numpy.ones((4, 3), numpy.float32)
    assert LinearFunction()._static_kernel((x, W.astype(numpy.float64)), (x @ W.T,)) is None
    assert LinearFunction()._static_kernel((x, W), (numpy.ones((4, 2), numpy.float32).T,)) is None
    assert ReLU()._static_kernel((x,), (x,)) is None  # in place: not what forward does
    assert ReLU()._static_kernel((x,), (x.astype(numpy.float64),)) is None


def test_linear_gradient_replay_forwards_equal_forward():
    from chainer.functions.connection.linear import LinearGradData, LinearGradWeight

    rng = numpy.random.default_rng(5)
    x = rng.standard_normal((3, 7)).astype(numpy.float32)
    W = rng.standard_normal((6, 7)).astype(numpy.float32)
    gy = rng.standard_normal((3, 6)).astype(numpy.float32)
    for node, inputs in [(LinearGradData(), (W, gy)), (LinearGradWeight(W.dtype), (x, gy))]:
        (expected,) = node.forward(inputs)
        (actual,) = node._static_forward()(inputs)
        numpy.testing.assert_array_equal(actual, expected)
        assert actual.dtype == expected.dtype
