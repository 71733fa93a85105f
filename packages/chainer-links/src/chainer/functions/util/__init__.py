"""chainer.functions.util: utility functions (each in its own module)."""
