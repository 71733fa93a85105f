"""softmax_cross_entropy: every option against a per-element NumPy reference."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.loss.softmax_cross_entropy import SoftmaxCrossEntropy
from chainer.utils import type_check

from ..backend_configs import CPU_AND_CHAINERX
from ..chainerx_native import forbid_fallback, to_chainerx, to_numpy
from .conftest import FLOAT_DTYPES, log_softmax, loosen_for_float16


def _reference(x, t, class_weight=None, ignore_label=-1, reduce="mean", normalize=True):
    """Loop over label positions: -w[t] * log_softmax(x)[t], zero where ignored."""
    log_y = numpy.moveaxis(log_softmax(x), 1, -1)
    loss = numpy.zeros(t.shape)
    count = 0
    for index in numpy.ndindex(*t.shape):
        label = int(t[index])
        if label == ignore_label:
            continue
        weight = 1.0 if class_weight is None else float(class_weight[label])
        loss[index] = -weight * log_y[index + (label,)]
        count += 1
    if reduce == "no":
        return loss.astype(x.dtype)
    denominator = count if normalize else len(x)
    return numpy.asarray(loss.sum() / max(denominator, 1), dtype=x.dtype)


def _labels(shape, n_class, ignore_label, with_ignored):
    t = numpy.random.randint(0, n_class, shape).astype(numpy.int32)
    if with_ignored and t.size:
        t.flat[:: max(t.size // 2, 1)] = ignore_label
    return t


@testing.parameterize(
    *testing.product(
        {
            "shape": [(4, 3), (3, 4, 2), (2, 3, 2, 2)],
            "dtype": FLOAT_DTYPES,
            "reduce": ["mean", "no"],
            "weighted": [False, True],
            "ignored": [False, True],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestSoftmaxCrossEntropy(testing.FunctionTestCase):
    normalize = True
    cache_score = True

    def setUp(self):
        loosen_for_float16(self)
        n_class = self.shape[1]
        self.t = _labels((self.shape[0],) + self.shape[2:], n_class, -1, self.ignored)
        self.class_weight = (
            numpy.random.uniform(0.5, 2, n_class).astype(self.dtype) if self.weighted else None
        )

    def generate_inputs(self):
        return (numpy.random.uniform(-2, 2, self.shape).astype(self.dtype), self.t)

    def forward(self, inputs, device):
        x, t = inputs
        loss = F.softmax_cross_entropy(
            x,
            t,
            normalize=self.normalize,
            cache_score=self.cache_score,
            class_weight=self.class_weight,
            reduce=self.reduce,
        )
        return (loss,)

    def forward_expected(self, inputs):
        x, t = inputs
        return (_reference(x, t, self.class_weight, -1, self.reduce, self.normalize),)


@testing.parameterize(
    *testing.product(
        {"normalize": [True, False], "cache_score": [True, False], "ignore_label": [-1, 2]}
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestSoftmaxCrossEntropyOptions(testing.FunctionTestCase):
    dtype = numpy.float64

    def setUp(self):
        self.t = numpy.array([0, 2, 1, 2, self.ignore_label], numpy.int32)

    def generate_inputs(self):
        return (numpy.random.uniform(-2, 2, (5, 3)), self.t)

    def forward(self, inputs, device):
        x, t = inputs
        loss = F.softmax_cross_entropy(
            x,
            t,
            normalize=self.normalize,
            cache_score=self.cache_score,
            ignore_label=self.ignore_label,
        )
        return (loss,)

    def forward_expected(self, inputs):
        x, t = inputs
        return (_reference(x, t, None, self.ignore_label, "mean", self.normalize),)


@testing.parameterize(
    *testing.product(
        {
            "shape": [(4, 3), (2, 3, 2)],
            "dtype": FLOAT_DTYPES,
            "reduce": ["mean", "no"],
            "soft_target_loss": ["cross-entropy", "kl-divergence"],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, CPU_AND_CHAINERX)
class TestSoftmaxCrossEntropySoftTarget(testing.FunctionTestCase):
    def setUp(self):
        loosen_for_float16(self)
        target = numpy.random.uniform(0, 1, self.shape)
        target[0] = 0  # a zero probability: finite in the KL divergence
        target.reshape(self.shape[0], self.shape[1], -1)[0, 0] = 1
        self.target = (target / target.sum(axis=1, keepdims=True)).astype(self.dtype)

    def generate_inputs(self):
        return (numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        target = device.send(self.target)
        loss = F.softmax_cross_entropy(
            inputs[0], target, reduce=self.reduce, soft_target_loss=self.soft_target_loss
        )
        return (loss,)

    def forward_expected(self, inputs):
        t = self.target.astype(numpy.float64)
        loss = -(t * log_softmax(inputs[0])).sum(axis=1)
        if self.soft_target_loss == "kl-divergence":
            loss += (t * numpy.log(t + 1e-7)).sum(axis=1)
        if self.reduce == "mean":
            loss = numpy.asarray(loss.mean())
        return (loss.astype(self.dtype),)


def test_soft_targets_that_do_not_sum_to_one_get_the_true_gradient():
    x = chainer.Variable(numpy.array([[0.5, -1.0, 2.0]]))
    t = numpy.array([[0.5, 1.0, 0.0]])
    F.softmax_cross_entropy(x, t).backward()
    y = numpy.exp(log_softmax(x.array))
    numpy.testing.assert_allclose(x.grad, y * t.sum() - t)


@pytest.mark.parametrize("reduce", ["mean", "no"])
def test_empty_batch(reduce):
    x = chainer.Variable(numpy.zeros((0, 3), numpy.float32))
    loss = F.softmax_cross_entropy(x, numpy.zeros((0,), numpy.int32), reduce=reduce)
    assert loss.shape == (() if reduce == "mean" else (0,))
    numpy.testing.assert_array_equal(loss.array, 0 if reduce == "mean" else [])
    if reduce == "mean":
        loss.backward()
        assert x.grad.shape == (0, 3)


@testing.fix_random()
def test_every_label_ignored_gives_zero_loss_and_gradient():
    x = chainer.Variable(numpy.random.randn(3, 4).astype(numpy.float32))
    loss = F.softmax_cross_entropy(x, numpy.full(3, -1, numpy.int32))
    loss.backward()
    assert float(loss.array) == 0
    numpy.testing.assert_array_equal(x.grad, numpy.zeros((3, 4)))


def test_large_scores_stay_finite():
    for dtype in FLOAT_DTYPES:
        x = numpy.array([[60000.0, 0.0], [0.0, -60000.0]], dtype)
        loss = F.softmax_cross_entropy(x, numpy.array([1, 0], numpy.int32), reduce="no")
        numpy.testing.assert_allclose(loss.array, [60000.0, 0.0], rtol=1e-3)


@testing.fix_random()
def test_enable_double_backprop_gives_the_same_gradients():
    x = numpy.random.randn(4, 3)
    t = numpy.array([0, 2, -1, 1], numpy.int32)
    grads = []
    for flag in (False, True):
        xv = chainer.Variable(x)
        loss = F.softmax_cross_entropy(xv, t, enable_double_backprop=flag)
        (gx,) = chainer.grad([loss], [xv], enable_double_backprop=True)
        (ggx,) = chainer.grad([F.sum(gx * gx)], [xv])
        grads.append((loss.array, gx.array, ggx.array))
    for a, b in zip(*grads):
        numpy.testing.assert_allclose(a, b)


@testing.fix_random()
def test_gradient_through_a_variable_label_is_none():
    x = chainer.Variable(numpy.random.randn(2, 3))
    t = chainer.Variable(numpy.array([1, 0], numpy.int32))
    F.softmax_cross_entropy(x, t).backward()
    assert x.grad is not None and t.grad is None


@pytest.mark.parametrize("bad", [3, -2])
def test_label_out_of_range_is_named(bad):
    t = numpy.array([0, bad], numpy.int32)
    with pytest.raises(ValueError, match=rf"\[0, 3\) or equal ignore_label=-1.*got {bad}"):
        F.softmax_cross_entropy(numpy.zeros((2, 3), numpy.float32), t)


def test_label_out_of_range_with_no_ignored_labels_is_named():
    t = numpy.array([[0, 1], [1, 5]], numpy.int32)
    with pytest.raises(ValueError, match="got 5"):
        F.softmax_cross_entropy(numpy.zeros((2, 3, 2), numpy.float32), t)


def test_bad_options_raise():
    x = numpy.zeros((2, 3), numpy.float32)
    t = numpy.zeros(2, numpy.int32)
    with pytest.raises(ValueError, match="only 'mean' and 'no' are valid for 'reduce', but 'sum'"):
        F.softmax_cross_entropy(x, t, reduce="sum")
    with pytest.raises(ValueError, match="soft_target_loss must be .* got 'l2'"):
        F.softmax_cross_entropy(x, t, soft_target_loss="l2")
    with pytest.raises(ValueError, match="class_weight must be a numpy.ndarray or cupy.ndarray"):
        F.softmax_cross_entropy(x, t, class_weight=chainer.Variable(numpy.ones(3, numpy.float32)))
    with pytest.raises(ValueError, match=r"class_weight must be a 1-D array, got shape \(1, 3\)"):
        F.softmax_cross_entropy(x, t, class_weight=numpy.ones((1, 3), numpy.float32))
    with pytest.raises(ValueError, match="class_weight must have a floating dtype, got int32"):
        F.softmax_cross_entropy(x, t, class_weight=numpy.ones(3, numpy.int32))
    with pytest.raises(ValueError, match=r"one weight per class \(3\), got shape \(4,\)"):
        F.softmax_cross_entropy(x, t, class_weight=numpy.ones(4, numpy.float32))


def test_bad_types_raise_invalid_type():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r"SoftmaxCrossEntropy[\s\S]*x.dtype.kind"):
        F.softmax_cross_entropy(x.astype(numpy.int32), numpy.zeros(2, numpy.int32))
    with pytest.raises(type_check.InvalidType, match=r"t.ndim == x.ndim - 1"):
        F.softmax_cross_entropy(x, numpy.zeros((2, 3), numpy.int32))
    with pytest.raises(type_check.InvalidType, match=r"x.shape\[0\] == t.shape\[0\]"):
        F.softmax_cross_entropy(x, numpy.zeros(3, numpy.int32))
    with pytest.raises(type_check.InvalidType, match=r"x.shape == t.shape"):
        F.softmax_cross_entropy(x, numpy.zeros((2, 4), numpy.float32))
    with pytest.raises(type_check.InvalidType, match=r"t.dtype.kind == i"):
        F.softmax_cross_entropy(x, numpy.zeros(2, bool))


@pytest.mark.parametrize("cache_score", [True, False])
def test_node_exposes_the_cached_softmax_in_the_scores_layout(cache_score):
    x = chainer.Variable(numpy.random.uniform(-1, 1, (2, 3, 4)).astype(numpy.float32))
    t = numpy.array([[0, 1, 2, 1], [2, 2, 0, 1]], numpy.int32)
    loss = F.softmax_cross_entropy(x, t, cache_score=cache_score)
    if not cache_score:
        assert loss.creator.y is None
        return
    e = numpy.exp(x.array - x.array.max(axis=1, keepdims=True))
    numpy.testing.assert_allclose(loss.creator.y, e / e.sum(axis=1, keepdims=True), rtol=1e-5)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("reduce", ["mean", "no"])
@pytest.mark.parametrize("shape", [(5, 3), (2, 3, 2)])
def test_chainerx_labels_are_computed_natively(monkeypatch, dtype, reduce, shape):
    forbid_fallback(monkeypatch, SoftmaxCrossEntropy)
    x = numpy.random.uniform(-2, 2, shape).astype(dtype)
    t = _labels((shape[0],) + shape[2:], shape[1], 2, True)
    weight = numpy.random.uniform(0.5, 2, shape[1]).astype(dtype)
    loss = F.softmax_cross_entropy(
        *to_chainerx(x, t), class_weight=weight, ignore_label=2, reduce=reduce
    )
    assert loss.dtype == dtype
    expected = _reference(x, t, weight, 2, reduce)
    tol = 5e-3 if dtype == numpy.float16 else 1e-6
    numpy.testing.assert_allclose(to_numpy(loss), expected, rtol=tol, atol=tol)


def test_chainerx_label_out_of_range_is_a_value_error():
    x, t = to_chainerx(numpy.zeros((2, 3), numpy.float32), numpy.array([0, 3], numpy.int32))
    with pytest.raises(ValueError, match=r"labels t must lie in \[0, 3\)"):
        F.softmax_cross_entropy(x, t)


@pytest.mark.parametrize("dtype", FLOAT_DTYPES)
@pytest.mark.parametrize("reduce", ["mean", "no"])
@pytest.mark.parametrize("soft_target_loss", ["cross-entropy", "kl-divergence"])
def test_chainerx_soft_targets_are_computed_natively(monkeypatch, dtype, reduce, soft_target_loss):
    x = numpy.random.uniform(-2, 2, (2, 3, 2)).astype(dtype)
    t = numpy.random.dirichlet(numpy.ones(3), (2, 2)).transpose(0, 2, 1).astype(dtype)
    options = {"reduce": reduce, "soft_target_loss": soft_target_loss}
    expected = F.softmax_cross_entropy(x, t, **options)
    forbid_fallback(monkeypatch, SoftmaxCrossEntropy)
    loss = F.softmax_cross_entropy(*to_chainerx(x, t), **options)
    assert loss.dtype == dtype and loss.shape == expected.shape
    tol = 5e-3 if dtype == numpy.float16 else 1e-6
    numpy.testing.assert_allclose(to_numpy(loss), expected.array, rtol=tol, atol=tol)


def test_chainerx_soft_targets_get_no_gradient():
    x, t = (
        chainer.Variable(a) for a in to_chainerx(numpy.zeros((2, 3)), numpy.full((2, 3), 1 / 3))
    )
    F.softmax_cross_entropy(x, t).backward()
    # (without the stop it would be -log(1/3) everywhere)
    assert t.grad is None or not to_numpy(t.grad).any()
    numpy.testing.assert_allclose(to_numpy(x.grad), numpy.zeros((2, 3)), atol=1e-12)
