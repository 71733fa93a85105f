"""Image preprocessing helpers."""

from __future__ import annotations

from collections.abc import Sequence

import numpy


def oversample(images: Sequence[numpy.ndarray], crop_dims: Sequence[int]) -> numpy.ndarray:
    """Take ten crops of each image: four corners, the center, and their left-right mirrors.

    Args:
        images: Images of one shape ``(C, H, W)`` (a list, or an array ``(N, C, H, W)``).
        crop_dims: The crop size ``(crop_h, crop_w)``.

    Returns:
        An array ``(10 * N, C, crop_h, crop_w)``. The crops of image ``i`` are rows
        ``10 * i`` to ``10 * i + 9``: top-left, top-right, bottom-left, bottom-right, center,
        then the same five flipped left-right.
    """
    batch = numpy.stack([numpy.asarray(image) for image in images])
    if batch.ndim != 4:
        raise ValueError(f"images must be (C, H, W) arrays, got shape {batch.shape[1:]}")
    height, width = batch.shape[2:]
    crop_h, crop_w = crop_dims
    if not (0 < crop_h <= height and 0 < crop_w <= width):
        raise ValueError(f"crop_dims {tuple(crop_dims)} must fit in the images {(height, width)}")
    bottom, right = height - crop_h, width - crop_w
    corners = [(0, 0), (0, right), (bottom, 0), (bottom, right), (bottom // 2, right // 2)]
    crops = numpy.stack([batch[:, :, y : y + crop_h, x : x + crop_w] for y, x in corners], axis=1)
    crops = numpy.concatenate([crops, crops[..., ::-1]], axis=1)
    return crops.reshape(-1, *crops.shape[2:])
