"""chainerx.check_backward and check_double_backward (v7's gradient checkers)."""

import pytest

import chainerx


def _steps(*shapes):
    return tuple(chainerx.full(shape, 1e-3, "float32") for shape in shapes)


def test_check_backward_accepts_correct_gradients():
    x = chainerx.array([1.0, -2.0, 0.5], "float32")
    y = chainerx.array([0.0, 1.0, 2.0], "float32")
    gy = (chainerx.array([1.0, -2.0, 3.0], "float32"),)
    chainerx.check_backward(lambda xs: (xs[0] * xs[1],), (x, y), gy, _steps((3,), (3,)))
    # Outputs that do not depend on the inputs have zero gradients.
    chainerx.check_backward(
        lambda xs: (xs[0] * 2, chainerx.ones((3,), "float32")),
        (x,),
        gy + (chainerx.ones((3,), "float32"),),
        _steps((3,)),
    )


def test_check_backward_detects_a_wrong_gradient():
    x = chainerx.array([1.0, 2.0, 1.0], "float32")

    def wrong(xs):
        # as_grad_stopped hides x*x from the graph, so the gradient misses 2x.
        return ((xs[0] * xs[0]).as_grad_stopped() + xs[0],)

    with pytest.raises(chainerx.GradientCheckError, match="gradient of input 0 differs"):
        chainerx.check_backward(wrong, (x,), (chainerx.ones((3,), "float32"),), _steps((3,)))
    assert issubclass(chainerx.GradientCheckError, chainerx.ChainerxError)


def test_check_backward_argument_errors():
    x = chainerx.ones((2,), "float32")
    with pytest.raises(ValueError, match="1 inputs but 2 eps arrays"):
        chainerx.check_backward(lambda xs: (xs[0],), (x,), (x,), _steps((2,), (2,)))
    with pytest.raises(ValueError, match="func returned 1 outputs but 2 grad_outputs"):
        chainerx.check_backward(lambda xs: (xs[0],), (x,), (x, x), _steps((2,)))


def test_check_double_backward():
    x = chainerx.array([1.0, 2.0, 3.0], "float32")
    w = chainerx.array([0.5, -1.0, 2.0], "float32")
    gy = (chainerx.ones((3,), "float32"),)
    ggx = (chainerx.ones((3,), "float32"), chainerx.ones((3,), "float32"))
    chainerx.check_double_backward(
        lambda xs: (xs[0] * xs[0] * xs[1],), (x, w), gy, ggx, _steps((3,), (3,), (3,)), 1e-3, 1e-2
    )


def test_check_double_backward_detects_a_wrong_second_derivative():
    x = chainerx.array([1.0, 2.0, 3.0], "float32")

    def wrong(xs):
        # x**3 whose backward treats one factor as a constant: first order right only at x = 0.
        return (xs[0] * xs[0] * xs[0].as_grad_stopped(),)

    with pytest.raises(chainerx.GradientCheckError):
        chainerx.check_double_backward(
            wrong,
            (x,),
            (chainerx.ones((3,), "float32"),),
            (chainerx.ones((3,), "float32"),),
            _steps((3,), (3,)),
            1e-3,
            1e-2,
        )
