"""chainer.gradient_check: v7's conventions for y_grad, no_grads and eps."""

import numpy
import pytest

import chainer
from chainer import gradient_check


def _f32(*values):
    return numpy.array(values, numpy.float32)


def test_a_none_entry_of_y_grad_means_that_output_has_no_gradient():
    x, y = _f32(1, 2, 3), _f32(4, 5, 6)
    ones = numpy.ones(3, numpy.float32)

    def f(a, b):
        s = a * 2
        t = b * 3
        return s, t

    gradient_check.check_backward(f, (x, y), (ones, None), dtype=numpy.float64)
    gradient_check.check_backward(f, (x, y), (None, ones), dtype=numpy.float64)


def test_a_none_entry_still_catches_a_wrong_gradient_of_the_other_output():
    x = _f32(1, 2, 3)
    ones = numpy.ones(3, numpy.float32)

    def wrong(a, b):
        # The second term's gradient is lost: backprop sees 2, the numbers say 3.
        return a * 2 + chainer.Variable(a.array, requires_grad=False), b * 3

    with pytest.raises(AssertionError, match="directional derivative"):
        gradient_check.check_backward(wrong, (x, x.copy()), (ones, None))


def test_y_grad_none_needs_single_element_outputs():
    with pytest.raises(ValueError, match=r"y_grad is needed: output 0 has shape \(3,\)"):
        gradient_check.check_backward(lambda a: a * 2, _f32(1, 2, 3), None)
    gradient_check.check_backward(lambda a: a * a, _f32(2), None)


def test_double_backward_of_an_integer_function_checks_nothing_and_passes():
    # v7's defaults: integer inputs, and the y_grads of integer outputs, get no gradient.
    x = numpy.array([3, 1, 2], numpy.int32)
    gy = numpy.ones(3, numpy.int32)
    gradient_check.check_double_backward(lambda a: a * 2, x, gy, numpy.ones(3, numpy.int32))


def test_double_backward_takes_integer_y_grads_beside_float_ones():
    x = _f32(1, 2, 3)

    def square_and_count(a):
        return a * a, chainer.Variable((a.array > 1).astype(numpy.int32), requires_grad=False)

    gx = numpy.ones(3, numpy.float32)
    y_grads = (_f32(0.5, 1, 2), numpy.ones(3, numpy.int32))
    gradient_check.check_double_backward(square_and_count, x, y_grads, gx, dtype=numpy.float64)


def test_a_gradient_computed_for_a_no_grads_input_is_an_error():
    def f(a, b):
        return (a + b,)

    x, y, g = _f32(2), _f32(3), _f32(5)
    with pytest.raises(RuntimeError, match="input 0 is listed in no_grads"):
        gradient_check.check_backward(f, (x, y), g, no_grads=[True, True])

    def f_const(a, b):
        return (a + b.array,)  # b is used as a constant

    gradient_check.check_backward(f_const, (x, y), g, no_grads=[False, True])


def test_eps_must_be_positive():
    x = _f32(1)
    for eps in (0, -1.0):
        with pytest.raises(AssertionError, match="eps must be positive"):
            gradient_check.numerical_grad(lambda: (x * x,), (x,), (numpy.ones_like(x),), eps=eps)


@pytest.mark.parametrize(
    ("func", "x", "kink"),
    [
        (lambda x: x * x, 0.0, False),  # curvature is not a kink
        (lambda x: -3 * x**3 + 2 * x**2 + 1, 0.0, False),
        (numpy.abs, 0.8e-3, True),  # within eps of the kink
        (numpy.abs, 1.2e-3, False),
        (lambda x: numpy.where(x > 0, 1.0, 0.0), 0.0, True),
        (numpy.log, 0.0, True),  # finite on one side only
        (lambda x: numpy.log(x - 10), 0.0, False),  # NaN all around
        (lambda x: numpy.full_like(x, 3.0), 0.0, False),
    ],
)
def test_numerical_grad_detects_kinks_by_a_quadratic_fit(func, x, kink):
    x = numpy.array([x])

    def f():
        with numpy.errstate(divide="ignore", invalid="ignore"):
            return (func(x),)

    def run():
        return gradient_check.numerical_grad(
            f, (x,), (numpy.ones(1),), detect_nondifferentiable=True
        )

    if kink:
        with pytest.raises(gradient_check.NondifferentiableError, match="non-differentiable"):
            run()
    else:
        run()


def test_numerical_grad_value_is_the_central_difference():
    x = numpy.array([1.0, 2.0])
    (gx,) = gradient_check.numerical_grad(
        lambda: (x**3,), (x,), (numpy.array([1.0, 2.0]),), detect_nondifferentiable=True
    )
    numpy.testing.assert_allclose(gx, [3.0, 24.0], rtol=1e-5)


