"""TreeLSTM layers (Tai et al., 2015): ``ChildSumTreeLSTM`` and ``NaryTreeLSTM``.

Both compute the pre-activations of :func:`~chainer.functions.tree_lstm` from a node's input
``x`` and its children's states, with the gates in blocks ``a, i, o, f_1 .. f_n`` of
``out_size`` channels each; the function then merges the children's cells.
"""

from __future__ import annotations

import typing as tp
from collections.abc import Sequence

from chainer import backend, link
from chainer.functions.array.concat import concat
from chainer.functions.array.split_axis import split_axis
from chainer.functions.rnn.tree_lstm import tree_lstm
from chainer.links.connection.linear import Linear
from chainer.variable import Variable


def _input_or_zeros(owner: link.Link, x: tp.Any, states: Sequence[tp.Any]) -> tp.Any:
    """``x``, or zeros ``(B, in_size)`` for a node without input (B from the first state).

    Raises:
        ValueError: ``x`` and every state are ``None``.
    """
    if x is not None:
        return x
    base = next((s for s in states if s is not None), None)
    if base is None:
        raise ValueError(
            f"{type(owner).__name__}: all inputs (cs, hs, x) are None; give at least one to "
            "know the batch size"
        )
    with backend.using_device(owner.device):
        return owner.xp.zeros((base.shape[0], owner.in_size), dtype=base.dtype)


def _zeros_for_missing(owner: link.Link, states: Sequence[tp.Any], x: tp.Any) -> tuple:
    """``states`` with each ``None`` (a missing child) replaced by zeros ``(B, out_size)``."""
    if all(s is not None for s in states):
        return tuple(states)
    with backend.using_device(owner.device):
        zero = owner.xp.zeros((x.shape[0], owner.state_size), dtype=x.dtype)
    return tuple(zero if s is None else s for s in states)


class ChildSumTreeLSTM(link.Chain):
    """Child-Sum TreeLSTM unit: a node with any number of (unordered) children.

    With ``h~ = sum_k h_k`` over the children's outputs::

        a, i, o = W_x(x)[:, :3 out] + W_h_aio(h~)       # blocks of out_size channels
        f_k = W_x(x)[:, 3 out:] + W_h_f(h_k)           # one forget gate per child
        c = tanh(a) sigmoid(i) + sum_k sigmoid(f_k) c_k,  h = sigmoid(o) tanh(c)

    A leaf (no children: called with ``x`` alone) has ``c = tanh(a) sigmoid(i)``; a ``None``
    child cell or output counts as zeros.

    Args:
        in_size: Dimension of the node input ``x``.
        out_size: Dimension of the cell and output.

    Attributes:
        W_x (~chainer.links.Linear): Input to ``a, i, o, f``, ``(4 out, in)`` with a bias.
        W_h_aio (~chainer.links.Linear): Summed children's outputs to ``a, i, o``, no bias.
        W_h_f (~chainer.links.Linear): Each child's output to its forget gate, no bias.

    Example:
        >>> tree = L.ChildSumTreeLSTM(3, 2)
        >>> c1 = h1 = c2 = h2 = numpy.zeros((4, 2), numpy.float32)
        >>> c, h = tree(c1, c2, h1, h2, numpy.ones((4, 3), numpy.float32))
        >>> h.shape
        (4, 2)
    """

    def __init__(self, in_size: int | None, out_size: int) -> None:
        super().__init__()
        self.in_size = in_size
        self.state_size = out_size
        with self.init_scope():
            self.W_x = Linear(in_size, 4 * out_size)
            self.W_h_aio = Linear(out_size, 3 * out_size, nobias=True)
            self.W_h_f = Linear(out_size, out_size, nobias=True)

    def forward(self, *cshsx: tp.Any) -> tuple[Variable, Variable]:
        """Merge the children of a node.

        Args:
            cshsx: The children's cells ``c_1 .. c_n``, then their outputs ``h_1 .. h_n``
                (each ``(B, out_size)`` or ``None`` for zeros, ``n >= 0``), then the node
                input ``x`` ``(B, in_size)`` or ``None`` for zeros.

        Returns:
            ``(c, h)``: the node's cell and output, ``(B, out_size)`` each.

        Raises:
            ValueError: The arguments are not ``2 n + 1``, or ``x`` and the states are all
                ``None``.
        """
        if len(cshsx) % 2 != 1:
            raise ValueError(
                "ChildSumTreeLSTM takes the cells c_1..c_n, the outputs h_1..h_n (n >= 0) and "
                f"x: 2 n + 1 arguments, got {len(cshsx)}"
            )
        n_children = len(cshsx) // 2
        cs, hs = cshsx[:n_children], cshsx[n_children:-1]
        x = _input_or_zeros(self, cshsx[-1], cs + hs)
        if n_children == 0:
            # A leaf: a zero cell makes the forget block drop out, c = tanh(a) sigmoid(i).
            (zero_cell,) = _zeros_for_missing(self, (None,), x)
            return tree_lstm(zero_cell, self.W_x(x))
        cs, hs = _zeros_for_missing(self, cs, x), _zeros_for_missing(self, hs, x)
        x_aio, x_f = split_axis(self.W_x(x), [3 * self.state_size], axis=1)
        if n_children == 1:
            h_sum, forget = hs[0], (self.W_h_f(hs[0]),)
        else:
            h_sum = sum(hs[1:], hs[0])
            # All children's forget gates with one matrix product, then one block per child.
            forget = split_axis(self.W_h_f(concat(hs, axis=0)), n_children, axis=0)
        aio = x_aio + self.W_h_aio(h_sum)
        gates = concat([aio, *(x_f + f for f in forget)], axis=1)
        return tree_lstm(*cs, gates)


