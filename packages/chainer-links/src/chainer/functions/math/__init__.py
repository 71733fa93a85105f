"""chainer.functions.math: mathematical functions (each in its own module, at Chainer's path)."""
