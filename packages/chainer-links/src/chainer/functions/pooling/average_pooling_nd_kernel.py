"""Chainer v7's CUDA kernel source generators for N-dimensional pooling (GPU only).

This implementation pools through array-module window operations on every backend
(:mod:`chainer.functions.pooling._windows`), so there are no hand-written CUDA kernels to
generate: the module exists so that the v7 import path resolves.
"""
