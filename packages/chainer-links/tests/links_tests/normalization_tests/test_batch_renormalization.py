"""BatchRenormalization: r/d correction towards the running statistics."""

import numpy

import chainer
import chainer.links as L


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def test_training_output_is_corrected_by_r_and_d():
    link = L.BatchRenormalization(
        2,
        rmax=1.5,
        dmax=0.5,
        eps=1e-5,
        initial_avg_mean=numpy.array([0.2, -0.3]),
        initial_avg_var=numpy.array([0.5, 2.0]),
    )
    link.gamma.array[...] = [1.5, 0.5]
    link.beta.array[...] = [0.1, 0.2]
    x = _uniform(8, 2) * 2
    mean, std = x.mean(axis=0), numpy.sqrt(x.var(axis=0) + 1e-5)
    running_std = numpy.sqrt(numpy.array([0.5, 2.0]) + 1e-5)
    r = numpy.clip(std / running_std, 1 / 1.5, 1.5)
    d = numpy.clip((mean - [0.2, -0.3]) / running_std, -0.5, 0.5)
    expected = [1.5, 0.5] * ((x - mean) / std * r + d) + [0.1, 0.2]
    numpy.testing.assert_allclose(link(x).array, expected, rtol=1e-4, atol=1e-5)
    numpy.testing.assert_allclose(
        link.avg_mean, 0.9 * numpy.array([0.2, -0.3]) + 0.1 * mean, rtol=1e-5
    )


def test_without_correction_it_is_batch_normalization():
    renorm, norm = L.BatchRenormalization(3), L.BatchNormalization(3)
    x = _uniform(6, 3)
    numpy.testing.assert_allclose(renorm(x).array, norm(x).array, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(renorm.avg_var, norm.avg_var, rtol=1e-6)
    with chainer.using_config("train", False):
        numpy.testing.assert_allclose(renorm(x).array, norm(x).array, rtol=1e-5, atol=1e-6)


def test_finetuning_and_recomputation():
    link = L.BatchRenormalization(2)
    batches = [_uniform(4, 2) for _ in range(2)]
    for x in batches:
        link(x, finetune=True)
    assert link.N == 2
    expected = numpy.mean([x.mean(axis=0) for x in batches], axis=0)
    numpy.testing.assert_allclose(link.avg_mean, expected, rtol=1e-5)
    with chainer.using_config("in_recomputing", True):
        link(_uniform(4, 2), finetune=True)
    assert link.N == 2
    numpy.testing.assert_allclose(link.avg_mean, expected, rtol=1e-5)


def test_gradients_reach_gamma_and_beta():
    link = L.BatchRenormalization(2, rmax=2, dmax=1)
    link.cleargrads()  # gradients are NaN until cleared (v7)
    y = link(_uniform(4, 2))
    y.grad = numpy.ones(y.shape, numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(link.beta.grad, [4, 4])
    assert link.gamma.grad.shape == (2,)
