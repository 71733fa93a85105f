"""Where function hooks are registered, and the debug-mode checks that run beside them."""

from __future__ import annotations

import threading


class _State(threading.local):
    # A class attribute, so that reading it in a thread that registered nothing is cheap.
    hooks: dict | None = None


state = _State()


def get_function_hooks() -> dict:
    """The function hooks registered globally in this thread (name -> hook), in order."""
    hooks = state.hooks
    if hooks is None:
        hooks = state.hooks = {}
    return hooks


def active_hooks(func) -> list:
    """Global then local hooks of ``func`` (callers check ``state.hooks`` first)."""
    hooks = list(state.hooks.values()) if state.hooks else []
    local = func._local_function_hooks
    if local:
        hooks.extend(local.values())
    return hooks


def _describe_arrays(arrays) -> str:
    return "\n".join(
        "  None" if a is None else f"  shape={a.shape} dtype={a.dtype}" for a in arrays
    )


def _has_nan_or_inf(array) -> bool:
    if array is None or array.dtype.kind not in "fc":
        return False
    xp = _xp(array)
    return not bool(xp.isfinite(array).all())


def _xp(array):
    from chainer import backend

    return backend.get_array_module(array)


def check_nan_in_forward(func, in_data: tuple, outputs: tuple) -> None:
    """Debug mode: raise if a forward result holds NaN or Inf, naming the function."""
    for index, y in enumerate(outputs):
        if _has_nan_or_inf(y):
            raise RuntimeError(
                f"NaN or Inf is detected in the output {index} of {func.label} (Forward).\n"
                f"Inputs:\n{_describe_arrays(in_data)}"
            )


def check_nan_in_backward(func, grad_inputs, in_data) -> None:
    """Debug mode: raise if a gradient computed by backward holds NaN or Inf."""
    for index, gx in enumerate(grad_inputs):
        array = None if gx is None else gx.array
        if _has_nan_or_inf(array):
            raise RuntimeError(
                f"NaN is detected on backward computation of {func.label}: NaN or Inf in a "
                f"gradient it computed, target {index}.\nInputs:\n{_describe_arrays(in_data)}"
            )
