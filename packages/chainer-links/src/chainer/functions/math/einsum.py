"""Einstein summation over the axes of several arrays."""

from __future__ import annotations

import string

from chainer import backend, utils
from chainer._ops.array_ops import broadcast_to
from chainer.function_node import FunctionNode
from chainer.functions.math._broadcast import reduce_to
from chainer.utils import type_check
from chainer.variable import Variable

_LETTERS = string.ascii_letters


def _parse(subscripts: str, shapes: list) -> tuple:
    """Explicit ``(input_terms, output_term)``: ellipses spelled out in spare letters.

    Raises:
        ValueError: For malformed subscripts or a term that does not fit its operand.
    """
    spec = subscripts.replace(" ", "")
    inputs, arrow, output = spec.partition("->")
    terms = inputs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(
            f"subscripts {subscripts!r} name {len(terms)} operands, but {len(shapes)} are given"
        )
    for term in terms + [output]:
        letters = term.replace("...", "")
        if any(c not in _LETTERS for c in letters):
            raise ValueError(f"invalid subscripts {subscripts!r}: use letters, ',' and '->'")
    if "..." in output and "..." not in inputs:
        raise ValueError(f"the output of {subscripts!r} has '...' but no input has")
    spare = [c for c in _LETTERS if c not in spec]
    n_ellipsis = 0
    for term, shape in zip(terms, shapes):
        n_named = len(term.replace("...", ""))
        if "..." in term:
            n_ellipsis = max(n_ellipsis, len(shape) - n_named)
        elif n_named != len(shape):
            raise ValueError(
                f"term {term!r} of {subscripts!r} names {n_named} axes, "
                f"but its operand has shape {tuple(shape)}"
            )
    broadcast = "".join(spare[:n_ellipsis])

    def spell_out(term: str, ndim: int | None) -> str:
        if "..." not in term:
            return term
        n = n_ellipsis if ndim is None else ndim - len(term.replace("...", ""))
        if n < 0:
            raise ValueError(f"term {term!r} of {subscripts!r} names too many axes")
        return term.replace("...", broadcast[n_ellipsis - n :])

    explicit = [spell_out(t, len(s)) for t, s in zip(terms, shapes)]
    if arrow:
        out = spell_out(output, None)
    else:  # implicit output: the broadcast axes, then the letters used once, sorted
        joined = "".join(terms)
        once = sorted(c for c in set(joined) if c != "." and joined.count(c) == 1)
        out = broadcast + "".join(once)
    if len(set(out)) != len(out) or any(c not in "".join(explicit) for c in out):
        raise ValueError(f"invalid output subscripts in {subscripts!r}")
    return explicit, out


