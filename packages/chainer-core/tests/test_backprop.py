"""The backward engine: the docs' examples, accumulation, retain_grad, grad(), loss scale."""

import numpy
import pytest

import chainer
from chainer import Variable
from chainer._ops import array_ops


def f32(values):
    return numpy.array(values, dtype=numpy.float32)


class TestDocsVariablesAndDerivatives:
    def test_scalar_polynomial(self):
        x = Variable(f32(5))
        y = x**2 - 2 * x + 1
        numpy.testing.assert_array_equal(y.array, f32(16))
        y.backward()
        numpy.testing.assert_array_equal(x.grad, f32(8))

    def test_one_element_output_starts_from_one_with_a_deprecation_warning(self):
        # The docs' example with shape (1,): v7 warns that only shape () is a scalar.
        x = Variable(f32([5]))
        y = x**2 - 2 * x + 1
        with pytest.warns(DeprecationWarning, match=r"output of shape \(1,\) \(one element"):
            y.backward()
        numpy.testing.assert_array_equal(x.grad, f32([8]))

    def test_retain_grad_keeps_intermediate_gradients(self):
        x = Variable(f32(5))
        z = 2 * x
        y = x**2 - z + 1
        y.backward(retain_grad=True)
        numpy.testing.assert_array_equal(z.grad, f32(-1))

    def test_intermediate_gradients_are_released_by_default(self):
        x = Variable(f32(5))
        z = 2 * x
        y = x**2 - z + 1
        y.backward()
        assert z.grad is None

    def test_multi_element_output_needs_its_grad(self):
        x = Variable(f32([[1, 2, 3], [4, 5, 6]]))
        y = x**2 - 2 * x + 1
        with pytest.raises(ValueError, match=r"output of shape \(2, 3\) has no gradient"):
            y.backward()
        y.grad = numpy.ones((2, 3), dtype=numpy.float32)
        y.backward()
        numpy.testing.assert_array_equal(x.grad, f32([[0, 2, 4], [6, 8, 10]]))

    def test_an_empty_output_starts_from_an_empty_gradient(self):
        # ChainerMN's delegate variables are empty; backward from them reaches their creator.
        x = Variable(f32([1, 2]))
        empty = (x[:0] + x[:0]) * 3  # core operators only: chainer-links is not a dependency
        assert empty.shape == (0,)
        empty.backward()
        numpy.testing.assert_array_equal(x.grad, f32([0, 0]))


class TestDocsHigherOrderDerivatives:
    def test_second_derivative_of_cube(self):
        x = chainer.Variable(f32([[0, 2, 3], [4, 5, 6]]))
        y = x**3
        y.grad = numpy.ones((2, 3), dtype=numpy.float32)
        y.backward(enable_double_backprop=True)
        assert x.grad_var.array is x.grad
        assert (x.grad == (3 * x**2).array).all()
        assert x.grad_var.creator_node is not None
        gx = x.grad_var
        x.cleargrad()
        gx.grad = numpy.ones((2, 3), dtype=numpy.float32)
        gx.backward()
        numpy.testing.assert_array_equal(x.grad, f32([[0, 12, 18], [24, 30, 36]]))
        assert (x.grad == (6 * x).array).all()

    def test_third_and_fourth_order_through_grad(self):
        x = Variable(numpy.array([0.5, 1.5], numpy.float64))
        y = x**4  # derivatives: 4x^3, 12x^2, 24x, 24
        expected = [4 * x.array**3, 12 * x.array**2, 24 * x.array, numpy.full(2, 24.0)]
        g = y
        for want in expected:
            (g,) = chainer.grad([g], [x], [Variable(numpy.ones(2))], enable_double_backprop=True)
            numpy.testing.assert_allclose(g.array, want)

    def test_without_double_backprop_the_gradient_has_no_graph(self):
        x = Variable(f32([1, 2]))
        y = x**3
        y.grad = numpy.ones(2, numpy.float32)
        y.backward()
        assert x.grad_var.creator_node is None


class TestAccumulation:
    def test_leaf_gradients_accumulate_across_calls(self):
        x = Variable(f32([1, 2]))
        for _ in range(2):
            y = x * 3
            y.grad = numpy.ones(2, numpy.float32)
            y.backward()
        numpy.testing.assert_array_equal(x.grad, f32([6, 6]))

    def test_fan_out_sums_all_paths(self):
        x = Variable(f32(2))
        h = x * x
        y = h * h + h * 3 + x  # dy/dx = 4x^3 + 6x + 1
        y.backward()
        numpy.testing.assert_array_equal(x.grad, f32(32 + 12 + 1))

    def test_the_same_variable_twice_as_input(self):
        x = Variable(f32(3))
        y = x * x
        y.backward()
        numpy.testing.assert_array_equal(x.grad, f32(6))

    @pytest.mark.parametrize("lazy", [False, True])
    def test_lazy_grad_sum_gives_the_same_result(self, lazy):
        with chainer.using_config("lazy_grad_sum", lazy):
            x = Variable(f32([1, 2]))
            y = array_ops.sum(x * 2 + x * 3 + x)
            y.backward()
        numpy.testing.assert_array_equal(x.grad, f32([6, 6]))

    def test_requires_grad_false_gets_no_gradient(self):
        x = Variable(f32(1), requires_grad=False)
        w = Variable(f32(2))
        (x * w).backward()
        assert x.grad is None
        numpy.testing.assert_array_equal(w.grad, f32(1))

    def test_backward_from_a_leaf_does_nothing(self):
        x = Variable(f32([1]))
        x.backward()
        assert x.grad is None


