"""chainer.functions.activation: activation functions (each in its own module)."""
