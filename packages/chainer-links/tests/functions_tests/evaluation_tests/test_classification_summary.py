"""classification_summary, precision, recall, f1_score: per-class counts in a loop."""

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _reference(y, t, label_num, beta, ignore_label):
    pred = numpy.moveaxis(y, 1, -1).reshape(-1, y.shape[1]).argmax(axis=1)
    true = t.ravel()
    if label_num is None:
        label_num = int(true[true != ignore_label].max()) + 1
    precision, recall, fbeta, support = [], [], [], []
    for c in range(label_num):
        kept = true != ignore_label
        tp = numpy.sum((pred == c) & (true == c) & kept)
        predicted = numpy.sum((pred == c) & kept)
        actual = numpy.sum((true == c) & kept)
        p = tp / predicted if predicted else numpy.nan
        r = tp / actual if actual else numpy.nan
        precision.append(p)
        recall.append(r)
        fbeta.append((1 + beta**2) * p * r / (beta**2 * p + r) if p + r else numpy.nan)
        support.append(actual)
    dtype = y.dtype
    return (
        numpy.array(precision, dtype),
        numpy.array(recall, dtype),
        numpy.array(fbeta, dtype),
        numpy.array(support, numpy.intp),
    )


@testing.parameterize(
    *testing.product(
        {
            "shapes": [((12, 3), (12,)), ((4, 3, 3), (4, 3))],
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "label_num": [None, 4],
            "beta": [1.0, 2.0],
        }
    )
)
@testing.fix_random()
@testing.inject_backend_tests(None, [{}])
class TestClassificationSummary(testing.FunctionTestCase):
    skip_backward_test = True
    skip_double_backward_test = True

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 1e-3, "rtol": 1e-3}

    def generate_inputs(self):
        y_shape, t_shape = self.shapes
        y = numpy.random.uniform(-1, 1, y_shape).astype(self.dtype)
        t = numpy.random.randint(0, 3, t_shape).astype(numpy.int32)
        t.flat[0] = -1
        t.flat[1] = 2  # the largest label is present
        return y, t

    def forward(self, inputs, device):
        y, t = inputs
        return F.classification_summary(y, t, self.label_num, self.beta)

    def forward_expected(self, inputs):
        y, t = inputs
        return _reference(y, t, self.label_num, self.beta, -1)


def test_summary_values_and_wrappers():
    y = numpy.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4], [0.3, 0.7]], numpy.float32)
    t = numpy.array([0, 1, 1, -1], numpy.int32)
    p, r, f, s = (v.array for v in F.classification_summary(y, t))
    numpy.testing.assert_allclose(p, [0.5, 1.0])
    numpy.testing.assert_allclose(r, [1.0, 0.5])
    numpy.testing.assert_allclose(f, [2 / 3, 2 / 3])
    numpy.testing.assert_array_equal(s, [1, 2])
    for func, expected in ((F.precision, p), (F.recall, r), (F.f1_score, f)):
        value, support = func(y, t)
        numpy.testing.assert_allclose(value.array, expected)
        numpy.testing.assert_array_equal(support.array, s)


def test_absent_class_is_nan_without_warning():
    y = numpy.array([[1.0, 0.0, 0.0]], numpy.float32)
    p, r, f, s = F.classification_summary(y, numpy.array([0], numpy.int32), label_num=3)
    numpy.testing.assert_array_equal(numpy.isnan(p.array), [False, True, True])
    numpy.testing.assert_array_equal(s.array, [1, 0, 0])


def test_label_beyond_label_num_raises():
    y = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match=r"\[0, 2\) \(label_num\).*got 2"):
        F.classification_summary(y, numpy.array([0, 2], numpy.int32), label_num=2)
    with pytest.raises(ValueError, match="label_num must be a non-negative int or None, got -1"):
        F.classification_summary(y, numpy.array([0, 1], numpy.int32), label_num=-1)


def test_bad_inputs_raise_invalid_type():
    with pytest.raises(type_check.InvalidType, match=r"ClassificationSummary[\s\S]*t.dtype"):
        F.classification_summary(numpy.zeros((2, 3), numpy.float32), numpy.zeros(2))