class TestBackwardFunction:
    def test_several_outputs_at_once(self):
        x = Variable(f32([1, 2]))
        y1 = x * 2
        y2 = x * x
        chainer.backward([y1, y2], [f32([1, 1]), f32([1, 0])])
        numpy.testing.assert_array_equal(x.grad, f32([4, 2]))

    def test_argument_errors(self):
        x = Variable(f32([1]))
        with pytest.raises(TypeError, match="tuple or list"):
            chainer.backward(x * 2)
        with pytest.raises(TypeError, match="each output must be a Variable"):
            chainer.backward([f32([1])])
        with pytest.raises(ValueError, match="grad_outputs has 2 entries but there are 1"):
            chainer.backward([x * 2], [None, None])
        with pytest.raises(TypeError, match="unexpected keyword arguments: \\['retain_grad'\\]"):
            chainer.backward([x * 2], retain_grad=True)

    def test_loss_scale_scales_gradients_and_marks_leaves(self):
        x = Variable(f32([1, 2]))
        y = array_ops.sum(x * 3)
        y.backward(loss_scale=8)
        numpy.testing.assert_array_equal(x.grad, f32([24, 24]))
        assert x._loss_scale == 8


class TestGrad:
    def test_grad_does_not_touch_grad_attributes(self):
        x = Variable(f32([1, 2]))
        y = x * x
        (gx,) = chainer.grad([y], [x], [Variable(f32([1, 1]))])
        numpy.testing.assert_array_equal(gx.array, f32([2, 4]))
        assert x.grad is None

    def test_intermediate_inputs_and_unreachable_inputs(self):
        x = Variable(f32([1, 2]))
        unrelated = Variable(f32([3]))
        h = x * 3
        y = array_ops.sum(h * h)
        gh, gu = chainer.grad([y], [h, unrelated])
        numpy.testing.assert_array_equal(gh.array, 2 * h.array)
        assert gu is None

    def test_an_intermediate_input_gradient_flows_on_to_earlier_inputs(self):
        # v7: grad_inputs start gradients at the inputs; they propagate like any gradient.
        x1 = Variable(f32(0.5))
        x2 = x1 * 2
        y = x2 * 3
        g1, g2 = chainer.grad([y], [x1, x2], [Variable(f32(1))], [None, Variable(f32(100))])
        numpy.testing.assert_array_equal(g2.array, 3 + 100)
        numpy.testing.assert_array_equal(g1.array, 2 * (3 + 100))

    def test_gradient_sequences_must_be_tuples_or_lists(self):
        x = Variable(f32([1, 2]))
        y = x * x
        g = Variable(f32([1, 1]))
        with pytest.raises(TypeError, match="grad_outputs must be a tuple or a list, not Var"):
            chainer.grad([y], [x], g)
        with pytest.raises(TypeError, match="grad_inputs must be a tuple or a list, not Var"):
            chainer.grad([y], [x], [g], g)

    def test_grad_inputs_are_added_and_set_grad_stores(self):
        x = Variable(f32([1, 2]))
        y = array_ops.sum(x * 2)
        (gx,) = chainer.grad([y], [x], grad_inputs=[f32([10, 10])], set_grad=True)
        numpy.testing.assert_array_equal(gx.array, f32([12, 12]))
        assert x.grad_var is gx

    def test_output_that_is_also_an_input(self):
        x = Variable(f32([1]))
        (gx,) = chainer.grad([x], [x])
        numpy.testing.assert_array_equal(gx.array, f32([1]))

    def test_retain_grad_and_loss_scale(self):
        x = Variable(f32([1, 2]))
        h = x * 2
        y = array_ops.sum(h)
        (gx,) = chainer.grad([y], [x], retain_grad=True, loss_scale=2)
        numpy.testing.assert_array_equal(gx.array, f32([4, 4]))
        numpy.testing.assert_array_equal(h.grad, f32([2, 2]))

    def test_argument_errors(self):
        x = Variable(f32([1, 2]))
        y = x * 2
        with pytest.raises(TypeError, match="outputs must be a tuple or a list"):
            chainer.grad(y, [x])
        with pytest.raises(TypeError, match="inputs must contain only Variables"):
            chainer.grad([y], [x.array])
        with pytest.raises(ValueError, match="grad_outputs must have 1 entries, got 2"):
            chainer.grad([y], [x], [None, None])

    def test_grad_of_a_non_scalar_output_starts_from_ones(self):
        # v7: without grad_outputs, every output starts from ones, whatever its size.
        x = Variable(f32([1, 2]))
        y = x * x
        (gx,) = chainer.grad([y], [x])
        numpy.testing.assert_array_equal(gx.array, f32([2, 4]))


def test_backward_consumes_the_output_gradient_unless_retain_grad():
    x = Variable(f32([1, 2]))
    y = x * 3
    y.grad = f32([1, 1])
    y.backward()
    assert y.grad_var is None  # v6+: used up by backward
    numpy.testing.assert_array_equal(x.grad, f32([3, 3]))
    y = x * 3
    y.grad = f32([1, 1])
    y.backward(retain_grad=True)
    numpy.testing.assert_array_equal(y.grad, f32([1, 1]))


def test_chainer_backward_skips_outputs_without_gradient_and_duplicates():
    x = Variable(f32([4.0]))
    x.grad = f32([3.0])
    y = x * 2
    with pytest.warns(RuntimeWarning, match="output 0 has no gradient"):
        chainer.backward([y])
    numpy.testing.assert_array_equal(x.grad, f32([3.0]))
    x.cleargrad()
    y = x * 2
    y.grad = f32([1.0])
    with pytest.warns(RuntimeWarning, match="output 1 is given more than once"):
        chainer.backward([y, y])
    numpy.testing.assert_array_equal(x.grad, f32([2.0]))
    with pytest.raises(TypeError, match="grad_outputs must be a tuple or list"):
        chainer.backward([x * 2], Variable(f32([1.0])))
