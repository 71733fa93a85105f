import numpy
import pytest

from chainer import testing


@pytest.mark.parametrize(
    "dtype", [numpy.float32, numpy.float64, numpy.complex64, numpy.complex128]
)
@pytest.mark.parametrize(
    ("shape", "values"), [((3, 3), [3, 2, 1]), ((4, 2), [5, 0.5]), ((2, 5), [1, 1e-3])]
)
def test_singular_values_are_as_requested(dtype, shape, values):
    a = testing.generate_matrix(shape, dtype, singular_values=values)
    assert a.shape == shape and a.dtype == dtype
    tolerance = 100 * numpy.finfo(dtype).eps
    numpy.testing.assert_allclose(
        numpy.linalg.svd(a, compute_uv=False), values, atol=tolerance, rtol=tolerance
    )


def test_batched_with_broadcast_singular_values():
    values = numpy.array([[4.0, 1.0], [2.0, 2.0], [1.0, 0.0]])
    a = testing.generate_matrix((5, 3, 3, 2), singular_values=values)
    assert a.shape == (5, 3, 3, 2) and a.dtype == numpy.float64
    svd = numpy.linalg.svd(a, compute_uv=False)
    numpy.testing.assert_allclose(svd, numpy.broadcast_to(values, (5, 3, 2)), atol=1e-12)


def test_complex_result_is_not_real():
    a = testing.generate_matrix((3, 3), numpy.complex128, singular_values=1)
    assert numpy.abs(a.imag).max() > 0
    numpy.testing.assert_allclose(a @ a.conj().T, numpy.eye(3), atol=1e-12)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "message"),
    [
        (((3, 3),), {}, TypeError, "needs the keyword argument singular_values"),
        (
            ((3, 3),),
            {"singular_values": 1, "seed": 0},
            TypeError,
            r"unexpected keyword arguments \['seed'\]",
        ),
        (((3,),), {"singular_values": 1}, ValueError, r"at least 2 dimensions, got \(3,\)"),
        (
            ((3, 3), numpy.int32),
            {"singular_values": 1},
            TypeError,
            "floating or complex dtype, got int32",
        ),
        (((3, 3),), {"singular_values": [1, -1, 1]}, ValueError, "must be non-negative"),
        (
            ((3, 3),),
            {"singular_values": [1j, 1, 1]},
            TypeError,
            "must be real, got dtype complex128",
        ),
        (((2, 3, 3),), {"singular_values": [1, 2]}, ValueError, r"do not broadcast to \(2, 3\)"),
    ],
)
def test_bad_arguments(args, kwargs, error, message):
    with pytest.raises(error, match=message):
        testing.generate_matrix(*args, **kwargs)


def test_v7_private_broadcast_to_broadcasts():
    from chainer.testing import matrix

    out = matrix._broadcast_to(numpy.array([1.0, 2.0]), (3, 2))
    numpy.testing.assert_array_equal(out, [[1.0, 2.0]] * 3)
