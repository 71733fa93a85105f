"""Small serializable objects for the serializer tests (independent of chainer.Link)."""

from __future__ import annotations

import numpy

import chainer


class Leaf:
    """An object with an array, a Parameter, a scalar, a string and an optional value."""

    def __init__(self, seed: int = 0, shape=(2, 3)) -> None:
        rng = numpy.random.default_rng(seed)
        self.W = rng.standard_normal(shape).astype(numpy.float32)
        self.b = chainer.Parameter(rng.standard_normal(shape[0]).astype(numpy.float32))
        self.count = int(seed)
        self.rate = 0.5 + seed
        self.label = f"leaf{seed}"
        self.extra = None

    def serialize(self, serializer) -> None:
        serializer("W", self.W)
        serializer("b", self.b)
        self.count = serializer("count", self.count)
        self.rate = serializer("rate", self.rate)
        self.label = serializer("label", self.label)
        self.extra = serializer("extra", self.extra)


class Tree:
    """A root with a persistent scalar and two nested children, one of them two levels deep."""

    def __init__(self, seed: int = 0) -> None:
        self.step = seed
        self.left = Leaf(seed + 1)
        self.right = Branch(seed + 2)

    def serialize(self, serializer) -> None:
        self.step = serializer("step", self.step)
        self.left.serialize(serializer["left"])
        self.right.serialize(serializer["right"])


class Branch:
    def __init__(self, seed: int) -> None:
        self.scale = numpy.full((), float(seed), dtype=numpy.float64)
        self.inner = Leaf(seed + 10, shape=(4, 1))

    def serialize(self, serializer) -> None:
        serializer("scale", self.scale)
        self.inner.serialize(serializer["inner"])


class Lazy:
    """An object whose Parameter is uninitialized until it is loaded."""

    def __init__(self) -> None:
        self.w = chainer.Parameter()

    def serialize(self, serializer) -> None:
        serializer("w", self.w)


def leaves(tree: Tree) -> dict[str, Leaf]:
    return {"left": tree.left, "right/inner": tree.right.inner}


def assert_same_state(actual: Tree, expected: Tree) -> None:
    """Assert that two trees hold equal values (arrays compared exactly)."""
    assert actual.step == expected.step
    numpy.testing.assert_array_equal(actual.right.scale, expected.right.scale)
    for name, leaf in leaves(expected).items():
        other = leaves(actual)[name]
        numpy.testing.assert_array_equal(other.W, leaf.W)
        numpy.testing.assert_array_equal(other.b.array, leaf.b.array)
        assert (other.count, other.rate, other.label, other.extra) == (
            leaf.count,
            leaf.rate,
            leaf.label,
            leaf.extra,
        )
        assert type(other.count) is int and type(other.rate) is float
        assert type(other.label) is str


class FuzzTarget:
    """A small serializable object: arrays, an uninitialized Parameter, scalars, a string."""

    def __init__(self) -> None:
        self.W = numpy.zeros((2, 3), numpy.float32)
        self.b = chainer.Parameter(numpy.zeros(2, numpy.float32))
        self.lazy = chainer.Parameter()
        self.count = 0
        self.rate = 0.0
        self.label = ""

    def serialize(self, serializer) -> None:
        serializer("W", self.W)
        serializer("b", self.b)
        serializer("lazy", self.lazy)
        self.count = serializer("count", self.count)
        self.rate = serializer("rate", self.rate)
        self.label = serializer("label", self.label)

    @classmethod
    def filled(cls) -> FuzzTarget:
        """A target with every value set (the lazy Parameter too), to save."""
        source = cls()
        source.W[...] = numpy.arange(6).reshape(2, 3)
        source.b.array[...] = (7, 8)
        source.lazy = chainer.Parameter(numpy.arange(5, dtype=numpy.float32))
        source.count, source.rate, source.label = 3, 0.25, "ok"
        return source

    def assert_holds(self, stored: dict) -> None:
        """Assert each value equals the array ``stored`` has for its key, as loading converts
        it (absent keys are skipped)."""
        values = {"W": self.W, "b": self.b.array, "lazy": self.lazy.array}
        values.update(count=self.count, rate=self.rate, label=self.label)
        for key, value in values.items():
            if key not in stored:
                continue
            if isinstance(value, numpy.ndarray):
                numpy.testing.assert_array_equal(value, stored[key].astype(value.dtype))
            else:  # scalars convert as v7 does (a stored 1.0 loads into a str as '1.0')
                assert value == type(value)(stored[key].item())
