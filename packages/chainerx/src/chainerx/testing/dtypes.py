"""Named sets of the dtypes ChainerX supports, and a parametrization over dtype spellings."""

from collections.abc import Callable, Sequence
from typing import Any

import numpy

signed_integral_dtypes: tuple[str, ...] = ("int8", "int16", "int32", "int64")
unsigned_dtypes: tuple[str, ...] = ("uint8",)
integral_dtypes: tuple[str, ...] = signed_integral_dtypes + unsigned_dtypes
float_dtypes: tuple[str, ...] = ("float16", "float32", "float64")
nonfloat_dtypes: tuple[str, ...] = ("bool_",) + integral_dtypes
numeric_dtypes: tuple[str, ...] = integral_dtypes + float_dtypes
signed_dtypes: tuple[str, ...] = signed_integral_dtypes + float_dtypes
all_dtypes: tuple[str, ...] = ("bool_",) + numeric_dtypes


def parametrize_dtype_specifier(
    argname: str,
    dtypes: Sequence[str] | None = None,
    additional_args: Sequence[Any] | None = None,
) -> Callable[[Any], Any]:
    """Parametrizes a test over every way a user can spell each dtype.

    The argument takes the name (``'float32'``), the numpy.dtype and the scalar type
    (``numpy.float32``) of each dtype in ``dtypes`` (default: all of them).

    Args:
        argname: The test argument to parametrize.
        dtypes: Dtype names.
        additional_args: Further values of the argument, tried after the dtype spellings
            (for example ``(None,)`` for "no dtype given").
    """
    import pytest

    names = all_dtypes if dtypes is None else tuple(dtypes)
    specifiers = []
    for name in names:
        dt = numpy.dtype(name)
        specifiers.extend([name, dt, dt.type])
    return pytest.mark.parametrize(argname, specifiers + list(additional_args or ()))
