"""chainer.functions.rnn: recurrent cells and stacked recurrent networks."""

from chainer import _lazy

__getattr__, __dir__ = _lazy.attach_submodules(__name__)
