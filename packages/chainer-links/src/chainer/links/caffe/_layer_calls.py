"""The callables a :class:`~chainer.links.caffe.CaffeFunction` runs for its layers.

Functions are looked up in :mod:`chainer.functions` on every call (not when the model is read),
so what runs is always the current ``chainer.functions.<name>``.
"""

from __future__ import annotations

import functools
import operator
import typing as tp

import chainer
from chainer import functions


class FunctionCall:
    """Calls ``chainer.functions.<name>(*bottoms, *args, **kwargs)``.

    ``pack_inputs`` passes the bottoms as one tuple (``concat``); ``use_cudnn`` sets
    ``chainer.config.use_cudnn`` during the call (Caffe's ``engine`` field).
    """

    def __init__(
        self,
        name: str,
        *args: tp.Any,
        pack_inputs: bool = False,
        use_cudnn: str | None = None,
        **kwargs: tp.Any,
    ) -> None:
        self.name = name
        self.args = args
        self.kwargs = kwargs
        self.pack_inputs = pack_inputs
        self.use_cudnn = use_cudnn

    def __call__(self, *xs: tp.Any) -> tp.Any:
        function = getattr(functions, self.name)
        inputs = (xs,) if self.pack_inputs else xs
        if self.use_cudnn is None:
            return function(*inputs, *self.args, **self.kwargs)
        with chainer.using_config("use_cudnn", self.use_cudnn):
            return function(*inputs, *self.args, **self.kwargs)


class GlobalPooling(FunctionCall):
    """Pools each input over its whole spatial extent (Caffe's ``global_pooling``)."""

    def __call__(self, x: tp.Any) -> tp.Any:
        return getattr(functions, self.name)(x, x.shape[2:], **self.kwargs)


class CaffeReshape:
    """Caffe's Reshape: ``0`` copies the input's axis, ``-1`` is inferred, and only the axes
    ``axis .. axis + num_axes`` (all after ``axis`` when ``num_axes`` is -1) are replaced."""

    def __init__(self, dims: list[int], axis: int, num_axes: int) -> None:
        self.dims = dims
        self.axis = axis
        self.num_axes = num_axes

    def __call__(self, x: tp.Any) -> tp.Any:
        ndim = len(x.shape)
        start = self.axis + ndim + 1 if self.axis < 0 else self.axis
        end = ndim if self.num_axes == -1 else start + self.num_axes
        if not 0 <= start <= end <= ndim:
            raise ValueError(
                f"Reshape with axis={self.axis}, num_axes={self.num_axes} does not fit an "
                f"input of shape {x.shape}"
            )
        middle = [x.shape[start + i] if d == 0 else d for i, d in enumerate(self.dims)]
        return functions.reshape(x, (*x.shape[:start], *middle, *x.shape[end:]))


class EltwiseCall:
    """Caffe's Eltwise layer: product, (weighted) sum or maximum of its bottoms."""

    PROD, SUM, MAX = 0, 1, 2

    def __init__(self, operation: int, coeffs: list[float] | None, layer_name: str) -> None:
        if operation not in (self.PROD, self.SUM, self.MAX):
            raise ValueError(f"Eltwise layer {layer_name!r}: unknown operation {operation}")
        self.operation = operation
        self.coeffs = coeffs
        self.layer_name = layer_name

    def __call__(self, *xs: tp.Any) -> tp.Any:
        if self.operation == self.PROD:
            return functools.reduce(operator.mul, xs)
        if self.operation == self.MAX:
            return functools.reduce(lambda a, b: functions.maximum(a, b), xs)
        if self.coeffs is not None:
            if len(self.coeffs) != len(xs):
                # AssertionError as in Chainer v7, which asserted this.
                raise AssertionError(
                    f"Eltwise layer {self.layer_name!r} has {len(self.coeffs)} coefficients "
                    f"for {len(xs)} bottoms: Caffe needs one coefficient per bottom"
                )
            xs = tuple(x * coeff for x, coeff in zip(xs, self.coeffs))
        return functools.reduce(operator.add, xs)


class ChildLinkCall:
    """Calls the child link ``name`` of ``chain``; ``test_mode`` forces ``train=False``."""

    def __init__(self, chain: chainer.Chain, name: str, test_mode: bool = False, **kwargs) -> None:
        self.chain = chain
        self.name = name
        self.test_mode = test_mode
        self.kwargs = kwargs

    def __call__(self, *xs: tp.Any) -> tp.Any:
        child = getattr(self.chain, self.name)
        if not self.test_mode:
            return child(*xs, **self.kwargs)
        with chainer.using_config("train", False):
            return child(*xs, **self.kwargs)
