"""Image-recognition architectures of the model zoo: VGG, GoogLeNet and ResNet."""

from chainer import _lazy

__getattr__, __dir__ = _lazy.attach_submodules(__name__)
