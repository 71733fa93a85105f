"""The Python error hierarchy: every ChainerX error is a ChainerxError, and the ones with a
NumPy counterpart are that builtin too, so both kinds of `except` clause catch them."""

import builtins

import pytest

import chainerx


@pytest.mark.parametrize(
    ("name", "builtin"),
    [
        ("ContextError", None),
        ("BackendError", None),
        ("DeviceError", None),
        ("GradientError", None),
        ("DimensionError", builtins.ValueError),
        ("DtypeError", builtins.TypeError),
        ("NotImplementedError", builtins.NotImplementedError),
        ("IndexError", builtins.IndexError),
    ],
)
def test_hierarchy(name, builtin):
    error = getattr(chainerx, name)
    assert error.__module__ == "chainerx"
    assert error.__qualname__ == name
    assert issubclass(error, chainerx.ChainerxError)
    if builtin is not None:
        assert issubclass(error, builtin)
    assert error.__doc__


def test_out_of_bounds_index_is_chainerx_and_builtin_index_error():
    a = chainerx.arange(6).reshape(2, 3)
    with pytest.raises(
        chainerx.IndexError, match="index 2 is out of bounds for axis 0 with size 2"
    ):
        a[2]
    for catch in (IndexError, chainerx.ChainerxError):
        with pytest.raises(catch, match="index -4 is out of bounds for axis 1 with size 3"):
            chainerx.take(a, chainerx.array([0, -4]), 1)


def test_invalid_index_type_is_index_error():
    with pytest.raises(chainerx.IndexError, match="only integers, slices"):
        chainerx.zeros((2,))["a"]


def test_iteration_by_getitem_stops_at_the_end():
    # Python's legacy iteration protocol ends at the first IndexError from __getitem__.
    class Rows:
        def __init__(self, array):
            self.array = array

        def __getitem__(self, i):
            return self.array[i]

    rows = list(Rows(chainerx.arange(6).reshape(3, 2)))
    assert [chainerx.to_numpy(r).tolist() for r in rows] == [[0, 1], [2, 3], [4, 5]]


def test_star_import_keeps_the_builtin_exceptions():
    namespace: dict = {}
    exec("from chainerx import *", namespace)
    assert "IndexError" not in namespace and "NotImplementedError" not in namespace
    assert "ChainerxError" in namespace and "DimensionError" in namespace
