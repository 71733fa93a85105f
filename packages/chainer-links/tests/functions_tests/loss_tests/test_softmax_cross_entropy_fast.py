"""softmax_cross_entropy's common case (2-D scores, labels, the mean) in fewer NumPy calls:
bitwise the general path's loss and state, and every other case left to the general path."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.loss.softmax_cross_entropy import SoftmaxCrossEntropy


def _scores(n, n_class, dtype, scale, seed=0):
    rng = numpy.random.RandomState(seed)
    x = (rng.randn(n, n_class) * scale).astype(dtype)
    if x.size > 2:
        x.flat[1] = -0.0
    return x, rng.randint(0, n_class, n).astype(numpy.int32)


def _same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _refuse(*args, **kwargs):
    raise AssertionError("this path must not run")


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
@pytest.mark.parametrize("n, n_class", [(0, 3), (1, 1), (1, 10), (2, 3), (8, 10), (33, 40)])
@pytest.mark.parametrize("scale", [1.0, 1e3])
@pytest.mark.parametrize("normalize, cache_score", [(True, True), (False, False)])
def test_common_case_is_bitwise_the_general_path(
    monkeypatch, dtype, n, n_class, scale, normalize, cache_score
):
    x, t = _scores(n, n_class, dtype, scale)
    general = SoftmaxCrossEntropy(normalize=normalize, cache_score=cache_score)
    (expected,) = general._forward_any(x, t)
    fast = SoftmaxCrossEntropy(normalize=normalize, cache_score=cache_score)
    monkeypatch.setattr(SoftmaxCrossEntropy, "_forward_any", _refuse)
    (loss,) = fast.forward((x, t))
    assert _same_bits(loss, expected)
    assert (fast._y is None) == (general._y is None)
    if cache_score:
        assert _same_bits(fast._y, general._y)
    assert _same_bits(fast._labels, general._labels)
    assert (fast._coeff, fast._count, fast._weight) == (general._coeff, general._count, None)
    assert fast._input_indexes_to_retain == (0,)


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_common_case_gradient_is_bitwise_the_general_paths(dtype):
    x, t = _scores(8, 10, dtype, 3.0)
    grads = []
    for ignore_label in (-1, 10**6):  # the second is out of the labels' range, not ignored
        xv = chainer.Variable(x.copy())
        F.softmax_cross_entropy(xv, t, ignore_label=ignore_label).backward()
        grads.append(xv.grad)
    # the general path, through a class weight of ones (multiplying by 1 is exact)
    xv = chainer.Variable(x.copy())
    F.softmax_cross_entropy(xv, t, class_weight=numpy.ones(10, dtype)).backward()
    assert _same_bits(grads[0], grads[1])
    assert _same_bits(grads[0], xv.grad)


def _general_cases():
    x, t = _scores(4, 3, numpy.float32, 1.0)
    ignored = t.copy()
    ignored[1] = -1
    return {
        "ignored label": (x, ignored, {}),
        "float16": (x.astype(numpy.float16), t, {}),
        "big-endian": (x.astype(">f4"), t, {}),
        "class weight": (x, t, {"class_weight": numpy.ones(3, numpy.float32)}),
        "no reduction": (x, t, {"reduce": "no"}),
        "rows layout": (x.reshape(2, 3, 2), t.reshape(2, 2), {}),
        "soft targets": (x, numpy.full((4, 3), 1 / 3, numpy.float32), {}),
    }


@pytest.mark.parametrize("case", sorted(_general_cases()))
def test_other_cases_take_the_general_path(monkeypatch, case):
    x, t, options = _general_cases()[case]
    expected = F.softmax_cross_entropy(x, t, **options).array
    monkeypatch.setattr(SoftmaxCrossEntropy, "_mean_of_labels", _refuse)
    assert _same_bits(F.softmax_cross_entropy(x, t, **options).array, expected)


def test_label_out_of_range_is_still_named():
    x, t = _scores(3, 4, numpy.float32, 1.0)
    t[2] = 4
    with pytest.raises(ValueError, match="got 4"):
        F.softmax_cross_entropy(x, t)
