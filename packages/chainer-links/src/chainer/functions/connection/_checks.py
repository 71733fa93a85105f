"""Input checks shared by the connection functions, written as plain Python.

``FunctionNode.apply`` runs a node's ``_check_arrays`` on the raw input arrays: on the small
arrays of a host-bound model, building ``type_check`` expressions would cost more than the
product itself. The errors keep the ``Expect:``/``Actual:`` form of ``type_check``, and the
functions composed of other functions run the same checks under :func:`checking`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from chainer.configuration import config
from chainer.utils.type_check import InvalidType, get_function_check_context


def fail(expect: str, actual: str):
    """Raise ``InvalidType``; the function's name and inputs are added by the caller."""
    raise InvalidType(expect, actual)


def expect_count(in_data: tuple, low: int, high: int) -> None:
    """Require between ``low`` and ``high`` inputs."""
    n = len(in_data)
    if not low <= n <= high:
        fail(f"{low} <= in_types.size() <= {high}", f"in_types.size() == {n}")


def expect_float(array, name: str) -> None:
    kind = array.dtype.kind
    if kind != "f":
        fail(f"{name}.dtype.kind == f", f"{name}.dtype == {array.dtype}")


def expect_ndim(array, ndim: int, name: str) -> None:
    if array.ndim != ndim:
        fail(f"{name}.ndim == {ndim}", f"{name}.ndim == {array.ndim} ({name}.shape={array.shape})")


def expect_bias(b, x, n_out: int, out_text: str) -> None:
    """Require a 1-D bias of the dtype of ``x`` with one entry per output channel."""
    if b.dtype != x.dtype:
        fail("b.dtype == x.dtype", f"{b.dtype} != {x.dtype}")
    expect_ndim(b, 1, "b")
    if b.shape[0] != n_out:
        fail(f"b.shape[0] == {out_text}", f"{b.shape[0]} != {n_out}")


class _Label:
    def __init__(self, label: str) -> None:
        self.label = label


@contextlib.contextmanager
def checking(label: str) -> Iterator[bool]:
    """Name ``label`` in the ``InvalidType`` errors of a composed function's checks.

    Yields whether checks are enabled (``chainer.config.type_check``)::

        with checking("Bilinear") as enabled:
            if enabled:
                _check(e1, e2, W)
    """
    with get_function_check_context(_Label(label)):
        yield config.type_check