class EinSum(FunctionNode):
    """``xp.einsum`` with explicit subscripts; each gradient is an einsum of ``gy``.

    Args:
        in_subs: The input terms, as v7's comma-joined string (``'ij,jk'``) or a list.
        out_sub: The output term (``'ik'``).
    """

    def __init__(self, in_subs: str | list, out_sub: str) -> None:
        self.in_terms = in_subs.split(",") if isinstance(in_subs, str) else list(in_subs)
        self.out_term = out_sub

    @property
    def in_subs(self) -> str:
        """The input terms, comma-joined (v7's attribute)."""
        return ",".join(self.in_terms)

    @property
    def out_sub(self) -> str:
        """The output term (v7's attribute)."""
        return self.out_term

    def check_type_forward(self, in_types) -> None:
        sizes: dict = {}
        for i, (term, t) in enumerate(zip(self.in_terms, in_types)):
            type_check.expect(t.dtype.kind == "f", t.dtype == in_types[0].dtype)
            shape = type_check.eval(t.shape)
            for letter, n in zip(term, shape):
                known = sizes.setdefault(letter, n)
                if known != n and 1 not in (known, n):
                    raise type_check.InvalidType(
                        f"axes labelled {letter!r} have equal lengths (or length 1)",
                        f"{known} != {n} (operand {i} has shape {shape})",
                    )
                sizes[letter] = max(known, n)

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs(tuple(range(len(inputs))))
        xp = backend.get_array_module(*inputs)
        spec = ",".join(self.in_terms) + "->" + self.out_term
        # optimize=True contracts pairs through tensordot, i.e. BLAS.
        y = xp.einsum(spec, *inputs, optimize=len(inputs) > 1)
        return (utils.force_array(y, inputs[0].dtype),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        xs = self.get_retained_inputs()
        return tuple([self._grad_of(i, xs, grad_outputs[0]) for i in indexes])

    def _grad_of(self, i: int, xs: tuple, gy: Variable) -> Variable:
        """The gradient of input ``i``: ``gy`` contracted with every other input.

        A letter repeated in term ``i`` (a diagonal) gets a fresh letter and an identity
        matrix linking the two; a letter found in no other operand (summed out of ``x[i]``
        alone) gets a vector of ones, which broadcasts the gradient along it.
        """
        x = xs[i]
        xp = backend.get_array_module(x.array)
        term = self.in_terms[i]
        terms = [self.out_term] + [t for k, t in enumerate(self.in_terms) if k != i]
        operands = [gy] + [v for k, v in enumerate(xs) if k != i]
        used = set("".join(self.in_terms) + self.out_term)
        spare = iter(c for c in _LETTERS if c not in used)
        target = []
        for letter, n in zip(term, x.shape):
            if letter in target:
                fresh = next(spare)
                terms.append(letter + fresh)
                operands.append(Variable(xp.eye(n, dtype=x.dtype), requires_grad=False))
                letter = fresh
            elif not any(letter in t for t in terms):
                terms.append(letter)
                operands.append(Variable(xp.ones(n, dtype=x.dtype), requires_grad=False))
            target.append(letter)
        g = EinSum(terms, "".join(target)).apply(operands)[0]
        if g.shape == x.shape:
            return g
        # Undo broadcasting both ways: sum where x had length 1, spread where the others did.
        g = reduce_to(g, tuple(1 if n == 1 else m for n, m in zip(x.shape, g.shape)))
        return g if g.shape == x.shape else broadcast_to(g, x.shape)


class DiagEinSum(EinSum):
    """The einsum that spreads: ``out_sub`` may repeat a letter (its values go on that
    diagonal, zeros elsewhere) and name letters of no input (the values are repeated along
    them), with ``out_shape`` giving every output length. Einsum's own gradients are of
    this kind. Terms are letters only (no ``...``).

    Example:
        >>> DiagEinSum('i', 'ii', (2, 2)).apply((np.float32([1, 2]),))[0].array
        array([[1., 0.],
               [0., 2.]], dtype=float32)
    """

    def __init__(self, in_subs: str | list, out_sub: str, out_shape) -> None:
        super().__init__(in_subs, out_sub)
        self.out_shape = tuple(out_shape)
        terms = self.in_terms + [out_sub]
        if any(c not in _LETTERS for c in "".join(terms)) or len(out_sub) != len(self.out_shape):
            raise ValueError(
                "DiagEinSum takes letters only and an out_shape of one length per output "
                f"letter, got {self.in_subs!r} -> {out_sub!r} with out_shape={self.out_shape}"
            )
        # The output's distinct letters, and those of them that some input has.
        self._spread = "".join(dict.fromkeys(out_sub))
        self._kept = "".join(c for c in self._spread if c in self.in_subs)

    def check_type_forward(self, in_types) -> None:
        super().check_type_forward(in_types)
        lengths: dict = {}
        for term, t in zip(self.in_terms, in_types):
            for letter, n in zip(term, type_check.eval(t.shape)):
                lengths[letter] = max(n, lengths.get(letter, n))
        for letter, n in zip(self.out_term, self.out_shape):
            if lengths.setdefault(letter, n) not in (n, 1):
                raise type_check.InvalidType(
                    f"out_shape's length of {letter!r} is the inputs' (or they have 1)",
                    f"{n} != {lengths[letter]} (out_shape={self.out_shape})",
                )
            lengths[letter] = n

    def forward(self, inputs: tuple) -> tuple:
        self.retain_inputs(tuple(range(len(inputs))))
        xp = backend.get_array_module(*inputs)
        spec = f"{self.in_subs}->{self._kept}"
        kept = xp.einsum(spec, *inputs, optimize=len(inputs) > 1)
        y = xp.zeros(self.out_shape, inputs[0].dtype)
        # The diagonal of y as a view with one axis per distinct letter (strides added up).
        lengths = dict(zip(self.out_term, self.out_shape))
        strides = dict.fromkeys(self._spread, 0)
        for letter, stride in zip(self.out_term, y.strides):
            strides[letter] += stride
        diagonal = xp.lib.stride_tricks.as_strided(
            y,
            tuple(lengths[c] for c in self._spread),
            tuple(strides[c] for c in self._spread),
        )
        shape = tuple(lengths[c] if c in self._kept else 1 for c in self._spread)
        diagonal[...] = kept.reshape(shape)
        return (y,)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        # The forward is einsum(in -> kept) spread out: its gradient reads the diagonal of gy,
        # summed over the spread letters, and goes on as einsum's.
        xs = self.get_retained_inputs()
        g_kept = EinSum([self.out_term], self._kept).apply(grad_outputs)[0]
        einsum_node = EinSum(self.in_terms, self._kept)
        return tuple([einsum_node._grad_of(i, xs, g_kept) for i in indexes])


def _sublist_term(sublist) -> str:
    """A subscripts term from NumPy's sublist form: ints (axis labels) and ``Ellipsis``."""
    term = []
    for label in sublist:
        if label is Ellipsis:
            term.append("...")
        elif isinstance(label, int) and 0 <= label < len(_LETTERS):
            term.append(_LETTERS[label])
        else:
            raise ValueError(
                f"sublist labels must be ints in [0, {len(_LETTERS)}) or Ellipsis, got {label!r}"
            )
    return "".join(term)


def _from_sublists(operands: tuple) -> tuple:
    """``(subscripts, arrays)`` from ``(a, sublist_a, b, sublist_b, ..., [sublist_out])``."""
    arrays = operands[0::2][: len(operands) // 2]
    terms = [_sublist_term(sub) for sub in operands[1::2]]
    subscripts = ",".join(terms)
    if len(operands) % 2:
        subscripts += "->" + _sublist_term(operands[-1])
    return subscripts, arrays


def einsum(*operands) -> Variable:
    """Einstein summation, as :func:`numpy.einsum`.

    Args:
        operands: The subscripts string (``'ij,jk->ik'``; ``...`` stands for broadcast axes,
            and without ``->`` the output has the letters used once, sorted), then the
            :class:`~chainer.Variable` or :ref:`ndarray` operands, of one floating-point dtype.
            NumPy's sublist form is accepted too: ``einsum(a, [0, 1], b, [1, 2], [0, 2])``.

    Returns:
        ~chainer.Variable: The result.

    Raises:
        ValueError: When the subscripts are malformed or do not fit the operands.

    Example:
        >>> F.einsum('ij,jk->ik', np.ones((2, 3)), np.ones((3, 4))).shape
        (2, 4)
    """
    if not operands:
        raise TypeError("einsum needs a subscripts string and at least one operand")
    if isinstance(operands[0], str):
        subscripts, arrays = operands[0], operands[1:]
    else:
        subscripts, arrays = _from_sublists(operands)
    if not arrays:
        raise TypeError("einsum needs at least one operand after the subscripts")
    in_terms, out_term = _parse(subscripts, [a.shape for a in arrays])
    return EinSum(in_terms, out_term).apply(arrays)[0]
