"""Run an exported test case in onnxruntime and compare with the recorded outputs."""

from __future__ import annotations

import glob
import os
from collections.abc import Sequence

import numpy as np
import onnx
import onnx.numpy_helper

#: Tolerances (rtol, atol) per output dtype.
TOLERANCES = {
    np.dtype(np.float16): (1e-2, 1e-2),
    np.dtype(np.float32): (1e-4, 1e-5),
    np.dtype(np.float64): (1e-7, 1e-9),
}


def _load(pattern: str) -> list[onnx.TensorProto]:
    def index(path: str) -> int:
        return int(os.path.basename(path).split("_")[1].split(".")[0])

    return [onnx.load_tensor(p) for p in sorted(glob.glob(pattern), key=index)]


def check_model_expect(
    test_path: str,
    input_names: Sequence[str] | None = None,
    rtol: float | None = None,
    atol: float | None = None,
) -> None:
    """Run ``test_path/model.onnx`` on ``test_data_set_0`` inputs; assert outputs match."""
    import onnxruntime

    model_path = os.path.join(test_path, "model.onnx")
    session = onnxruntime.InferenceSession(model_path, providers=["CPUExecutionProvider"])
    data_dir = os.path.join(test_path, "test_data_set_0")
    feeds = {}
    for tensor in _load(os.path.join(data_dir, "input_*.pb")):
        feeds[tensor.name] = onnx.numpy_helper.to_array(tensor)
    if input_names is not None:
        missing = set(input_names) - set(feeds)
        assert not missing, f"graph inputs without test data: {sorted(missing)}"
    session_inputs = {i.name for i in session.get_inputs()}
    feeds = {k: v for k, v in feeds.items() if k in session_inputs}
    output_names = [o.name for o in session.get_outputs()]
    actual = session.run(output_names, feeds)
    expected = _load(os.path.join(data_dir, "output_*.pb"))
    assert len(actual) == len(expected), (len(actual), len(expected))
    by_name = dict(zip(output_names, actual))
    for position, tensor in enumerate(expected):
        want = onnx.numpy_helper.to_array(tensor)
        got = by_name.get(tensor.name, actual[position])
        default_rtol, default_atol = TOLERANCES.get(want.dtype, (0, 0))
        np.testing.assert_allclose(
            got,
            want,
            rtol=default_rtol if rtol is None else rtol,
            atol=default_atol if atol is None else atol,
            err_msg=f"output {tensor.name or position} of {model_path}",
        )
