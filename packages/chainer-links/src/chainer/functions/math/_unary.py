"""The shared skeleton of elementwise functions of one floating-point input."""

from __future__ import annotations

from chainer import backend, utils
from chainer.function_node import Fallback, FunctionNode
from chainer.utils import type_check
from chainer.variable import Variable, as_array


class UnaryFloat(FunctionNode):
    """An elementwise function ``y = f(x)`` of one floating-point array.

    Subclasses name the array-module function in ``_xp_name`` (or override ``_compute``), say
    what backward needs in ``_retain`` (``"x"``, ``"y"`` or ``"xy"``) and write
    ``backward``. The label is the array-module name (``sin``), as Chainer's. On ChainerX
    arrays the differentiable ChainerX routine of that name (or of ``_chainerx_name``) runs;
    without one, the NumPy forward does.
    """

    is_elementwise = True
    _xp_name = ""
    _chainerx_name = ""
    _retain = "x"

    @property
    def label(self) -> str:
        return self._xp_name or type(self).__name__

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("x",))
        type_check.expect(in_types[0].dtype.kind == "f")

    def forward(self, inputs: tuple) -> tuple:
        (x,) = inputs
        if "x" in self._retain:
            self.retain_inputs((0,))
        if "y" in self._retain:
            self.retain_outputs((0,))
        y = self._compute(backend.get_array_module(x), x)
        return (utils.force_array(y, x.dtype),)

    def _compute(self, xp, x):
        return getattr(xp, self._xp_name)(x)

    def forward_chainerx(self, inputs: tuple):
        import chainerx

        routine = getattr(chainerx, self._chainerx_name or self._xp_name, None)
        return Fallback if routine is None else (routine(inputs[0]),)


def round_toward_zero(xp, x):
    """``xp.fix(x)``, composed of ``ceil`` and ``floor`` where ``xp`` has no ``fix`` (ChainerX)."""
    fix = getattr(xp, "fix", None)
    return xp.where(x < 0, xp.ceil(x), xp.floor(x)) if fix is None else fix(x)


def piecewise_constant(x, xp_name: str) -> Variable:
    """Apply a step function such as ``floor``; its gradient is zero, so no graph is built."""
    x = as_array(x)
    xp = backend.get_array_module(x)
    y = round_toward_zero(xp, x) if xp_name == "fix" else getattr(xp, xp_name)(x)
    return Variable(utils.force_array(y, x.dtype), requires_grad=False)
