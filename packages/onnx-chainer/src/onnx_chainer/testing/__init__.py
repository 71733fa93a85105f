"""Test helpers: input generators, test-case export per opset, an onnxruntime checker."""

from onnx_chainer.testing import input_generator
