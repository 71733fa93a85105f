"""BatchNormalization: batch statistics in training, running averages in evaluation,
fine-tuning, lazy shapes from axis, options and errors."""

import io

import numpy
import pytest

import chainer
import chainer.links as L
from chainer import serializers, testing


def _uniform(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


def bn_reference(x, gamma, beta, axes, eps=2e-5):
    mean = x.mean(axis=axes, keepdims=True)
    var = x.var(axis=axes, keepdims=True)
    keep = [d for i, d in enumerate(x.shape) if i not in axes]
    shape = [1 if i in axes else d for i, d in enumerate(x.shape)]
    assert list(gamma.shape) == keep
    return gamma.reshape(shape) * (x - mean) / numpy.sqrt(var + eps) + beta.reshape(shape)


@testing.parameterize(
    {"x_shape": (5, 3), "size": 3, "axis": None, "axes": (0,)},
    {"x_shape": (4, 3, 2, 2), "size": 3, "axis": None, "axes": (0, 2, 3)},
    {"x_shape": (4, 3, 2), "size": None, "axis": 0, "axes": (0,)},
    {"x_shape": (4, 3, 2), "size": None, "axis": (0, 2), "axes": (0, 2)},
)
@testing.inject_backend_tests(None, [{}])
class TestBatchNormalization(testing.LinkTestCase):
    param_names = ("gamma", "beta")
    check_backward_options = {"atol": 1e-3, "rtol": 1e-2}

    def generate_params(self):
        shape = [d for i, d in enumerate(self.x_shape) if i not in self.axes]
        self.gamma = _uniform(*shape) + 1.5
        self.beta = _uniform(*shape)
        return self.gamma, self.beta

    def create_link(self, initializers):
        gamma, beta = initializers
        return L.BatchNormalization(
            self.size, axis=self.axis, initial_gamma=gamma, initial_beta=beta
        )

    def generate_inputs(self):
        return (_uniform(*self.x_shape),)

    def forward_expected(self, link, inputs):
        x = inputs[0].astype(numpy.float64)
        return (bn_reference(x, self.gamma, self.beta, self.axes).astype(numpy.float32),)


def test_training_updates_the_running_averages():
    link = L.BatchNormalization(3, decay=0.8)
    x = _uniform(6, 3, 2)
    link(x)
    mean = x.mean(axis=(0, 2))
    unbiased = x.var(axis=(0, 2)) * 12 / 11
    numpy.testing.assert_allclose(link.avg_mean, 0.2 * mean, rtol=1e-5)
    numpy.testing.assert_allclose(link.avg_var, 0.8 + 0.2 * unbiased, rtol=1e-5)
    assert link.N == 0


def test_evaluation_uses_the_running_averages_and_leaves_them():
    link = L.BatchNormalization(
        2, eps=1e-3, initial_avg_mean=numpy.array([0.5, -1]), initial_avg_var=4.0
    )
    link.gamma.array[...] = [2, 3]
    link.beta.array[...] = [1, 0]
    x = _uniform(4, 2)
    with chainer.using_config("train", False):
        y = link(x).array
    expected = numpy.array([2, 3]) * (x - [0.5, -1]) / numpy.sqrt(4 + 1e-3) + [1, 0]
    numpy.testing.assert_allclose(y, expected, rtol=1e-5)
    numpy.testing.assert_array_equal(link.avg_mean, [0.5, -1])
    numpy.testing.assert_array_equal(link.avg_var, [4, 4])


def test_finetuning_averages_the_batch_statistics_exactly():
    link = L.BatchNormalization(2)
    link(_uniform(4, 2))
    link.start_finetuning()
    batches = [_uniform(4, 2) for _ in range(3)]
    for x in batches:
        link(x, finetune=True)
    assert link.N == 3
    means = numpy.mean([x.mean(axis=0) for x in batches], axis=0)
    variances = numpy.mean([x.var(axis=0) * 4 / 3 for x in batches], axis=0)
    numpy.testing.assert_allclose(link.avg_mean, means, rtol=1e-5)
    numpy.testing.assert_allclose(link.avg_var, variances, rtol=1e-5)
    link.start_finetuning()
    assert link.N == 0


def test_recomputation_leaves_the_statistics():
    link = L.BatchNormalization(2)
    with chainer.using_config("in_recomputing", True):
        link(_uniform(4, 2), finetune=True)
    numpy.testing.assert_array_equal(link.avg_mean, 0)
    numpy.testing.assert_array_equal(link.avg_var, 1)
    assert link.N == 0


def test_without_gamma_and_beta():
    link = L.BatchNormalization(3, use_gamma=False, use_beta=False)
    assert link.gamma is None and link.beta is None
    assert list(link.params()) == []
    x = _uniform(5, 3)
    numpy.testing.assert_allclose(
        link(x).array, bn_reference(x, numpy.ones(3), numpy.zeros(3), (0,)), rtol=1e-4, atol=1e-5
    )
    with chainer.using_config("train", False):
        assert link(x).shape == (5, 3)


def test_lazy_link_initializes_from_the_axes():
    link = L.BatchNormalization(axis=0, initial_gamma=2.0, initial_avg_var=3.0)
    assert link.avg_mean is None and link.gamma.array is None
    link(_uniform(4, 3, 2))
    assert link.gamma.shape == (3, 2) and link.avg_mean.shape == (3, 2)
    numpy.testing.assert_array_equal(link.gamma.array, 2)
    assert str(link).startswith("BatchNormalization(size=3, decay=0.9, eps=2e-05")


def test_dtype_and_mixed16():
    link = L.BatchNormalization(2, dtype=numpy.float64)
    assert link.gamma.dtype == link.avg_mean.dtype == numpy.float64
    mixed = L.BatchNormalization(2, dtype=chainer.mixed16)
    assert mixed.gamma.dtype == mixed.avg_var.dtype == numpy.float32
    assert mixed(_uniform(3, 2, dtype=numpy.float16)).dtype == numpy.float16


def test_caller_initializer_is_left_unchanged():
    init = chainer.initializers.Constant(2.0, dtype=numpy.float16)
    link = L.BatchNormalization(2, initial_gamma=init)
    assert link.gamma.dtype == numpy.float32 and init.dtype == numpy.float16


def test_file_of_a_lazy_link_keeps_the_statistics_of_a_sized_one():
    buffer = io.BytesIO()
    serializers.save_npz(buffer, L.BatchNormalization(axis=0))
    buffer.seek(0)
    link = L.BatchNormalization(2, initial_avg_mean=numpy.array([1.0, 2.0]))
    serializers.load_npz(buffer, link)
    numpy.testing.assert_array_equal(link.avg_mean, [1, 2])
    numpy.testing.assert_array_equal(link.gamma.array, [1, 1])


def test_errors():
    with pytest.raises(RuntimeError, match="BatchNormalization needs size or axis"):
        L.BatchNormalization()
    with pytest.raises(ValueError, match="test argument is not supported anymore"):
        L.BatchNormalization(2)(_uniform(3, 2), test=True)
    with pytest.raises(TypeError, match="unknown"):
        L.BatchNormalization(2)(_uniform(3, 2), unknown=True)
