"""``spatial_transformer_grid``: the sampling grid of a spatial transformer (affine)."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer._ops.array_ops import reshape
from chainer._ops.matmul import matmul
from chainer.function_node import FunctionNode
from chainer.utils import argument, type_check
from chainer.variable import Variable

__all__ = ["SpatialTransformerGrid", "spatial_transformer_grid"]

_USE_CUDNN_REMOVED = (
    'The argument "use_cudnn" is not supported anymore. Use '
    "chainer.using_config('use_cudnn', value) context where value can be `always`, `never`, "
    "or `auto`."
)


class SpatialTransformerGrid(FunctionNode):
    """``theta (n, 2, 3) -> grid (n, 2, out_h, out_w)``: ``grid[:, :, i, j] = theta @ p``.

    ``p = (x_j, y_i, 1)`` are the homogeneous coordinates of the output pixel ``(i, j)`` with
    ``x`` and ``y`` spread evenly over ``[-1, 1]``.
    """

    def __init__(self, output_shape) -> None:
        if len(output_shape) != 2 or min(output_shape) <= 0:
            raise ValueError(f"output_shape must be two positive ints, got {output_shape!r}")
        self.output_shape = tuple(int(n) for n in output_shape)

    def check_type_forward(self, in_types) -> None:
        type_check.argname(in_types, ("theta",))
        theta_type = in_types[0]
        type_check.expect(
            theta_type.dtype.kind == "f",
            theta_type.ndim == 3,
            theta_type.shape[1] == 2,
            theta_type.shape[2] == 3,
        )

    def _output_points(self, xp, dtype):
        """The homogeneous coordinates ``(3, out_h * out_w)`` of the output pixels."""
        h, w = self.output_shape
        ys, xs = xp.meshgrid(
            xp.linspace(-1, 1, h, dtype=dtype), xp.linspace(-1, 1, w, dtype=dtype), indexing="ij"
        )
        return xp.stack([xs.ravel(), ys.ravel(), xp.ones(h * w, dtype)])

    def forward(self, inputs: tuple) -> tuple:
        theta = inputs[0]
        self._points = self._output_points(backend.get_array_module(theta), theta.dtype)
        grid = theta @ self._points
        return (grid.reshape(len(theta), 2, *self.output_shape),)

    def forward_chainerx(self, inputs: tuple) -> tuple:
        import chainerx

        # The points as NumPy spreads them, then a matmul that ChainerX differentiates.
        theta = inputs[0]
        points = chainerx.asarray(self._output_points(numpy, theta.dtype), device=theta.device)
        grid = chainerx.matmul(theta, points)
        return (grid.reshape(len(theta), 2, *self.output_shape),)

    def backward(self, indexes: tuple, grad_outputs: tuple) -> tuple:
        gy = reshape(grad_outputs[0], (len(grad_outputs[0]), 2, -1))
        points_t = Variable(self._points.T, requires_grad=False)
        return (matmul(gy, points_t),)


def spatial_transformer_grid(theta, output_shape, **kwargs) -> Variable:
    """Generate the sampling grid of a 2-D spatial transformer from affine parameters.

    The grid holds, for each output pixel ``(i, j)``, the input location to sample:
    ``grid[:, :, i, j] = theta @ (x_j, y_i, 1)`` where ``x_j`` and ``y_i`` run evenly over
    ``[-1, 1]``. Channel 0 is the x (width) coordinate and channel 1 the y (height) one, in the
    normalized coordinates of :func:`spatial_transformer_sampler`.

    Args:
        theta: Affine parameters of shape ``(n, 2, 3)`` (float).
        output_shape: ``(out_h, out_w)`` of the grid.

    Returns:
        A variable of shape ``(n, 2, out_h, out_w)``.

    Example:
        >>> theta = np.array([[[1, 0, 0], [0, 1, 0]]], np.float32)  # identity
        >>> F.spatial_transformer_grid(theta, (2, 3)).array[0, 0]
        array([[-1.,  0.,  1.],
               [-1.,  0.,  1.]], dtype=float32)
    """
    if kwargs:
        argument.check_unexpected_kwargs(kwargs, use_cudnn=_USE_CUDNN_REMOVED)
        argument.assert_kwargs_empty(kwargs)
    return SpatialTransformerGrid(output_shape).apply((theta,))[0]
