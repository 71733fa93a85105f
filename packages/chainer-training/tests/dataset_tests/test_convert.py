"""concat_examples, to_device, converters and ConcatWithAsyncTransfer (CPU paths)."""

import inspect
import pickle

import numpy
import pytest

import chainer
from chainer import backend
from chainer.dataset import (
    ConcatWithAsyncTransfer,
    Converter,
    concat_examples,
    converter,
    to_device,
)
from chainer.dataset.convert import _call_converter


def test_arrays_are_stacked_along_a_new_first_axis():
    batch = [numpy.full((2, 3), i, numpy.float32) for i in range(4)]
    result = concat_examples(batch)
    numpy.testing.assert_array_equal(result, numpy.stack(batch))
    assert result.dtype == numpy.float32


def test_tuple_examples_give_a_tuple_of_arrays():
    batch = [(numpy.array([i, i + 1]), i, float(i) / 2) for i in range(3)]
    x, t, w = concat_examples(batch)
    numpy.testing.assert_array_equal(x, [[0, 1], [1, 2], [2, 3]])
    numpy.testing.assert_array_equal(t, [0, 1, 2])
    numpy.testing.assert_array_equal(w, [0.0, 0.5, 1.0])


def test_dict_examples_give_a_dict_of_arrays():
    batch = [{"x": numpy.array([i]), "y": -i} for i in range(2)]
    result = concat_examples(batch)
    assert sorted(result) == ["x", "y"]
    numpy.testing.assert_array_equal(result["x"], [[0], [1]])
    numpy.testing.assert_array_equal(result["y"], [0, -1])


def test_padding_pads_every_axis_at_the_end():
    a = numpy.arange(2).reshape(1, 2)
    b = numpy.arange(6).reshape(3, 2) + 10
    c = numpy.arange(3).reshape(1, 3) + 20
    expected = numpy.full((3, 3, 3), -1)
    expected[0, :1, :2] = a
    expected[1, :3, :2] = b
    expected[2, :1, :3] = c
    numpy.testing.assert_array_equal(concat_examples([a, b, c], padding=-1), expected)


def test_padding_per_tuple_element_and_per_dict_key():
    batch = [(numpy.ones(1), numpy.ones(2)), (numpy.ones(2), numpy.ones(1))]
    x, y = concat_examples(batch, padding=(0, 9))
    numpy.testing.assert_array_equal(x, [[1, 0], [1, 1]])
    numpy.testing.assert_array_equal(y, [[1, 1], [1, 9]])
    result = concat_examples([{"a": [1]}, {"a": [1, 2]}], padding={"a": 5})
    numpy.testing.assert_array_equal(result["a"], [[1, 5], [1, 2]])


def test_padding_keeps_the_first_example_dtype():
    result = concat_examples([numpy.ones(1, numpy.int8), numpy.ones(2, numpy.int8)], padding=0)
    assert result.dtype == numpy.int8


def test_device_argument_sends_to_cpu_for_negative_ids_and_specifiers():
    batch = [(numpy.ones(2), 1)]
    for device in (-1, "@numpy", backend.CpuDevice(), numpy):
        x, t = concat_examples(batch, device)
        assert isinstance(x, numpy.ndarray) and isinstance(t, numpy.ndarray)


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match="the batch is empty"):
        concat_examples([])
    with pytest.raises(ValueError, match=r"different shapes \[\(2,\), \(3,\)\]; pass padding="):
        concat_examples([numpy.ones(2), numpy.ones(3)])
    with pytest.raises(ValueError, match="do not form one array"):
        concat_examples([[1], [1, 2]])
    with pytest.raises(ValueError, match="example 1 is a tuple of 1 elements"):
        concat_examples([(1, 2), (1,)])
    with pytest.raises(ValueError, match=r"example 1 is a dict with the keys \['b'\]"):
        concat_examples([{"a": 1}, {"b": 2}])
    with pytest.raises(ValueError, match="padding has 3 values but the examples are tuples of 2"):
        concat_examples([(1, 2)], padding=(0, 0, 0))
    with pytest.raises(ValueError, match="one number of dimensions"):
        concat_examples([numpy.ones(2), numpy.ones((2, 2))], padding=0)


