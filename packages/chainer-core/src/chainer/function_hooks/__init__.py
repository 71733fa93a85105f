"""Ready-made function hooks: timing, memory profiling, NVTX ranges, debug printing and the
count of ChainerX calls that fell back to NumPy/CuPy.

Register one for a block with ``with hook:`` (every function applied in this thread) or on a
single function with :meth:`chainer.FunctionNode.add_hook`. ``CupyMemoryProfileHook`` and
``CUDAProfileHook`` need CUDA; creating them without it raises :class:`RuntimeError`.
"""

from chainer.function_hooks.chainerx_fallback import ChainerxFallbackHook
from chainer.function_hooks.cuda_profile import CUDAProfileHook
from chainer.function_hooks.cupy_memory_profile import CupyMemoryProfileHook
from chainer.function_hooks.debug_print import PrintHook
from chainer.function_hooks.timer import TimerHook

__all__ = [
    "CUDAProfileHook",
    "ChainerxFallbackHook",
    "CupyMemoryProfileHook",
    "PrintHook",
    "TimerHook",
]
