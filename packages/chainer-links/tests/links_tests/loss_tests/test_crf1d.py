"""CRF1d: the loss and Viterbi paths, time-major and batch-major (transpose=True)."""

import itertools

import numpy

import chainer.functions as F
import chainer.links as L


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def _path_score(cost, scores, labels):
    total = sum(scores[i, label] for i, label in enumerate(labels))
    return total + sum(cost[a, b] for a, b in zip(labels, labels[1:]))


def _sequence_nll(cost, scores, labels):
    paths = itertools.product(range(cost.shape[0]), repeat=len(scores))
    log_z = numpy.logaddexp.reduce([_path_score(cost, scores, p) for p in paths])
    return log_z - _path_score(cost, scores, labels)


def test_default_cost_is_zero_and_shaped():
    link = L.CRF1d(3)
    assert link.cost.shape == (3, 3)
    numpy.testing.assert_array_equal(link.cost.array, 0)
    numpy.testing.assert_array_equal(L.CRF1d(2, initial_cost=1.5).cost.array, 1.5)


def test_batch_major_loss_matches_brute_force():
    link = L.CRF1d(3, initial_cost=_uniform(3, 3))
    sequences = [_uniform(2, 3), _uniform(3, 3), _uniform(1, 3)]
    labels = [numpy.array(v, numpy.int32) for v in ([0, 2], [1, 1, 0], [2])]
    loss = link(sequences, labels, transpose=True)
    cost = link.cost.array.astype(numpy.float64)
    expected = numpy.mean([_sequence_nll(cost, s, y) for s, y in zip(sequences, labels)])
    numpy.testing.assert_allclose(loss.array, expected, rtol=1e-5)
    loss.backward()
    assert link.cost.grad.shape == (3, 3)


def test_time_major_input_is_passed_through():
    link = L.CRF1d(2, initial_cost=_uniform(2, 2))
    xs = [_uniform(2, 2), _uniform(1, 2)]
    ys = [numpy.array([0, 1], numpy.int32), numpy.array([1], numpy.int32)]
    expected = F.crf1d(link.cost, xs, ys, reduce="no").array
    numpy.testing.assert_allclose(link(xs, ys, reduce="no").array, expected)


def test_argmax_returns_the_best_paths_in_input_order():
    link = L.CRF1d(3, initial_cost=_uniform(3, 3))
    sequences = [_uniform(1, 3), _uniform(3, 3), _uniform(2, 3)]
    score, paths = link.argmax(sequences, transpose=True)
    cost = link.cost.array.astype(numpy.float64)
    for sequence, path in zip(sequences, paths):
        candidates = itertools.product(range(3), repeat=len(sequence))
        best = max(candidates, key=lambda p: _path_score(cost, sequence, p))
        numpy.testing.assert_array_equal(path, best)
    # Scores come longest sequence first.
    expected = [
        max(_path_score(cost, s, p) for p in itertools.product(range(3), repeat=len(s)))
        for s in (sequences[1], sequences[2], sequences[0])
    ]
    numpy.testing.assert_allclose(score.array, expected, rtol=1e-5)
    time_major_score, time_major_path = link.argmax(
        F.transpose_sequence([sequences[1], sequences[2], sequences[0]])
    )
    numpy.testing.assert_allclose(time_major_score.array, score.array)
    assert len(time_major_path) == 3
