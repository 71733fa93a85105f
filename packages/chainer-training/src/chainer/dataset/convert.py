"""Batch conversion: turn a list of examples into arrays on a device.

:func:`concat_examples` is the default converter of updaters and evaluators.
:class:`ConcatWithAsyncTransfer` does the same and overlaps the host-to-GPU copy with other
GPU work. :func:`converter` turns a plain function into a :class:`Converter`, which receives
the target device as a :class:`chainer.backend.Device` whatever the caller passed.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy

from chainer import backend
from chainer.backends import cuda


class Converter:
    """Base class of converters.

    A converter receives a mini-batch retrieved from an iterator and a device, and returns
    the batch transformed and sent to that device. Subclasses override :meth:`__call__`.
    See :func:`converter` to make one from a function.
    """

    def __call__(self, batch: Any, device: backend.Device | None) -> Any:
        """Convert ``batch`` and send it to ``device`` (``None``: leave it where it is)."""
        raise NotImplementedError(f"{type(self).__name__} must implement __call__")


class _ArbitraryCallableConverter(Converter):
    """Converter to wrap a callable with arbitrary arguments.

    The arguments are passed through to the callable, except that the device (the second
    positional argument or the ``device`` keyword) is first turned into a
    :class:`chainer.backend.Device`.
    """

    def __init__(self, base_callable: Callable) -> None:
        if not callable(base_callable):
            raise TypeError(
                f"converter() can only wrap a callable, got {type(base_callable).__name__}"
            )
        self.base_callable = base_callable

    def __reduce__(self) -> str | tuple:
        # A decorated module-level function is pickled by reference to its name (the wrapped
        # function itself cannot be: its module attribute is this converter).
        module = sys.modules.get(getattr(self, "__module__", None) or "")
        name = getattr(self, "__qualname__", None)
        if name is not None and getattr(module, name, None) is self:
            return name
        return type(self), (self.base_callable,)

    def __call__(self, *args, **kwargs):
        if len(args) >= 2:
            args = (args[0], _as_device(args[1]), *args[2:])
        elif "device" in kwargs:
            kwargs["device"] = _as_device(kwargs["device"])
        return self.base_callable(*args, **kwargs)


def converter() -> Callable[[Callable], Converter]:
    """Decorator to make a converter.

    The decorated function must take the batch and the device as its first two arguments and
    return the converted batch. The decorator returns a :class:`Converter` that calls the
    function with the device turned into a :class:`chainer.backend.Device` (or ``None``), so
    the function also works for callers that pass an old-style integer device id (negative:
    CPU, otherwise that CUDA device) or a device specifier string.

    Example:
        >>> @chainer.dataset.converter()
        ... def to_float(batch, device):
        ...     return device.send(numpy.asarray(batch, numpy.float32))
    """

    def decorator(function: Callable) -> Converter:
        wrapped = _ArbitraryCallableConverter(function)
        # Not functools.update_wrapper: its __wrapped__ would make inspect report the
        # function's signature instead of the converter's (*args, **kwargs).
        for name in ("__module__", "__name__", "__qualname__", "__doc__"):
            if hasattr(function, name):
                setattr(wrapped, name, getattr(function, name))
        return wrapped

    return decorator


def _as_device(device_spec: Any) -> backend.Device | None:
    if device_spec is None:
        return None
    return backend.get_device(device_spec)


def _call_converter(converter: Callable, batch: Any, device: backend.Device | None) -> Any:
    """Call ``converter`` as updaters and evaluators do, old-style converters included.

    A :class:`Converter` receives the device as it is. A plain function is called as
    ``converter(batch, device)`` with ``None`` (no device), ``-1`` for the CPU or the CUDA
    device id, as before devices were objects; it cannot target ChainerX.
    """
    if isinstance(converter, Converter):
        return converter(batch, device)
    if device is None:
        return converter(batch, None)
    if isinstance(device, backend.CpuDevice):
        return converter(batch, -1)
    if isinstance(device, backend.GpuDevice):
        return converter(batch, device.device.id)
    raise RuntimeError(
        f"the converter {converter!r} is a plain function, which only understands integer "
        f"device ids and so cannot send a batch to {device}; decorate it with "
        "@chainer.dataset.converter()"
    )


def to_device(device: Any, x: Any) -> Any:
    """Send an array to a given device.

    Args:
        device: ``None`` to leave ``x`` where it is, a negative integer for the CPU, a
            non-negative integer for that CUDA device, or any device specifier accepted by
            :func:`chainer.get_device` (a :class:`~chainer.backend.Device` included).
        x: An array, or ``None``, or a nested list / tuple / dict of them.

    Returns:
        ``x`` on the device (without a copy when it is already there).
    """
    if device is None:
        return x
    return backend.get_device(device).send(x)


@converter()
def concat_examples(batch: Sequence, device: Any = None, padding: Any = None) -> Any:
    """Concatenate a list of examples into arrays, one per example element.

    The examples must all have the structure of the first one:

    * arrays (or scalars): the result is one array of shape ``(len(batch),) + shape``;
    * tuples of arrays: the result is a tuple of such arrays, one per tuple position;
    * dicts of arrays: the result is a dict of such arrays, one per key.

    Args:
        batch: The examples, e.g. a mini-batch returned by an iterator.
        device: Where to send the arrays: ``None`` (leave them on the device of the
            examples), a negative integer (CPU), a CUDA device id, or a device specifier.
        padding: ``None`` to require equal shapes, or a scalar to pad smaller arrays with, at
            the end of every axis, up to the largest shape of the batch. For tuple and dict
            examples it can be a tuple or dict giving one value per element.

    Returns:
        An array, a tuple of arrays or a dict of arrays, following the example structure.

    Example:
        >>> concat_examples([(numpy.zeros(2), 0), (numpy.ones(2), 1)])
        (array([[0., 0.],
               [1., 1.]]), array([0, 1]))
        >>> concat_examples([numpy.ones(1), numpy.ones(3)], padding=-1)
        array([[ 1., -1., -1.],
               [ 1.,  1.,  1.]])
    """
    if len(batch) == 0:
        raise ValueError("concat_examples: the batch is empty")
    first = batch[0]
    if isinstance(first, tuple):
        paddings = _tuple_paddings(padding, len(first))
        _check_tuple_examples(batch, len(first))
        return tuple(
            to_device(device, _concat_arrays([example[i] for example in batch], paddings[i]))
            for i in range(len(first))
        )
    if isinstance(first, dict):
        paddings = _dict_paddings(padding, first)
        _check_dict_examples(batch, first.keys())
        return {
            key: to_device(device, _concat_arrays([example[key] for example in batch], pad))
            for key, pad in paddings.items()
        }
    return to_device(device, _concat_arrays(batch, padding))


def _tuple_paddings(padding: Any, length: int) -> tuple:
    if not isinstance(padding, tuple):
        return (padding,) * length
    if len(padding) != length:
        raise ValueError(
            f"concat_examples: padding has {len(padding)} values but the examples are tuples "
            f"of {length} elements"
        )
    return padding


def _dict_paddings(padding: Any, first: dict) -> dict:
    if not isinstance(padding, dict):
        return dict.fromkeys(first, padding)
    if padding.keys() != first.keys():
        raise ValueError(
            f"concat_examples: padding has the keys {sorted(padding)} but the examples have "
            f"the keys {sorted(first)}"
        )
    return {key: padding[key] for key in first}


def _check_tuple_examples(batch: Sequence, length: int) -> None:
    for index, example in enumerate(batch):
        if not isinstance(example, tuple) or len(example) != length:
            raise ValueError(
                f"concat_examples: the first example is a tuple of {length} elements but "
                f"example {index} is {_describe(example)}"
            )


def _check_dict_examples(batch: Sequence, keys) -> None:
    for index, example in enumerate(batch):
        if not isinstance(example, dict) or example.keys() != keys:
            raise ValueError(
                f"concat_examples: the first example is a dict with the keys {sorted(keys)} "
                f"but example {index} is {_describe(example)}"
            )


def _describe(example: Any) -> str:
    if isinstance(example, tuple):
        return f"a tuple of {len(example)} elements"
    if isinstance(example, dict):
        return f"a dict with the keys {sorted(example)}"
    return f"a {type(example).__name__}"


def _concat_arrays(arrays: Sequence, padding: Any):
    if not isinstance(arrays[0], backend.get_array_types()):
        # Python scalars, lists or NumPy scalars: make NumPy arrays of them.
        if padding is None:
            try:
                return numpy.asarray(arrays)
            except ValueError as error:
                raise ValueError(
                    f"concat_examples: the examples do not form one array ({error}); pass "
                    "padding= to pad them to a common shape"
                ) from None
        arrays = [numpy.asarray(array) for array in arrays]
    if padding is not None:
        return _concat_with_padding(arrays, padding)
    shapes = {tuple(array.shape) for array in arrays}
    if len(shapes) > 1:
        raise ValueError(
            f"concat_examples: the arrays to concatenate have different shapes {sorted(shapes)}; "
            "pass padding= to pad them to a common shape"
        )
    device = backend.get_device_from_array(arrays[0])
    with backend.using_device(device):
        return device.xp.stack(arrays)


def _concat_with_padding(arrays: Sequence, padding: Any):
    ndims = {array.ndim for array in arrays}
    if len(ndims) > 1:
        raise ValueError(
            "concat_examples: padding needs arrays of one number of dimensions, got "
            f"{sorted(ndims)}"
        )
    shape = tuple(numpy.max([array.shape for array in arrays], axis=0).tolist())
    device = backend.get_device_from_array(arrays[0])
    with backend.using_device(device):
        result = device.xp.full((len(arrays), *shape), padding, dtype=arrays[0].dtype)
        for i, array in enumerate(arrays):
            result[(i, *(slice(size) for size in array.shape))] = array
    return result


class ConcatWithAsyncTransfer:
    """Interface to concatenate data and transfer them to GPU asynchronously.

    It converts a batch as :func:`concat_examples` does. When the target is a CUDA device, the
    concatenated arrays are staged in pinned host memory and copied on a separate CUDA
    stream, so that the copy overlaps with GPU work on ``compute_stream``. For any other
    device (``None``, CPU, ChainerX) it is exactly :func:`concat_examples`.

    One instance serves one device: calling it with a different device than the first call
    raises :class:`ValueError`.

    Args:
        stream: The CUDA stream of the copies; a new non-blocking stream when ``None``.
        compute_stream: The CUDA stream that consumes the arrays. It is made to wait for the
            copies, so the call returns without blocking the host. When ``None``, the call
            blocks until the copies are done.

    Example:
        The transfer needs a GPU and CuPy, so the updater line is not run here.

        >>> converter = ConcatWithAsyncTransfer()
        >>> updater = chainer.training.updaters.StandardUpdater(  # doctest: +SKIP
        ...     train_iter, optimizer, converter=converter, device=0)
    """

    def __init__(self, stream: Any = None, compute_stream: Any = None) -> None:
        self._stream = stream
        self.compute_stream = compute_stream
        self._device: Any = None
        self._device_fixed = False  # whether a first call chose the device
        self._pinned: dict = {}  # column key -> reusable pinned host buffer
        self._event = None  # completion of the previous copies, which use the pinned buffers

    def __call__(self, batch: Sequence, device: Any = None, padding: Any = None) -> Any:
        """Concatenate ``batch`` (see :func:`concat_examples`) and send it to ``device``."""
        if len(batch) == 0:
            raise ValueError("ConcatWithAsyncTransfer: the batch is empty")
        device = _as_device(device)
        if not self._device_fixed:
            self._device, self._device_fixed = device, True
        elif device != self._device:
            raise ValueError(
                f"ConcatWithAsyncTransfer was first called with device {self._device} and now "
                f"with {device}; use one instance per device"
            )
        if not isinstance(device, backend.GpuDevice):
            return concat_examples(batch, device, padding)
        return self._send_async(concat_examples(batch, None, padding), device)

    def _send_async(self, host_batch: Any, device: backend.GpuDevice) -> Any:
        with device.create_context():
            if self._stream is None:
                self._stream = cuda.Stream(non_blocking=True)
            if self._event is not None:
                self._event.synchronize()  # the pinned buffers are free again
            if isinstance(host_batch, tuple):
                result: Any = tuple(self._upload(i, a) for i, a in enumerate(host_batch))
            elif isinstance(host_batch, dict):
                result = {key: self._upload(key, a) for key, a in host_batch.items()}
            else:
                result = self._upload(None, host_batch)
            self._event = self._stream.record()
            if self.compute_stream is not None:
                self.compute_stream.wait_event(self._event)
            else:
                self._event.synchronize()
        return result

    def _upload(self, key: Any, host: numpy.ndarray):
        cupy = cuda.cupy
        gpu = cupy.empty(host.shape, host.dtype)
        if host.nbytes == 0:
            return gpu
        buffer = self._pinned.get(key)
        if buffer is None or buffer.nbytes < host.nbytes:
            memory = cupy.cuda.alloc_pinned_memory(host.nbytes)
            buffer = self._pinned[key] = numpy.frombuffer(memory, numpy.uint8, host.nbytes)
        staged = buffer[: host.nbytes].view(host.dtype).reshape(host.shape)
        staged[...] = host
        gpu.set(staged, stream=self._stream)
        return gpu
