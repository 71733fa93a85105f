"""Every converter at every opset it claims: export, full onnx check, onnxruntime == Chainer."""

from __future__ import annotations

import contextlib
import importlib.util
import pathlib
import types

import numpy as np
import onnx
import pytest

import onnx_chainer
from onnx_chainer.functions import registered

_HERE = pathlib.Path(__file__).parent


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, _HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _all_cases():
    """``cases`` and ``cases_extra`` as one namespace."""
    base, extra = _load("cases"), _load("cases_extra")
    return types.SimpleNamespace(
        CASES=base.CASES + extra.CASES,
        MIN_OPSET={**base.MIN_OPSET, **extra.MIN_OPSET},
        WARNS=base.WARNS | extra.WARNS,
        INEXACT_BELOW={**base.INEXACT_BELOW, **extra.INEXACT_BELOW},
        FLOAT32_ONLY=base.FLOAT32_ONLY | extra.FLOAT32_ONLY,
    )


cases = _all_cases()
OPSETS = range(onnx_chainer.MINIMUM_OPSET_VERSION, onnx_chainer.MAXIMUM_OPSET_VERSION + 1)


def _min_opset(case_id: str, function_name: str) -> int:
    return max(registered()[function_name].min_opset, cases.MIN_OPSET.get(case_id, 0))


PARAMS = [
    pytest.param(case_id, function_name, build, opset, id=f"{case_id}-opset{opset}")
    for case_id, function_name, build in cases.CASES
    for opset in OPSETS
]


@pytest.mark.parametrize("case_id,function_name,build,opset", PARAMS)
def test_converter_matches_chainer(case_id, function_name, build, opset, export_and_compare):
    model, args = build()
    if opset > registered()[function_name].max_opset:
        with pytest.raises(ValueError, match=f"supported up to opset .*you asked for {opset}"):
            onnx_chainer.export(model, args, opset_version=opset)
        return
    if opset < _min_opset(case_id, function_name):
        with pytest.raises(
            ValueError, match=r"opset \d+(, you asked for| or newer, you asked for) " + str(opset)
        ):
            onnx_chainer.export(model, args, opset_version=opset)
        return
    if opset < cases.INEXACT_BELOW.get(case_id, 0):
        with pytest.warns(UserWarning, match="differ"):
            onnx_model = onnx_chainer.export(model, args, opset_version=opset)
        onnx.checker.check_model(onnx_model, full_check=True)
        return
    expectation = pytest.warns(UserWarning) if case_id in cases.WARNS else contextlib.nullcontext()
    with expectation:
        onnx_model = export_and_compare(model, args, opset)
    assert onnx_model.graph.node, "the export produced no nodes"


@pytest.mark.parametrize(
    "case_id,function_name,build", cases.CASES, ids=[c[0] for c in cases.CASES]
)
def test_case_exercises_its_converter(case_id, function_name, build):
    model, args = build()
    expectation = pytest.warns(UserWarning) if case_id in cases.WARNS else contextlib.nullcontext()
    with expectation:
        _, _, outputs = onnx_chainer.export(
            model,
            args,
            return_named_inout=True,
            opset_version=registered()[function_name].max_opset,
        )
    functions = set()
    stack = [v.creator_node for v in outputs.values()]
    while stack:
        func = stack.pop()
        if func is None or func in functions:
            continue
        functions.add(func)
        stack.extend(node.creator_node for node in func.inputs)
    labels = {getattr(f, "custom_function_node_name", None) or type(f).__name__ for f in functions}
    assert function_name in labels, labels


def test_every_converter_has_a_case():
    covered = {name for _, name, _ in cases.CASES}
    untested = sorted(set(registered()) - covered - {"Shape"})
    assert not untested, f"converters without a test case: {untested}"


def test_onnx_knows_the_newest_opset():
    assert onnx.defs.onnx_opset_version() >= onnx_chainer.MAXIMUM_OPSET_VERSION


def _as_float64(args):
    if isinstance(args, tuple):
        return tuple(_as_float64(a) for a in args)
    return args.astype(np.float64) if args.dtype == np.float32 else args


@pytest.mark.parametrize(
    "case_id,function_name,build", cases.CASES, ids=[c[0] for c in cases.CASES]
)
def test_converter_keeps_float64(case_id, function_name, build, export_and_compare):
    model, args = build()
    if case_id in cases.FLOAT32_ONLY or any(True for _ in getattr(model, "params", list)()):
        pytest.skip("parameters or constants of the case are float32")
    opset = min(registered()[function_name].max_opset, onnx_chainer.MAXIMUM_OPSET_VERSION)
    expectation = pytest.warns(UserWarning) if case_id in cases.WARNS else contextlib.nullcontext()
    with expectation:
        onnx_model = export_and_compare(model, _as_float64(args), opset)
    assert onnx_model.graph.output[0].type.tensor_type.elem_type in (
        onnx.TensorProto.DOUBLE,
        onnx.TensorProto.INT32,
        onnx.TensorProto.INT64,
        onnx.TensorProto.BOOL,
    )
