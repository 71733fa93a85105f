"""BinaryHierarchicalSoftmax: tree paths, loss against NumPy, gradients, Huffman trees."""

import numpy
import pytest

import chainer.links as L
from chainer import gradient_check

TREE = ((0, 1), ((2, 3), 4))
# Internal nodes in pre-order: 0 = root, 1 = (0, 1), 2 = ((2, 3), 4), 3 = (2, 3).
PATHS = {
    0: [(0, 1), (1, 1)],
    1: [(0, 1), (1, -1)],
    2: [(0, -1), (2, 1), (3, 1)],
    3: [(0, -1), (2, 1), (3, -1)],
    4: [(0, -1), (2, -1)],
}


def _uniform(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


def hsm_reference(x, t, W):
    return sum(
        numpy.logaddexp(0, -code * (W[node] @ xi))
        for xi, word in zip(x.astype(numpy.float64), t)
        for node, code in PATHS[word]
    )


def test_loss_matches_the_sum_over_paths():
    link = L.BinaryHierarchicalSoftmax(3, TREE)
    assert link.W.shape == (4, 3)
    assert numpy.abs(link.W.array).max() <= 1
    x, t = _uniform(5, 3), numpy.array([0, 4, 2, 3, 1], numpy.int32)
    loss = link(x, t)
    assert loss.shape == () and loss.dtype == numpy.float32
    numpy.testing.assert_allclose(loss.array, hsm_reference(x, t, link.W.array), rtol=1e-5)


def test_probabilities_sum_to_one():
    link = L.BinaryHierarchicalSoftmax(2, TREE)
    x = numpy.repeat(_uniform(1, 2), 5, axis=0)
    words = numpy.arange(5, dtype=numpy.int32)
    total = sum(numpy.exp(-link(x[i : i + 1], words[i : i + 1]).array) for i in range(5))
    numpy.testing.assert_allclose(total, 1.0, rtol=1e-5)


def test_gradients_of_x_and_W():
    link = L.BinaryHierarchicalSoftmax(3, TREE, dtype=numpy.float64)
    x = _uniform(4, 3, dtype=numpy.float64)
    t = numpy.array([2, 0, 4, 2], numpy.int32)
    gradient_check.check_backward(
        lambda x: link(x, t), x, numpy.array(0.7), params=[link.W], atol=1e-6, rtol=1e-5
    )


def test_words_missing_from_the_tree_cost_nothing():
    link = L.BinaryHierarchicalSoftmax(2, (0, 3))
    x = _uniform(2, 2)
    numpy.testing.assert_allclose(link(x, numpy.array([1, 2], numpy.int32)).array, 0)


def test_huffman_tree_gives_frequent_words_short_paths():
    tree = L.BinaryHierarchicalSoftmax.create_huffman_tree({"a": 1, "b": 2, "c": 4, "d": 10})
    # The two rarest subtrees merge first, the rarer on the left.
    assert tree == ((("a", "b"), "c"), "d")
    tie = L.BinaryHierarchicalSoftmax.create_huffman_tree({0: 1, 1: 1})
    assert tie == (0, 1)
    with pytest.raises(ValueError, match="Empty vocabulary"):
        L.BinaryHierarchicalSoftmax.create_huffman_tree({})


def test_errors():
    with pytest.raises(ValueError, match="every internal node must have two children"):
        L.BinaryHierarchicalSoftmax(2, (0, 1, 2))
    with pytest.raises(ValueError, match="the leaves of the tree must be word IDs >= 0"):
        L.BinaryHierarchicalSoftmax(2, ("a", "b"))
    with pytest.raises(ValueError, match="word 1 appears twice"):
        L.BinaryHierarchicalSoftmax(2, (1, 1))
    link = L.BinaryHierarchicalSoftmax(2, TREE)
    with pytest.raises(ValueError, match=r"word IDs must be in \[0, 5\), got IDs from 0 to 5"):
        link(_uniform(2, 2), numpy.array([0, 5], numpy.int32))
    with pytest.raises(ValueError, match=r"expected x of shape \(n, 2\) and t of shape \(n,\)"):
        link(_uniform(2, 3), numpy.array([0, 1], numpy.int32))
