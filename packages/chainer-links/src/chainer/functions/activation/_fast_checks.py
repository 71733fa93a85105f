"""Direct input checks for the hot activations (relu, sigmoid, tanh, softmax, log_softmax).

``FunctionNode.apply`` runs a node's ``_check_arrays`` on the raw input arrays instead of
building ``type_check`` expressions; on small arrays the expressions cost several times the
work of the activation itself. The messages keep the ``Expect:``/``Actual:`` form.
"""

from __future__ import annotations

from chainer.utils.type_check import InvalidType


def check_float_input(in_data: tuple) -> None:
    """Require exactly one floating-point input named ``x``."""
    if len(in_data) != 1:
        raise InvalidType("in_types.size() == 1", f"in_types.size() == {len(in_data)}")
    kind = in_data[0].dtype.kind
    if kind != "f":
        raise InvalidType("x.dtype.kind == f", f"x.dtype.kind == {kind} ({in_data[0].dtype})")


def check_axis(ndim: int, axis: int) -> None:
    """Require ``axis`` to index one of the ``ndim`` axes of ``x``."""
    if not -ndim <= axis < ndim:
        raise InvalidType("-x.ndim <= axis < x.ndim", f"axis == {axis}, x.ndim == {ndim}")