def test_concat_examples_is_a_converter_with_the_chainer_signature():
    assert isinstance(concat_examples, Converter)
    assert str(inspect.signature(concat_examples)) == "(*args, **kwargs)"
    assert concat_examples.__name__ == "concat_examples"
    assert "Concatenate a list of examples" in concat_examples.__doc__


def test_to_device():
    x = numpy.arange(3)
    assert to_device(None, x) is x
    assert to_device(-1, x) is x
    assert to_device("@numpy", [x, None])[0] is x
    with pytest.raises(ValueError, match="invalid device specifier '@bogus'"):
        to_device("@bogus", x)


def test_converter_decorator_hands_the_function_a_device_object():
    seen = []

    @converter()
    def record(batch, device, scale=1):
        seen.append(device)
        return [b * scale for b in batch]

    assert isinstance(record, Converter)
    assert record([1, 2], -1, scale=3) == [3, 6]
    assert record([1], device="@numpy") == [1]
    assert record([1], None) == [1]
    assert seen == [backend.CpuDevice(), backend.CpuDevice(), None]
    assert record.__name__ == "record"


def test_converter_decorator_rejects_non_callables():
    with pytest.raises(TypeError, match="can only wrap a callable, got int"):
        converter()(3)


def test_call_converter_speaks_both_styles():
    calls = []

    def old_style(batch, device):  # v7's protocol: the device is always passed
        calls.append(device)
        return batch

    cpu = backend.CpuDevice()
    _call_converter(old_style, [1], cpu)
    _call_converter(old_style, [1], None)
    assert calls == [-1, None]

    class NewStyle(Converter):
        def __call__(self, batch, device):
            calls.append(device)
            return batch

    _call_converter(NewStyle(), [1], cpu)
    assert calls[-1] is cpu

    class FakeChainerxDevice(backend.Device):
        name = "native:0"

    with pytest.raises(RuntimeError, match=r"cannot send a batch to native:0; decorate it"):
        _call_converter(old_style, [1], FakeChainerxDevice())


def test_converter_base_call_is_abstract():
    with pytest.raises(NotImplementedError, match="Converter must implement __call__"):
        Converter()([1], None)


def test_async_transfer_on_cpu_is_concat_examples():
    convert = ConcatWithAsyncTransfer()
    batch = [(numpy.ones((2,)) * i, i) for i in range(3)]
    for result, expected in zip(convert(batch), concat_examples(batch)):
        numpy.testing.assert_array_equal(result, expected)
    numpy.testing.assert_array_equal(
        convert([numpy.ones(1), numpy.ones(2)], None, 0), [[1, 0], [1, 1]]
    )


def test_async_transfer_refuses_a_second_device_and_empty_batches():
    convert = ConcatWithAsyncTransfer()
    convert([numpy.ones(1)], None)
    with pytest.raises(ValueError, match="first called with device None and now with @numpy"):
        convert([numpy.ones(1)], "@numpy")
    with pytest.raises(ValueError, match="the batch is empty"):
        convert([], None)


@pytest.mark.gpu
def test_async_transfer_to_gpu_matches_concat_examples():
    if not chainer.backends.cuda.available:
        pytest.skip("CUDA is not available")
    cupy = chainer.backends.cuda.cupy
    convert = ConcatWithAsyncTransfer()
    batch = [(numpy.arange(4.0) + i, i) for i in range(3)]
    for _ in range(2):  # the second call reuses the pinned buffers
        x, t = convert(batch, 0)
        assert isinstance(x, cupy.ndarray)
        numpy.testing.assert_array_equal(x.get(), concat_examples(batch)[0])
        numpy.testing.assert_array_equal(t.get(), [0, 1, 2])


def test_decorated_module_level_converters_pickle_by_reference():
    assert pickle.loads(pickle.dumps(concat_examples)) is concat_examples
    restored = pickle.loads(pickle.dumps(ConcatWithAsyncTransfer()))
    batch = [numpy.arange(3), numpy.arange(3) + 1]
    numpy.testing.assert_array_equal(restored(batch, None), numpy.stack(batch))
    used = ConcatWithAsyncTransfer()
    used(batch, None)
    again = pickle.loads(pickle.dumps(used))
    numpy.testing.assert_array_equal(again(batch), numpy.stack(batch))
    with pytest.raises(ValueError, match="first called with device None and now with"):
        again(batch, "@numpy")
