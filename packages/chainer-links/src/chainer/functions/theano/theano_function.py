"""The function side of Chainer v7's Theano bridge, which this implementation does not have.

Theano is unmaintained and does not install on the Python and NumPy versions Chainer supports
here, and its successor PyTensor is not available from the package index this project builds
from. Code that wrapped a Theano graph should express the computation with
:mod:`chainer.functions` (or export the model with ``onnx_chainer``). See
:class:`chainer.links.theano.theano_function.TheanoFunction`.
"""

from __future__ import annotations

UNAVAILABLE_MESSAGE = (
    "Theano graphs cannot be wrapped: this Chainer implementation has no Theano (or PyTensor) "
    "bridge, because neither installs here. Write the computation with chainer.functions "
    "instead (onnx_chainer exports Chainer models to other runtimes)."
)
