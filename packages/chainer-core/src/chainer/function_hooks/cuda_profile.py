"""``CUDAProfileHook``: NVTX ranges around functions, for NVIDIA's profilers."""

from __future__ import annotations

import importlib

from chainer.function_hook import FunctionHook
from chainer.function_hooks._profile import require_cuda


class CUDAProfileHook(FunctionHook):
    """Function hook that marks every forward and backward call with an NVTX range.

    Profilers such as Nsight Systems then show ranges named ``<label>.forward`` and
    ``<label>.backward`` on the timeline, around the kernels each call launched.

    Raises:
        RuntimeError: CUDA is not available, or CuPy was built without NVTX.

    Example:
        Needs a GPU and CuPy, so it is not run here.

        >>> with chainer.function_hooks.CUDAProfileHook():  # doctest: +SKIP
        ...     loss = model(x_on_gpu)
        ...     loss.backward()
    """

    name = "CUDAProfileHook"

    def __init__(self) -> None:
        require_cuda(self.name)
        nvtx = importlib.import_module("cupy.cuda.nvtx")
        if not nvtx.available:
            raise RuntimeError(
                f"{self.name} needs NVTX, but the installed CuPy was built without it "
                "(cupy.cuda.nvtx.available is False)"
            )
        self._nvtx = nvtx

    def forward_preprocess(self, function, in_data) -> None:
        self._nvtx.RangePush(f"{function.label}.forward")

    def forward_postprocess(self, function, in_data) -> None:
        self._nvtx.RangePop()

    def backward_preprocess(self, function, in_data, out_grad) -> None:
        self._nvtx.RangePush(f"{function.label}.backward")

    def backward_postprocess(self, function, in_data, out_grad) -> None:
        self._nvtx.RangePop()