class NaryTreeLSTM(link.Chain):
    """N-ary TreeLSTM unit: a node with exactly ``n_ary`` ordered children.

    The pre-activations of all gates are ``W_x(x) + sum_k W_h{k}(h_k)``, in blocks ``a, i,
    o, f_1 .. f_n``; a missing child (``None`` cell or output) contributes nothing.

    Args:
        in_size: Dimension of the node input ``x``.
        out_size: Dimension of the cell and output.
        n_ary: Number of children.

    Attributes:
        W_x (~chainer.links.Linear): Input to the gates, ``((3 + n_ary) out, in)``, biased.
        W_h1 (~chainer.links.Linear): Child 1's output to the gates,
            ``((3 + n_ary) out, out)``, no bias; ``W_h2`` ... ``W_h{n_ary}`` likewise for
            the other children.

    Example:
        >>> tree = L.NaryTreeLSTM(3, 2, n_ary=2)
        >>> c1 = h1 = numpy.zeros((4, 2), numpy.float32)
        >>> c, h = tree(c1, None, h1, None, numpy.ones((4, 3), numpy.float32))
        >>> c.shape
        (4, 2)
    """

    def __init__(self, in_size: int | None, out_size: int, n_ary: int = 2) -> None:
        if n_ary < 1:
            raise ValueError(f"NaryTreeLSTM needs n_ary >= 1 children, got n_ary={n_ary}")
        super().__init__()
        self.in_size = in_size
        self.state_size = out_size
        self.n_ary = n_ary
        with self.init_scope():
            self.W_x = Linear(in_size, (3 + n_ary) * out_size)
            for k in range(1, n_ary + 1):
                setattr(self, f"W_h{k}", Linear(out_size, (3 + n_ary) * out_size, nobias=True))

    def forward(self, *cshsx: tp.Any) -> tuple[Variable, Variable]:
        """Merge the children of a node.

        Args:
            cshsx: The children's cells ``c_1 .. c_n``, their outputs ``h_1 .. h_n`` (each
                ``(B, out_size)`` or ``None`` for a missing child) and the node input ``x``
                ``(B, in_size)`` or ``None`` for zeros; ``n = n_ary``.

        Returns:
            ``(c, h)``: the node's cell and output, ``(B, out_size)`` each.

        Raises:
            ValueError: Not ``2 n_ary + 1`` arguments, or all of them are ``None``.
        """
        if len(cshsx) != 2 * self.n_ary + 1:
            raise ValueError(
                f"NaryTreeLSTM with n_ary={self.n_ary} takes {2 * self.n_ary + 1} arguments "
                f"(c_1..c_n, h_1..h_n, x), got {len(cshsx)}"
            )
        cs, hs = cshsx[: self.n_ary], cshsx[self.n_ary : -1]
        x = _input_or_zeros(self, cshsx[-1], cs + hs)
        gates = self.W_x(x)
        for k, h in enumerate(hs, start=1):
            if h is not None:
                gates += getattr(self, f"W_h{k}")(h)
        return tree_lstm(*_zeros_for_missing(self, cs, x), gates)
