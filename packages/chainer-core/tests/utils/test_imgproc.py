"""chainer.utils.imgproc.oversample."""

import numpy
import pytest

from chainer.utils import imgproc


def test_ten_crops_per_image():
    rng = numpy.random.default_rng(0)
    images = [rng.standard_normal((3, 6, 7)).astype(numpy.float32) for _ in range(2)]
    crops = imgproc.oversample(images, (4, 3))
    assert crops.shape == (20, 3, 4, 3) and crops.dtype == numpy.float32
    for i, image in enumerate(images):
        expected = [
            image[:, 0:4, 0:3],
            image[:, 0:4, 4:7],
            image[:, 2:6, 0:3],
            image[:, 2:6, 4:7],
            image[:, 1:5, 2:5],
        ]
        expected += [crop[:, :, ::-1] for crop in expected]
        numpy.testing.assert_array_equal(crops[10 * i : 10 * i + 10], numpy.stack(expected))


def test_batch_array_and_full_size_crop():
    batch = numpy.arange(2 * 1 * 2 * 2).reshape(2, 1, 2, 2)
    crops = imgproc.oversample(batch, (2, 2))
    numpy.testing.assert_array_equal(crops[:5], numpy.repeat(batch[:1], 5, axis=0))
    numpy.testing.assert_array_equal(crops[5], batch[0, :, :, ::-1])


def test_errors():
    with pytest.raises(ValueError, match=r"crop_dims \(5, 1\) must fit in the images \(4, 4\)"):
        imgproc.oversample([numpy.zeros((1, 4, 4))], (5, 1))
    with pytest.raises(ValueError, match=r"images must be \(C, H, W\) arrays, got shape \(4, 4\)"):
        imgproc.oversample([numpy.zeros((4, 4))], (2, 2))
