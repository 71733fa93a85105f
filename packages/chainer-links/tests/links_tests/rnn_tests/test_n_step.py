"""The NStep links: parameters w0../b0.. per layer and direction, sequences in any order."""

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import initializers, testing
from chainer.links.rnn import n_step_rnn

from .._link_checks import check_copies, check_npz_round_trip, npz_keys
from ._rnn_references import n_step_reference

# class name -> (cell of the reference, bidirectional, weights per layer, state arrays)
LINKS = {
    "NStepLSTM": ("lstm", False, 8, 2),
    "NStepBiLSTM": ("lstm", True, 8, 2),
    "NStepGRU": ("gru", False, 6, 1),
    "NStepBiGRU": ("gru", True, 6, 1),
    "NStepRNNTanh": ("tanh", False, 2, 1),
    "NStepBiRNNTanh": ("tanh", True, 2, 1),
    "NStepRNNReLU": ("relu", False, 2, 1),
    "NStepBiRNNReLU": ("relu", True, 2, 1),
}
N_LAYERS, IN, OUT = 2, 3, 4
LENGTHS = (2, 4, 1)  # deliberately not sorted


def _random(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


@testing.parameterize(*testing.product({"name": sorted(LINKS), "given_state": [False, True]}))
@testing.inject_backend_tests(None, [{}])
class TestNStepLink(testing.LinkTestCase):
    """Outputs and final states per sequence, in the caller's order, against NumPy; gradients
    of the inputs and of parameters of both layers."""

    check_backward_options = {"atol": 1e-3, "rtol": 1e-3}
    dodge_nondifferentiable = True

    def setUp(self):
        self.cell, self.bi, self.n_weights, self.n_cells = LINKS[self.name]
        self.directions = 2 if self.bi else 1

    @property
    def param_names(self):
        # All of them: a float64 numerical gradient needs every parameter in float64.
        return tuple(
            f"{k}/{kind}{j}"
            for k in range(N_LAYERS * self.directions)
            for j in range(self.n_weights)
            for kind in "wb"
        )

    def generate_params(self):
        # Initializers of all the weights and of all the biases (random biases too).
        return initializers.Normal(0.5), initializers.Normal(0.5)

    def create_link(self, initializers):
        initialW, initial_bias = initializers
        return getattr(L, self.name)(
            N_LAYERS, IN, OUT, 0.0, initialW=initialW, initial_bias=initial_bias
        )

    def generate_inputs(self):
        xs = tuple(_random(length, IN) for length in LENGTHS)
        if not self.given_state:
            return xs
        shape = (N_LAYERS * self.directions, len(LENGTHS), OUT)
        return tuple(_random(*shape) for _ in range(self.n_cells)) + xs

    def forward(self, link, inputs, device):
        states = list(inputs[: self.n_cells]) if self.given_state else [None] * self.n_cells
        xs = list(inputs[self.n_cells :] if self.given_state else inputs)
        *finals, ys = link(*states, xs)
        return (*finals, *ys)

    def forward_expected(self, link, inputs):
        if self.given_state:
            states, xs = inputs[: self.n_cells], inputs[self.n_cells :]
        else:
            shape = (N_LAYERS * self.directions, len(LENGTHS), OUT)
            states, xs = [numpy.zeros(shape)] * self.n_cells, inputs
        ws = [[w.array for w in layer] for layer in link.ws]
        bs = [[b.array for b in layer] for layer in link.bs]
        finals, ys = n_step_reference(self.cell, N_LAYERS, self.bi, states, ws, bs, xs)
        return tuple(v.astype(numpy.float32) for v in (*finals, *ys))


@pytest.mark.parametrize("name", sorted(LINKS))
def test_parameters_are_named_and_shaped_as_in_chainer(name):
    _, bi, n_weights, n_cells = LINKS[name]
    directions = 2 if bi else 1
    link = getattr(L, name)(N_LAYERS, IN, OUT, 0.0)
    assert len(link) == N_LAYERS * directions
    assert (link.n_weights, link.n_cells, link.use_bi_direction) == (n_weights, n_cells, bi)
    expected = {
        f"{k}/{kind}{j}"
        for k in range(N_LAYERS * directions)
        for j in range(n_weights)
        for kind in "wb"
    }
    assert npz_keys(link) == expected
    for k, layer in enumerate(link):
        for j in range(n_weights):
            fan_in = OUT if j >= n_weights // 2 else (IN if k < directions else directions * OUT)
            assert getattr(layer, f"w{j}").shape == (OUT, fan_in)
            assert getattr(layer, f"b{j}").shape == (OUT,)
            assert link.ws[k][j] is getattr(layer, f"w{j}")
            assert link.bs[k][j] is getattr(layer, f"b{j}")


def test_default_initializers_scale_with_the_fan_in():
    numpy.random.seed(0)
    link = L.NStepLSTM(1, 400, 100, 0.0)
    numpy.testing.assert_allclose(link[0].w0.array.std(), (1 / 400) ** 0.5, rtol=0.03)
    numpy.testing.assert_allclose(link[0].w4.array.std(), (1 / 100) ** 0.5, rtol=0.03)
    numpy.testing.assert_array_equal(link[0].b0.array, 0)
    link = L.NStepGRU(1, 2, 3, 0.0, initialW=0.5, initial_bias=-1.0)
    numpy.testing.assert_array_equal(link[0].w5.array, 0.5)
    numpy.testing.assert_array_equal(link[0].b2.array, -1.0)


def test_link_equals_the_function_on_sorted_time_major_inputs():
    link = L.NStepBiLSTM(2, IN, OUT, 0.0)
    xs = [_random(length, IN) for length in (4, 2, 1)]
    hy, cy, ys = link(None, None, xs)
    zeros = numpy.zeros((4, 3, OUT), numpy.float32)
    hy_f, cy_f, ys_f = F.n_step_bilstm(
        2, 0.0, zeros, zeros, link.ws, link.bs, F.transpose_sequence(xs)
    )
    numpy.testing.assert_array_equal(hy.array, hy_f.array)
    numpy.testing.assert_array_equal(cy.array, cy_f.array)
    for y, y_f in zip(ys, F.transpose_sequence(ys_f)):
        numpy.testing.assert_array_equal(y.array, y_f.array)


def test_dropout_acts_between_layers_in_training_only():
    link = L.NStepRNNTanh(2, IN, OUT, 0.5)
    xs = [_random(3, IN)]
    with chainer.using_config("train", False):
        first = link(None, xs)[1][0].array
        numpy.testing.assert_array_equal(link(None, xs)[1][0].array, first)
    assert not numpy.allclose(link(None, xs)[1][0].array, first)


def test_copies_collect_their_own_parameters():
    link = L.NStepGRU(1, IN, OUT, 0.0)
    for mode in ("share", "copy", "init"):
        copied = link.copy(mode)
        assert copied.ws[0][0] is copied[0].w0 and copied.ws[0][0] is not link.ws[0][0]
        assert copied.bs[0][5] is copied[0].b5
    check_copies(link)


def _flat_call(link, *args):
    *finals, ys = link(*args)
    return (*finals, *ys)


def test_npz_round_trip():
    xs = [_random(length, IN) for length in LENGTHS]
    check_npz_round_trip(lambda: L.NStepBiLSTM(2, IN, OUT, 0.0), (None, None, xs), _flat_call)
    check_npz_round_trip(lambda: L.NStepGRU(1, IN, OUT, 0.0), (None, xs), _flat_call)


def test_gradients_reach_every_parameter():
    link = L.NStepBiGRU(2, IN, OUT, 0.0)
    link.cleargrads()  # gradients are NaN until cleared (v7)
    hy, ys = link(None, [_random(length, IN) for length in LENGTHS])
    F.sum(hy).backward()
    for name, param in link.namedparams():
        assert param.grad is not None and numpy.abs(param.grad).sum() > 0, name


def test_xs_must_be_a_list():
    link = L.NStepLSTM(1, IN, OUT, 0.0)
    with pytest.raises(TypeError, match=r"NStepLSTM: xs must be a list of sequences .* ndarray"):
        link(None, None, _random(2, IN))
    with pytest.raises(ValueError, match="NStepLSTM: xs must hold at least one sequence"):
        link(None, None, [])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"use_cudnn": True}, "use_cudnn argument is not supported anymore"),
        ({"use_bi_direction": True}, "use_bi_direction is not supported anymore"),
        ({"activation": "relu"}, "activation is not supported anymore"),
    ],
)
def test_retired_constructor_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        L.NStepRNNTanh(1, IN, OUT, 0.0, **kwargs)


def test_unknown_arguments_and_the_retired_train_argument():
    with pytest.raises(TypeError, match="unexpected"):
        L.NStepGRU(1, IN, OUT, 0.0, colour="red")
    with pytest.raises(ValueError, match="train argument is not supported anymore"):
        L.NStepGRU(1, IN, OUT, 0.0)(None, [_random(2, IN)], train=True)


def test_the_sequence_helpers_are_reexported():
    assert n_step_rnn.argsort_list_descent([[1], [1, 2, 3], [1, 2]]).tolist() == [1, 2, 0]
    assert n_step_rnn.permutate_list(["a", "b", "c"], [2, 0, 1], inv=False) == ["c", "a", "b"]
    assert n_step_rnn.permutate_list(["c", "a", "b"], [2, 0, 1], inv=True) == ["a", "b", "c"]
