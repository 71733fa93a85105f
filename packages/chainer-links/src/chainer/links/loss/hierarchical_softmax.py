"""``BinaryHierarchicalSoftmax``: a softmax over words factored along a binary tree."""

from __future__ import annotations

import heapq
import typing as tp
from collections.abc import Mapping

import numpy

import chainer
from chainer import initializers, link, variable
from chainer.functions.activation.softplus import softplus
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.array.expand_dims import expand_dims
from chainer.functions.connection.embed_id import embed_id
from chainer.functions.math.sum import sum as sum_


def _parse_tree(tree: tp.Any) -> tuple[dict[int, list[int]], dict[int, list[float]], int]:
    """Number the internal nodes of ``tree`` in pre-order and trace the path to every leaf.

    Returns ``(paths, codes, n_nodes)``: ``paths[word]`` lists the internal nodes from the
    root to the leaf ``word``, ``codes[word]`` the direction taken at each (``1.0`` left,
    ``-1.0`` right).
    """
    paths: dict[int, list[int]] = {}
    codes: dict[int, list[float]] = {}
    n_nodes = 0
    stack: list[tuple[tp.Any, list[int], list[float]]] = [(tree, [], [])]
    while stack:
        node, path, code = stack.pop()
        if not isinstance(node, tuple):
            if not isinstance(node, (int, numpy.integer)) or node < 0:
                raise ValueError(f"the leaves of the tree must be word IDs >= 0, got {node!r}")
            if node in paths:
                raise ValueError(f"word {node} appears twice in the tree")
            paths[int(node)], codes[int(node)] = path, code
            continue
        if len(node) != 2:
            raise ValueError(f"every internal node must have two children, got {node!r}")
        path = [*path, n_nodes]
        n_nodes += 1
        # The right child goes on the stack first so that the left subtree is numbered first.
        stack.append((node[1], path, [*code, -1.0]))
        stack.append((node[0], path, [*code, 1.0]))
    return paths, codes, n_nodes


class BinaryHierarchicalSoftmax(link.Link):
    """Hierarchical softmax layer over a binary tree of words (Morin and Bengio, 2005).

    Each internal node of ``tree`` has a row of ``W``; the probability of a word is the
    product, along the path from the root to its leaf, of ``sigmoid(+-W[node] . x)`` (``+``
    for a left turn, ``-`` for a right one). Calling the link returns the negative
    log-likelihood of the targets, summed over the batch. Words missing from the tree cost 0.

    Args:
        in_size: Dimension of the input vectors.
        tree: The tree: a leaf is a word ID (an int), an internal node a pair
            ``(left, right)``. :meth:`create_huffman_tree` builds one from word counts.
        dtype: Dtype of ``W`` (``None``: the default dtype).

    Attributes:
        W (~chainer.Parameter): One row per internal node, ``(n_nodes, in_size)``, drawn from
            ``Uniform(1)`` at first.

    Example:
        >>> tree = L.BinaryHierarchicalSoftmax.create_huffman_tree({0: 5, 1: 2, 2: 1})
        >>> hsm = L.BinaryHierarchicalSoftmax(3, tree)
        >>> hsm(numpy.ones((2, 3), numpy.float32), numpy.array([0, 2], numpy.int32)).shape
        ()
    """

    def __init__(self, in_size: int, tree: tp.Any, dtype: tp.Any = None) -> None:
        super().__init__()
        dtype = chainer.get_dtype(dtype)
        paths, codes, n_nodes = _parse_tree(tree)
        n_vocab = max(paths) + 1
        depth = max(len(path) for path in paths.values())
        # Paths padded to one length; padding has node -1 (a zero row) and code 0 (masked).
        self._paths = numpy.full((n_vocab, depth), -1, dtype=numpy.int32)
        self._codes = numpy.zeros((n_vocab, depth), dtype=dtype)
        for word, path in paths.items():
            self._paths[word, : len(path)] = path
            self._codes[word, : len(path)] = codes[word]
        self._mask = (self._codes != 0).astype(dtype)
        with self.init_scope():
            self.W = variable.Parameter(initializers.Uniform(1, dtype), (n_nodes, in_size))

    def device_resident_accept(self, visitor: tp.Any) -> None:
        super().device_resident_accept(visitor)
        self._paths = visitor.visit_array(self._paths)
        self._codes = visitor.visit_array(self._codes)
        self._mask = visitor.visit_array(self._mask)

    @staticmethod
    def create_huffman_tree(word_counts: Mapping[tp.Any, float]) -> tp.Any:
        """Build a Huffman tree from ``{word: count}``: frequent words get short paths.

        Raises:
            ValueError: ``word_counts`` is empty.
        """
        if not word_counts:
            raise ValueError("Empty vocabulary: word_counts has no words")
        # The unique id breaks ties between equal counts without comparing subtrees.
        heap = [(count, uid, word) for uid, (word, count) in enumerate(word_counts.items())]
        heapq.heapify(heap)
        while len(heap) > 1:
            count1, uid1, left = heapq.heappop(heap)
            count2, _, right = heapq.heappop(heap)
            heapq.heappush(heap, (count1 + count2, uid1, (left, right)))
        return heap[0][2]

    def forward(self, x: tp.Any, t: tp.Any) -> variable.Variable:
        """Negative log-likelihood of the words ``t`` ``(n,)`` given ``x`` ``(n, in_size)``.

        Raises:
            ValueError: The shapes of ``x`` and ``t`` do not fit the link.
        """
        t = variable.as_array(t)
        n_vocab = len(self._paths)
        if x.ndim != 2 or x.shape[1] != self.W.shape[1] or t.shape != (x.shape[0],):
            raise ValueError(
                f"expected x of shape (n, {self.W.shape[1]}) and t of shape (n,), got "
                f"x {x.shape} and t {t.shape}"
            )
        if t.size and (int(t.min()) < 0 or int(t.max()) >= n_vocab):
            raise ValueError(
                f"word IDs must be in [0, {n_vocab}), got IDs from {int(t.min())} to "
                f"{int(t.max())}"
            )
        weights = embed_id(self._paths[t], self.W, ignore_label=-1)  # (n, depth, in_size)
        scores = sum_(weights * broadcast_to(expand_dims(x, 1), weights.shape), axis=2)
        # -log sigmoid(code * score), summed over the real steps of every path.
        return sum_(softplus(-scores * self._codes[t]) * self._mask[t])
