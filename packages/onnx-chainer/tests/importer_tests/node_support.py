"""Single-node ONNX models built with onnx.helper: import, compare with onnxruntime, check
gradients of the imported model numerically (first and second order)."""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import onnx
import onnxruntime
import pytest
from onnx import helper

import chainer
import onnx_chainer
from chainer import gradient_check
from onnx_chainer.mapping import onnx_type


@dataclasses.dataclass
class NodeCase:
    """One node: ``inputs`` are ``(name, array)``; a name starting with ``i:`` becomes an
    initializer, ``""`` a missing optional input. ``grad``: which inputs (by position) get
    gradient-checked; the initializers always are when floating point."""

    id: str
    op: str
    opset: int
    inputs: list
    attrs: dict = dataclasses.field(default_factory=dict)
    outputs: int = 1
    grad: tuple[int, ...] | None = ()
    double_grad: bool = True
    #: Run onnx.checker (it refuses operator versions it calls deprecated).
    check: bool = True
    tolerance: dict = dataclasses.field(default_factory=lambda: {"rtol": 1e-4, "atol": 1e-5})

    def param(self):
        return pytest.param(self, id=f"{self.id}-opset{self.opset}")


def _value_info(name: str, array: np.ndarray):
    return helper.make_tensor_value_info(name, onnx_type(array.dtype), array.shape)


def node_model(case: NodeCase, cast=None) -> tuple[onnx.ModelProto, dict]:
    """The case as a model and the feeds of its graph inputs (``cast`` maps float arrays)."""
    cast = cast or (lambda a: a)
    names, graph_inputs, initializers, feeds = [], [], [], {}
    for name, array in case.inputs:
        if not name:
            names.append("")
            continue
        array = np.asarray(array)
        array = cast(array) if array.dtype.kind == "f" else array
        if name.startswith("i:"):
            name = name[2:]
            initializers.append(onnx.numpy_helper.from_array(array, name))
        else:
            graph_inputs.append(_value_info(name, array))
            feeds[name] = array
        names.append(name)
    outputs = [f"y{i}" for i in range(case.outputs)]
    node = helper.make_node(case.op, names, outputs, name="node", **case.attrs)
    graph = helper.make_graph(
        [node],
        case.id,
        graph_inputs,
        [helper.make_empty_tensor_value_info(o) for o in outputs],
        initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", case.opset)])
    model.ir_version = 8
    return model, feeds


def run_onnxruntime(model: onnx.ModelProto, feeds: dict) -> list[np.ndarray]:
    session = onnxruntime.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return session.run(None, feeds)


def _as_tuple(value):
    return value if isinstance(value, tuple) else (value,)


def _typed_outputs(model: onnx.ModelProto, like: list[np.ndarray], float_dtype=None) -> None:
    """Give the graph outputs the types of onnxruntime's results (the checker wants them)."""
    del model.graph.output[:]
    for i, array in enumerate(like):
        dtype = float_dtype if float_dtype and array.dtype.kind == "f" else array.dtype
        model.graph.output.append(
            helper.make_tensor_value_info(f"y{i}", onnx_type(dtype), array.shape)
        )


def check_against_onnxruntime(case: NodeCase) -> list[np.ndarray]:
    model, feeds = node_model(case)
    expected = run_onnxruntime(model, feeds)
    _typed_outputs(model, expected)
    imported = onnx_chainer.import_model(model, check=case.check)
    with chainer.using_config("train", False):
        actual = _as_tuple(imported(**feeds))
    assert len(actual) == len(expected)
    for got, want in zip(actual, expected):
        assert got.shape == want.shape, (got.shape, want.shape)
        assert got.dtype == want.dtype, (got.dtype, want.dtype)
        if want.dtype.kind == "f":
            np.testing.assert_allclose(got.array, want, **case.tolerance)
        else:
            np.testing.assert_array_equal(got.array, want)
    return expected


def check_gradients(case: NodeCase, like: list[np.ndarray]) -> None:
    """Numerical gradients of the float64 model w.r.t. the chosen inputs and its parameters."""
    model, feeds = node_model(case, cast=lambda a: a.astype(np.float64))
    _typed_outputs(model, like, np.float64)
    imported = onnx_chainer.import_model(model, check=case.check)
    names = list(feeds)
    data_positions = [i for i, (name, _) in enumerate(case.inputs) if name and name[:2] != "i:"]
    checked = [names[data_positions.index(p)] for p in case.grad]
    fixed = {k: v for k, v in feeds.items() if k not in checked}

    def forward(*xs):  # the floating-point outputs (indices have no gradient)
        with chainer.using_config("train", False):
            outputs = _as_tuple(imported(**fixed, **dict(zip(checked, xs))))
        return tuple(o for o in outputs if o.dtype.kind == "f")

    xs = [feeds[name] for name in checked]
    rng = np.random.RandomState(0)
    gys = [rng.uniform(-1, 1, o.shape) for o in forward(*xs)]
    params = list(imported.params())
    gradient_check.check_backward(
        forward, xs, gys, params=params, dtype=np.float64, atol=1e-4, rtol=1e-4, eps=1e-4
    )
    if case.double_grad:
        ggxs = [rng.uniform(-1, 1, x.shape) for x in xs]
        ggparams = [rng.uniform(-1, 1, p.shape) for p in params]
        gradient_check.check_double_backward(
            forward,
            xs,
            gys,
            ggxs,
            params=params,
            params_grad_grad=ggparams,
            dtype=np.float64,
            atol=1e-3,
            rtol=1e-3,
            eps=1e-4,
        )


def run_case(case: NodeCase) -> None:
    expected = check_against_onnxruntime(case)
    float_initializers = [
        n for n, a in case.inputs if n.startswith("i:") and np.asarray(a).dtype.kind == "f"
    ]
    if case.grad or (case.grad is not None and float_initializers):
        check_gradients(case, expected)


def assert_round_trip(model, args, opset: int, **tolerance):
    """Export ``model`` at ``opset``, import it back, compare the outputs with Chainer's;
    return the imported model."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # approximate-export warnings
        onnx_model, inputs, outputs = onnx_chainer.export(
            model, args, opset_version=opset, return_named_inout=True
        )
    imported = onnx_chainer.import_model(onnx_model)
    with chainer.using_config("train", False):
        got = imported(**dict(inputs))
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(outputs)
    for actual, expected in zip(got, outputs.values()):
        expected = np.asarray(expected.array)
        assert actual.shape == expected.shape, (actual.shape, expected.shape)
        if expected.dtype.kind == "f":
            np.testing.assert_allclose(
                actual.array, expected, **(tolerance or {"rtol": 1e-5, "atol": 1e-6})
            )
        else:
            np.testing.assert_array_equal(actual.array, expected)
    return imported


def rand(*shape, low=-1.0, high=1.0, seed=0):
    return np.random.RandomState(seed + sum(shape)).uniform(low, high, shape).astype(np.float32)


def ints(values, dtype=np.int64):
    return np.array(values, dtype=dtype)
