"""einsum."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.math.einsum import DiagEinSum, EinSum
from chainer.utils import type_check


def _einsum_by_loops(in_terms, out_term, arrays, out_shape=()):
    """Sum of products over every assignment of the letters (no numpy.einsum), each added at
    the output index of its letters: a letter repeated in the output fills only that diagonal,
    and a letter of no input (its length from ``out_shape``) repeats the sum along its axis."""
    sizes = dict(zip(out_term, out_shape))
    for term, a in zip(in_terms, arrays):
        for letter, n in zip(term, a.shape):
            sizes[letter] = max(sizes.get(letter, 1), n)
    letters = sorted(sizes)
    y = numpy.zeros([sizes[c] for c in out_term])
    for values in numpy.ndindex(*[sizes[c] for c in letters]):
        at = dict(zip(letters, values))
        product = 1.0
        for term, a in zip(in_terms, arrays):
            # A length-1 axis broadcasts: it is read at 0.
            product *= a[tuple(at[c] if n > 1 else 0 for c, n in zip(term, a.shape))]
        y[tuple(at[c] for c in out_term)] += product
    return y


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "dtype": [numpy.float16, numpy.float32, numpy.float64],
            "case": [
                ("ij,jk->ik", "ij,jk", "ik", [(2, 3), (3, 4)]),
                ("ij,jk", "ij,jk", "ik", [(2, 3), (3, 4)]),
                ("ii->i", "ii", "i", [(3, 3)]),
                ("ii", "ii", "", [(3, 3)]),
                ("ij->j", "ij", "j", [(2, 3)]),
                ("i,j->ij", "i,j", "ij", [(2,), (3,)]),
                ("iij,jk->ki", "iij,jk", "ki", [(2, 2, 3), (3, 4)]),
                ("...ij,...jk->...ik", "abij,bjk", "abik", [(1, 2, 2, 3), (2, 3, 2)]),
                ("ij,jk,kl->il", "ij,jk,kl", "il", [(2, 3), (3, 2), (2, 2)]),
                ("ij,ij->", "ij,ij", "", [(1, 3), (2, 3)]),
            ],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {"use_cuda": True}])
class TestEinSum(testing.FunctionTestCase):
    def setUp(self):
        self.subscripts, terms, self.out_term, self.shapes = self.case
        self.in_terms = terms.split(",")
        if self.dtype == numpy.float16:
            self.check_forward_options = {"atol": 1e-2, "rtol": 1e-2}
            self.check_backward_options = {"atol": 5e-2, "rtol": 5e-2}
            self.check_double_backward_options = {"atol": 5e-2, "rtol": 5e-2}

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in self.shapes)

    def forward(self, inputs, device):
        return (F.einsum(self.subscripts, *inputs),)

    def forward_expected(self, inputs):
        arrays = [x.astype(numpy.float64) for x in inputs]
        y = _einsum_by_loops(self.in_terms, self.out_term, arrays)
        return (numpy.asarray(y, dtype=self.dtype),)


def test_bad_subscripts_are_rejected():
    a = numpy.ones((2, 3))
    with pytest.raises(ValueError, match=r"name 2 operands, but 1 are given"):
        F.einsum("ij,jk", a)
    with pytest.raises(ValueError, match=r"names 2 axes, but its operand has shape \(2, 3, 1\)"):
        F.einsum("ij", numpy.ones((2, 3, 1)))
    with pytest.raises(ValueError, match=r"invalid output subscripts in 'ij->ii'"):
        F.einsum("ij->ii", a)
    with pytest.raises(ValueError, match=r"the output of 'i,i->\.\.\.' has '\.\.\.' but no input"):
        F.einsum("i,i->...", numpy.ones(2), numpy.ones(2))
    with pytest.raises(ValueError, match=r"use letters"):
        F.einsum("i1", a)
    with pytest.raises(ValueError, match=r"sublist labels must be ints in \[0, 52\) or Ellipsis"):
        F.einsum(a, ["i", "j"])
    with pytest.raises(type_check.InvalidType, match=r"axes labelled 'j' have equal lengths"):
        F.einsum("ij,jk", a, numpy.ones((4, 2)))


@pytest.mark.parametrize(
    ("args", "subscripts"),
    [
        (lambda a, b: (a, [0, 1], b, [1, 2], [0, 2]), "ij,jk->ik"),
        (lambda a, b: (a, [0, 1], b, [1, 2]), "ij,jk"),
        (lambda a, b: (a, [Ellipsis, 1], b, [1, 2], [Ellipsis, 2]), "...j,jk->...k"),
    ],
)
def test_sublist_form_matches_the_subscripts_string(args, subscripts):
    a = chainer.Variable(numpy.random.uniform(-1, 1, (2, 3)))
    b = chainer.Variable(numpy.random.uniform(-1, 1, (3, 4)))
    y = F.einsum(*args(a, b))
    numpy.testing.assert_allclose(y.array, numpy.einsum(subscripts, a.array, b.array))
    F.sum(y).backward()
    numpy.testing.assert_allclose(a.grad, numpy.ones((2, 4)) @ b.array.T)


@testing.fix_random()
@testing.parameterize(
    *testing.product(
        {
            "dtype": [numpy.float32, numpy.float64],
            "case": [
                ("i", "ii", (3, 3), [(3,)]),
                ("i", "ij", (3, 4), [(3,)]),
                ("", "i", (3,), [()]),
                (",i", "ij", (2, 3), [(), (2,)]),
                (",ij", "i", (3,), [(), (3, 4)]),
                ("ij", "jii", (3, 2, 2), [(2, 3)]),
                ("ij,jk", "kik", (2, 3, 2), [(3, 4), (4, 2)]),
            ],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {"use_cuda": True}])
class TestDiagEinSum(testing.FunctionTestCase):
    def setUp(self):
        self.in_subs, self.out_sub, self.out_shape, self.shapes = self.case

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in self.shapes)

    def forward(self, inputs, device):
        node = DiagEinSum(in_subs=self.in_subs, out_sub=self.out_sub, out_shape=self.out_shape)
        return node.apply(inputs)

    def forward_expected(self, inputs):
        arrays = [x.astype(numpy.float64) for x in inputs]
        y = _einsum_by_loops(self.in_subs.split(","), self.out_sub, arrays, self.out_shape)
        return (y.astype(self.dtype),)


def test_diag_einsum_refuses_what_it_cannot_spread():
    with pytest.raises(ValueError, match=r"letters only .* got '\.\.\.i' -> 'i'"):
        DiagEinSum("...i", "i", (2,))
    with pytest.raises(ValueError, match=r"one length per output letter, got 'i' -> 'ij'"):
        DiagEinSum("i", "ij", (2,))
    with pytest.raises(type_check.InvalidType, match=r"(?s)out_shape's length of 'i'.*3 != 2"):
        DiagEinSum("i", "ij", (3, 4)).apply((numpy.ones(2, numpy.float32),))


def test_einsum_node_takes_v7s_comma_joined_input_subscripts():
    node = EinSum(in_subs="ij,jk", out_sub="ik")
    assert (node.in_subs, node.out_sub) == ("ij,jk", "ik")
    a, b = numpy.ones((2, 3), numpy.float32), numpy.ones((3, 4), numpy.float32)
    numpy.testing.assert_array_equal(node.apply((a, b))[0].array, a @ b)
