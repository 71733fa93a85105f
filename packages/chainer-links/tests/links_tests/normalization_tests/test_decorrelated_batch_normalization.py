"""DecorrelatedBatchNormalization: whitened groups, running statistics, loading old files."""

import io

import numpy
import pytest

import chainer
import chainer.links as L
from chainer import serializers


def _normal(*shape):
    return numpy.random.randn(*shape).astype(numpy.float32)


def test_training_whitens_each_group_and_updates_the_statistics():
    link = L.DecorrelatedBatchNormalization(4, groups=2, decay=0.5)
    mixing = numpy.array([[1, 0.5, 0, 0], [0, 1, 0, 0], [0, 0, 2, 1], [0, 0, 0, 1]], "f")
    x = _normal(256, 4) @ mixing + 3
    y = link(x).array
    for group in (y[:, :2], y[:, 2:]):
        numpy.testing.assert_allclose(group.T @ group / len(y), numpy.eye(2), atol=1e-3)
    numpy.testing.assert_allclose(link.avg_mean, 0.5 * x.mean(axis=0).reshape(2, 2), rtol=1e-4)
    assert link.avg_projection.shape == (2, 2, 2)


def test_evaluation_uses_the_running_statistics():
    link = L.DecorrelatedBatchNormalization(2, groups=1)
    link.avg_mean[...] = [[1, -1]]
    link.avg_projection[...] = [[[2, 0], [1, 1]]]
    x = _normal(3, 2)
    with chainer.using_config("train", False):
        y = link(x).array
    expected = (x - [1, -1]) @ numpy.array([[2, 0], [1, 1]]).T
    numpy.testing.assert_allclose(y, expected, rtol=1e-5)


def test_finetuning_counts_batches():
    link = L.DecorrelatedBatchNormalization(2, groups=1)
    batches = [_normal(16, 2) for _ in range(2)]
    for x in batches:
        link(x, finetune=True)
    assert link.N == 2
    expected = numpy.mean([x.mean(axis=0) for x in batches], axis=0)
    numpy.testing.assert_allclose(link.avg_mean[0], expected, rtol=1e-5)
    link.start_finetuning()
    assert link.N == 0


def _old_statistics_file(mean, projection):
    buffer = io.BytesIO()
    numpy.savez(buffer, N=numpy.array(0), avg_mean=mean, avg_projection=projection)
    buffer.seek(0)
    return buffer


def test_statistics_saved_without_the_group_axis_are_repeated_with_a_warning():
    buffer = _old_statistics_file(numpy.array([1.0, 2.0]), numpy.array([[1.0, 0.5], [0.0, 1.0]]))
    link = L.DecorrelatedBatchNormalization(6, groups=3)
    with pytest.warns(UserWarning, match="was saved without the group axis") as rec:
        serializers.load_npz(buffer, link)
    assert [str(w.message).split()[0] for w in rec] == ["'avg_mean'", "'avg_projection'"]
    assert "each of the 3 groups" in str(rec[1].message)
    numpy.testing.assert_array_equal(link.avg_mean, [[1, 2]] * 3)
    numpy.testing.assert_array_equal(link.avg_projection, [[[1, 0.5], [0, 1]]] * 3)


def test_statistics_without_the_group_axis_load_silently_into_one_group():
    buffer = _old_statistics_file(numpy.array([1.0, 2.0]), numpy.array([[1.0, 0.5], [0.0, 1.0]]))
    link = L.DecorrelatedBatchNormalization(2, groups=1)
    serializers.load_npz(buffer, link)  # warnings are errors here
    numpy.testing.assert_array_equal(link.avg_mean, [[1, 2]])
    numpy.testing.assert_array_equal(link.avg_projection, [[[1, 0.5], [0, 1]]])


def test_statistics_of_another_shape_are_refused():
    buffer = _old_statistics_file(numpy.zeros(3), numpy.eye(2))
    with pytest.raises(ValueError, match=r"cannot load 'avg_mean': expected shape \(3, 2\)"):
        serializers.load_npz(buffer, L.DecorrelatedBatchNormalization(6, groups=3))


def test_size_must_be_divisible_by_groups():
    with pytest.raises(ValueError, match="size must be divisible by groups: got size=5"):
        L.DecorrelatedBatchNormalization(5, groups=2)
