"""ChainerX: an ndarray with autograd implemented in C++, with a thin Python binding.

The array type is :class:`chainerx.ndarray`; routines follow NumPy's names and semantics, and
every differentiable routine records a graph when an input requires gradients::

    import chainerx as chx

    x = chx.array([1.0, 2.0, 3.0]).require_grad()
    y = (x * x).sum()
    y.backward()
    x.grad  # array([2., 4., 6.], ...)
"""

import builtins as _builtins

import numpy as _numpy

from chainerx import _core, linalg, random
from chainerx._activation import clipped_relu, crelu, elu, leaky_relu, softplus
from chainerx._constants import (
    NAN,
    NINF,
    NZERO,
    PINF,
    PZERO,
    Inf,
    Infinity,
    NaN,
    e,
    euler_gamma,
    inf,
    infty,
    nan,
    pi,
)
from chainerx._core import (
    Backend,
    BackendError,
    BackpropId,
    ChainerxError,
    Context,
    ContextError,
    Device,
    DeviceError,
    DimensionError,
    DtypeError,
    GradientError,
    IndexError,
    NotImplementedError,
    absolute,
    absolute_error,
    accuracy,
    add,
    all,
    amax,
    amin,
    any,
    anygraph,
    arange,
    arccos,
    arccosh,
    arcsin,
    arcsinh,
    arctan,
    arctan2,
    arctanh,
    argmax,
    argmin,
    array,
    asarray,
    ascontiguousarray,
    atleast_2d,
    atleast_3d,
    average_pool,
    backprop_scope,
    backward,
    batch_norm,
    bitwise_and,
    bitwise_not,
    bitwise_or,
    bitwise_xor,
    broadcast_to,
    build_info,
    ceil,
    clip,
    concatenate,
    conv,
    conv_transpose,
    copy,
    cos,
    cosh,
    diag,
    diagflat,
    divide,
    dot,
    dsplit,
    dstack,
    empty,
    empty_like,
    equal,
    erf,
    exp,
    exp2,
    expand_dims,
    expm1,
    eye,
    fabs,
    fixed_batch_norm,
    flip,
    fliplr,
    flipud,
    floor,
    floor_divide,
    force_backprop_mode,
    full,
    full_like,
    gaussian_kl_divergence,
    get_backend,
    get_default_context,
    get_default_device,
    get_device,
    get_global_default_context,
    grad,
    greater,
    greater_equal,
    hsplit,
    hstack,
    huber_loss,
    identity,
    invert,
    is_backprop_required,
    isfinite,
    isinf,
    isnan,
    left_shift,
    less,
    less_equal,
    linear,
    linspace,
    log,
    log1p,
    log2,
    log10,
    log_softmax,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    logsumexp,
    lstm,
    matmul,
    max_pool,
    maximum,
    mean,
    meshgrid,
    minimum,
    moveaxis,
    multiply,
    n_step_bigru,
    n_step_bilstm,
    n_step_birnn,
    n_step_gru,
    n_step_lstm,
    n_step_rnn,
    ndarray,
    negative,
    no_backprop_mode,
    nonzero,
    not_equal,
    ones,
    ones_like,
    power,
    ravel,
    reciprocal,
    relu,
    remainder,
    repeat,
    reshape,
    right_shift,
    set_default_device,
    sigmoid,
    sigmoid_cross_entropy,
    sign,
    sin,
    sinh,
    slstm,
    softmax,
    softmax_cross_entropy,
    split,
    sqrt,
    square,
    squared_error,
    squeeze,
    stack,
    subtract,
    sum,
    swapaxes,
    take,
    tan,
    tanh,
    to_numpy,
    transpose,
    tree_lstm,
    tri,
    tril,
    triu,
    true_divide,
    var,
    vsplit,
    vstack,
    where,
    zeros,
    zeros_like,
)
from chainerx._creation import (
    asanyarray,
    frombuffer,
    fromfile,
    fromfunction,
    fromiter,
    fromstring,
    loadtxt,
)
from chainerx._cumsum_and_hinge import cumsum, fmod, hinge
from chainerx._device import (
    DeviceScope,
    context_scope,
    set_default_context,
    set_global_default_context,
    using_device,
)
from chainerx._gradient_check import GradientCheckError, check_backward, check_double_backward
from chainerx._nan_reductions import count_nonzero, nanargmax, nanargmin, nansum
from chainerx._pickle import register as _register_pickling
from chainerx._shape_and_copy import copyto, rollaxis

_register_pickling()
del _register_pickling

abs = absolute
# As in NumPy, mod is remainder itself.
mod = remainder
# As in NumPy, max and min are the same functions as amax and amin.
max = amax
min = amin

# v7 kept NumPy's old aliases of the Python types (``chainerx.int is int``); left out of __all__.
bool = _builtins.bool
int = _builtins.int
float = _builtins.float

# Dtypes are NumPy's: ``chainerx.float32 is numpy.float32`` and ``ndarray.dtype`` is a numpy.dtype.
dtype = _numpy.dtype
bool_ = _numpy.bool_
int8 = _numpy.int8
int16 = _numpy.int16
int32 = _numpy.int32
int64 = _numpy.int64
uint8 = _numpy.uint8
float16 = _numpy.float16
float32 = _numpy.float32
float64 = _numpy.float64
all_dtypes = ("bool_", "int8", "int16", "int32", "int64", "uint8", "float16", "float32", "float64")

newaxis = None

__version__: str = build_info()["version"]


def is_available() -> bool:
    """Whether the compiled ChainerX core is usable: always True once ``import chainerx`` works.

    Chainer v7 shipped a Python stub when built without ChainerX and code (including its test
    suite) checks this before touching ChainerX; here the C++ core is always built.
    """
    return True


# Not star-exported: chainerx.IndexError and chainerx.NotImplementedError would replace the
# builtins they subclass, and `except IndexError` would then miss a list's IndexError.
__all__ = sorted(
    name
    for name in dir()
    if not name.startswith("_")
    and name not in {"annotations", "IndexError", "NotImplementedError", "bool", "int", "float"}
) + ["__version__"]
del _core
