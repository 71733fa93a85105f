"""ROI max align: the largest bilinear sample of each bin of each box."""

from __future__ import annotations

import numpy

from chainer import backend
from chainer.functions.pooling import _roi
from chainer.variable import Variable


def _padded_tables(tables: list, length: int):
    """Stack per-box ``(low, high, w_low, w_high)`` tables, padded to ``length`` points."""
    out = numpy.zeros((len(tables), 4, length))
    for i, table in enumerate(tables):
        out[i, :, : len(table[0])] = table
    return out


class ROIMaxAlign2D(_roi.ROIFunction):
    """The maximum of ``grid_y x grid_x`` bilinear samples per bin; samples outside the image
    are skipped and bins without samples are zero."""

    def __init__(self, outsize, spatial_scale, sampling_ratio=None) -> None:
        self.outsize = _roi.parse_outsize(outsize)
        self.spatial_scale = _roi.check_spatial_scale(spatial_scale)
        self.sampling_ratio = _roi.parse_sampling_ratio(sampling_ratio)

    def check_type_forward(self, in_types) -> None:
        _roi.check_roi_types(in_types)

    def forward(self, inputs: tuple) -> tuple:
        x, rois, roi_indices = inputs
        boxes, images = _roi.host_boxes(rois, roi_indices, x.shape[0])
        xp = backend.get_array_module(x)
        out_h, out_w = self.outsize
        out_shape = (len(boxes), x.shape[1], out_h, out_w)
        y = xp.zeros(out_shape, dtype=x.dtype)
        # The chosen sample of each output, as point indexes into the box's tables.
        point_y = xp.zeros(out_shape, dtype=numpy.intp)
        point_x = xp.zeros(out_shape, dtype=numpy.intp)
        found = xp.zeros(out_shape, dtype=bool)
        row_tables, col_tables = [], []
        for i, (box, image) in enumerate(zip(boxes, images)):
            (rows, grid_y), (cols, grid_x) = _roi.box_samples(
                box, self.spatial_scale, self.outsize, self.sampling_ratio, x.shape[2:]
            )
            row_tables.append(rows)
            col_tables.append(cols)
            row0, wy = _roi.dense_weights(*rows)
            col0, wx = _roi.dense_weights(*cols)
            if wy.shape[1] == 0 or wx.shape[1] == 0:
                continue
            patch = x[int(image), :, row0 : row0 + wy.shape[1], col0 : col0 + wx.shape[1]]
            values = xp.asarray(wy, dtype=x.dtype) @ patch @ xp.asarray(wx.T, dtype=x.dtype)
            inside = (rows[2] + rows[3] > 0)[:, None] & (cols[2] + cols[3] > 0)[None, :]
            values = xp.where(xp.asarray(inside), values, -numpy.inf)
            # (c, out_h * grid_y, out_w * grid_x) -> (c, out_h, out_w, grid_y * grid_x)
            values = values.reshape(-1, out_h, grid_y, out_w, grid_x).transpose(0, 1, 3, 2, 4)
            values = values.reshape(values.shape[:3] + (-1,))
            arg = values.argmax(axis=3)
            best = xp.take_along_axis(values, arg[..., None], 3)[..., 0]
            nonempty = best > -numpy.inf
            y[i] = xp.where(nonempty, best, 0)
            point_y[i] = arg // grid_x + xp.arange(out_h)[:, None] * grid_y
            point_x[i] = arg % grid_x + xp.arange(out_w)[None, :] * grid_x
            found[i] = nonempty
        length_y = max((len(t[0]) for t in row_tables), default=0)
        length_x = max((len(t[0]) for t in col_tables), default=0)
        tables_y = xp.asarray(_padded_tables(row_tables, length_y))
        tables_x = xp.asarray(_padded_tables(col_tables, length_x))
        box = xp.arange(len(boxes))[:, None, None, None]

        def corners():
            # Rebuilt on demand: four corners of every output would take 16x the output.
            ty = tables_y[box, :, point_y]  # (r, c, out_h, out_w, 4)
            tx = tables_x[box, :, point_x]
            weight = found.astype(x.dtype)
            for k_y in (0, 1):
                for k_x in (0, 1):
                    w = (ty[..., 2 + k_y] * tx[..., 2 + k_x]).astype(x.dtype) * weight
                    yield ty[..., k_y].astype(numpy.intp), tx[..., k_x].astype(numpy.intp), w

        self.plan = _roi.PointPlan(x.shape, xp.asarray(images), corners)
        return (y,)


def roi_max_align_2d(
    x, rois, roi_indices, outsize, spatial_scale, sampling_ratio=None
) -> Variable:
    """Spatial Region of Interest (ROI) max align function.

    Like :func:`~chainer.functions.roi_average_align_2d`, but each bin takes the maximum of
    its bilinear samples; samples more than one pixel outside the image are skipped, and a
    bin without samples is zero.

    Args:
        x: Images of shape ``(n, c, h, w)`` and floating-point dtype.
        rois: Boxes ``(y_min, x_min, y_max, x_max)`` of shape ``(r, 4)`` and the dtype of ``x``.
        roi_indices: Image index of each box, an integer array of shape ``(r,)``.
        outsize: ``(out_h, out_w)`` or an int for both.
        spatial_scale: Factor from the boxes' coordinates to ``x``'s.
        sampling_ratio: Samples per bin along each axis: an int, a pair, or ``None`` (per
            axis) for ``ceil(bin size)``.

    Returns:
        A variable of shape ``(r, c, out_h, out_w)``.

    Example:
        >>> x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
        >>> rois = numpy.array([[0, 0, 3, 3]], numpy.float32)
        >>> index = numpy.array([0], numpy.int32)
        >>> F.roi_max_align_2d(x, rois, index, 1, 1.0, sampling_ratio=2).array  # at (2.25, 2.25)
        array([[[[11.25]]]], dtype=float32)
    """
    node = ROIMaxAlign2D(outsize, spatial_scale, sampling_ratio)
    return node.apply((x, rois, roi_indices))[0]
