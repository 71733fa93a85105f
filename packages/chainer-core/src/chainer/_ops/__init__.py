"""The differentiable ops that ``Variable`` itself needs (private to chainer-core).

chainer-links re-exports them under their public names in ``chainer.functions``.
Importing this package installs the Python operators (+, *, @, [], ...) on ``Variable``.
"""

from chainer._ops import comparison, get_item, matmul, operators
from chainer.variable import Variable


def _install_operators() -> None:
    for module in (operators, comparison, get_item, matmul):
        for name, function in module.OPERATORS.items():
            setattr(Variable, name, function)


_install_operators()