class _ScaleLink(chainer.Link):
    """y = x * w + x ** 2 * c, with a float32 parameter ``w`` and a float32 constant ``c``."""

    def __init__(self, wrong_gradient=False):
        super().__init__()
        self.wrong_gradient = wrong_gradient
        self.c = numpy.array([0.5, -1.0, 2.0], numpy.float32)
        with self.init_scope():
            self.w = chainer.Parameter(numpy.array([1.5, -2.0, 0.25], numpy.float32))

    def forward(self, x):
        c = chainer.Variable(self.c.astype(x.dtype), requires_grad=False)
        x_const = x
        if self.wrong_gradient and x.dtype == self.w.dtype:  # backprop loses half of 2 x c
            x_const = chainer.Variable(x.array, requires_grad=False)
        return x * self.w + x * x_const * c


def test_dtype_evaluates_a_link_whose_parameters_stay_in_their_own_dtype():
    # In float64 the inputs meet the float32 parameter, which the type checks of x * w
    # reject; as in v7 the numerical evaluation runs without them.
    x = _f32(0.5, 1.0, -1.5)
    gy = _f32(1.0, -2.0, 0.5)
    gradient_check.check_backward(_ScaleLink(), x, gy, dtype=numpy.float64)
    with pytest.raises(AssertionError, match="directional derivative"):
        gradient_check.check_backward(_ScaleLink(wrong_gradient=True), x, gy, dtype=numpy.float64)
    # Outside the numerical evaluation type checks still apply.
    with pytest.raises(chainer.utils.type_check.InvalidType, match=r"_ \* _"):
        _ScaleLink()(chainer.Variable(x.astype(numpy.float64)))


def test_params_may_be_a_single_variable_even_an_uninitialized_one():
    link = chainer.Link()
    with link.init_scope():
        link.w = chainer.Parameter(chainer.initializers.Constant(3.0))

    def f(x):
        if link.w.array is None:
            link.w.initialize(x.shape)
        return x * link.w * link.w

    x = _f32(1.0, -2.0)
    gradient_check.check_backward(f, x, _f32(1.0, 1.0), params=link.w, dtype=numpy.float64)
    assert link.w.array.shape == (2,)

    def wrong(x):
        return x * chainer.Variable(link.w.array, requires_grad=False) * link.w

    with pytest.raises(AssertionError, match="directional derivative"):
        gradient_check.check_backward(wrong, x, _f32(1.0, 1.0), params=link.w)


@pytest.mark.chainerx
def test_numerical_grad_refuses_arrays_of_mixed_backends():
    from chainer.testing._marks import chainerx_available

    if not chainerx_available():
        pytest.skip("needs the chainerx package with its ndarray")
    x = numpy.zeros(1)
    y = chainer.get_device("native:0").send(numpy.zeros(1))
    with pytest.raises(RuntimeError, match="arrays of one backend, got chainerx, numpy"):
        gradient_check.numerical_grad(lambda: (x,), (x,), (y,))


class _Sqrt(chainer.FunctionNode):
    """sqrt with an honest gradient, or one that is always NaN."""

    def __init__(self, nan_gradient=False):
        self.nan_gradient = nan_gradient

    def forward(self, inputs):
        self.retain_inputs((0,))
        return (numpy.sqrt(inputs[0]),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        if self.nan_gradient:
            return (gy * numpy.float32(numpy.nan),)
        return (gy * 0.5 * x**-0.5,)


def test_nan_against_nan_matches_as_in_v7():
    x = _f32(-1, -4)  # sqrt is NaN there, and so are both derivatives
    with numpy.errstate(invalid="ignore", divide="ignore"):
        gradient_check.check_backward(lambda a: _Sqrt().apply((a,)), x, _f32(1, 1))


def test_a_nan_gradient_where_the_numbers_are_finite_still_fails():
    x = _f32(1, 4)
    with pytest.raises(AssertionError, match="analytical: nan"):
        gradient_check.check_backward(
            lambda a: _Sqrt(nan_gradient=True).apply((a,)), x, _f32(1, 1)
        )


def test_numerical_grad_takes_scalar_grad_outputs_beside_arrays_of_any_backend():
    from chainer.testing._marks import chainerx_available

    if not chainerx_available():
        pytest.skip("needs the chainerx package with its ndarray")
    x = chainer.get_device("native:0").send(numpy.array([1.0, 2.0]))
    (gx,) = gradient_check.numerical_grad(lambda: (x * 3, x * 5), (x,), (1, 0))  # v7's form
    numpy.testing.assert_allclose(chainer.backend.CpuDevice().send(gx), [3.0, 3.0])


@pytest.mark.parametrize("detect", [False, True])
def test_numerical_grad_of_a_function_returning_its_input_itself(detect):
    x = _f32(1, 2, 3)  # the output is x's own memory, perturbed and restored in place
    (gx,) = gradient_check.numerical_grad(
        lambda: (x,), (x,), (numpy.ones(3, numpy.float32),), detect_nondifferentiable=detect
    )
    numpy.testing.assert_allclose(gx, numpy.ones(3), rtol=1e-3)
