"""Small valid images of several formats, the seeds of the image fuzzing harnesses."""

import io

import numpy


def encoded_images(image_module) -> dict[str, bytes]:
    """Format name -> a 5x6 image in that format (PNG and BMP in RGB, JPEG in grayscale, GIF
    with a palette), written by ``image_module`` (``PIL.Image``)."""
    rng = numpy.random.default_rng(0)
    found = {}
    for format_, mode in [("PNG", "RGB"), ("JPEG", "L"), ("GIF", "P"), ("BMP", "RGB")]:
        buffer = io.BytesIO()
        pixels = rng.integers(0, 256, (6, 5, 3), dtype=numpy.uint8)
        image_module.fromarray(pixels).convert(mode).save(buffer, format=format_)
        found[format_] = buffer.getvalue()
    return found
