"""chainer.utils.conv_nd_kernel: the generated CUDA code, run on the host.

Without a GPU, the kernels' index arithmetic is still checked: the elementwise operation is
compiled as the body of a C++ loop over ``i`` (what CuPy's ElementwiseKernel does per thread)
and compared with the NumPy versions.
"""

import ctypes
import shutil
import subprocess

import numpy
import pytest

from chainer.utils import conv_nd, conv_nd_kernel

_CXX = shutil.which("c++") or shutil.which("g++")

_HARNESS = """
#include <algorithm>
#include <cstddef>
typedef double T;
extern "C" void run(const T* {source}, T* result, long size, {params}) {{
    for (std::ptrdiff_t i = 0; i < size; ++i) {{
        T {target};
        {{ {operation} }}
        result[i] = {target};
    }}
}}
"""


def _compile(spec, tmp_path):
    in_params, out_params, operation, name = spec
    raw, *scalars = in_params.split(", ")
    assert raw.startswith("raw T ") and out_params.startswith("T ")
    assert all(p.startswith("int32 ") for p in scalars)
    source = _HARNESS.format(
        source=raw.split()[-1],
        target=out_params.split()[-1],
        params=", ".join("int " + p.split()[-1] for p in scalars),
        operation=operation,
    )
    (tmp_path / f"{name}.cpp").write_text(source)
    library = tmp_path / f"{name}.so"
    subprocess.run(
        [_CXX, "-O1", "-shared", "-fPIC", "-o", str(library), str(tmp_path / f"{name}.cpp")],
        check=True,
    )
    return ctypes.CDLL(str(library)).run


def _call(kernel, source, shape, geometry):
    source = numpy.ascontiguousarray(source, dtype=numpy.float64)
    result = numpy.empty(shape)
    pointer = ctypes.POINTER(ctypes.c_double)
    kernel(
        source.ctypes.data_as(pointer),
        result.ctypes.data_as(pointer),
        ctypes.c_long(result.size),
        *map(ctypes.c_int, geometry),
    )
    return result


@pytest.mark.skipif(_CXX is None, reason="needs a C++ compiler")
@pytest.mark.parametrize("ndim", [1, 2, 3])
def test_kernels_match_numpy(ndim, tmp_path):
    im2col = _compile(conv_nd_kernel.im2col_kernel(ndim), tmp_path)
    col2im = _compile(conv_nd_kernel.col2im_kernel(ndim), tmp_path)
    rng = numpy.random.default_rng(ndim)
    checked = 0
    while checked < 20:
        dims = tuple(rng.integers(3, 7, ndim).tolist())
        ksize, stride = (
            tuple(rng.integers(1, 4, ndim).tolist()),
            tuple(rng.integers(1, 4, ndim).tolist()),
        )
        pad, dilate = (
            tuple(rng.integers(0, 3, ndim).tolist()),
            tuple(rng.integers(1, 3, ndim).tolist()),
        )
        cover_all = bool(rng.integers(2))
        img = rng.standard_normal((2, 3, *dims))
        try:
            expected = conv_nd.im2col_nd_cpu(img, ksize, stride, pad, cover_all, dilate)
        except ValueError:  # the kernel does not fit
            continue
        outs = expected.shape[2 + ndim :]
        geometry = (*dims, *outs, *ksize, *stride, *pad, *dilate)
        numpy.testing.assert_array_equal(_call(im2col, img, expected.shape, geometry), expected)
        col = rng.standard_normal(expected.shape)
        numpy.testing.assert_allclose(
            _call(col2im, col, img.shape, geometry),
            conv_nd.col2im_nd_cpu(col, stride, pad, dims, dilate),
        )
        checked += 1


def test_kernel_specs_are_cached_per_rank():
    assert conv_nd_kernel.im2col_kernel(2) is conv_nd_kernel.im2col_kernel(2)
    assert conv_nd_kernel.im2col_kernel(2)[3] == "chainer_im2col_2d"
    assert conv_nd_kernel.col2im_kernel(3)[3] == "chainer_col2im_3d"
    assert conv_nd_kernel.col2im_kernel(1)[0] == (
        "raw T col, int32 dim_0, int32 out_0, int32 ksize_0, int32 stride_0, int32 pad_0, "
        "int32 dil_0"
    )
