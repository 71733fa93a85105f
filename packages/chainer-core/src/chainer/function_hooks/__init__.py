"""Ready-made function hooks: timing, memory profiling, NVTX ranges and debug printing.

Register one for a block with ``with hook:`` (every function applied in this thread) or on a
single function with :meth:`chainer.FunctionNode.add_hook`. ``CupyMemoryProfileHook`` and
``CUDAProfileHook`` need CUDA; creating them without it raises :class:`RuntimeError`.
"""

from chainer.function_hooks.cuda_profile import CUDAProfileHook
from chainer.function_hooks.cupy_memory_profile import CupyMemoryProfileHook
from chainer.function_hooks.debug_print import PrintHook
from chainer.function_hooks.timer import TimerHook

__all__ = ["CUDAProfileHook", "CupyMemoryProfileHook", "PrintHook", "TimerHook"]
