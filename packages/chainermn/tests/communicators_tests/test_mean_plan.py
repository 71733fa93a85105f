"""The message plan of multi_node_mean_grad: pieces of large gradients, several packed
messages, gradients that are not reducible in place on some ranks, and the exact values (mpi).
The packing helpers are checked in one process."""

import numpy
import pytest
from _helpers import CPU_COMMUNICATORS

import chainer
import chainermn
from chainermn.communicators import _mean_plan, _model_params

PIECE = _mean_plan.PIECE_BYTES // 4  # float32 elements per piece of a large gradient
PACKED = _mean_plan.PACKED_BYTES // 4  # float32 elements per packed message


def _model(shapes: dict, dtype=numpy.float32) -> chainer.Chain:
    model = chainer.Chain()
    with model.init_scope():
        for key, shape in shapes.items():
            setattr(model, key, chainer.Parameter(numpy.zeros(shape, dtype)))
    return model


def _grads(rank: int, shapes: dict, dtype=numpy.float32) -> dict:
    rng = numpy.random.RandomState(7 + rank)
    return {k: rng.uniform(-1, 1, s).astype(dtype) for k, s in shapes.items()}


def _average(comm, shapes: dict, grads=None):
    """A model of ``shapes`` with this rank's gradients (``grads``, else :func:`_grads`)
    averaged, and every rank's gradients."""
    model = _model(shapes)
    for key, grad in (grads or _grads(comm.rank, shapes)).items():
        getattr(model, key).grad = grad
    comm.multi_node_mean_grad(model)
    return model, [_grads(r, shapes) for r in range(comm.size)]


def _assert_close_to_mean(model, everyone: list) -> None:
    for key in everyone[0]:
        expected = numpy.mean([g[key].astype(numpy.float64) for g in everyone], axis=0)
        numpy.testing.assert_allclose(
            getattr(model, key).grad, expected, rtol=1e-6, atol=1e-6, err_msg=key
        )


def _exact_mean(everyone: list, key: str, dtype) -> numpy.ndarray:
    """The sum in ``dtype`` in rank order, times ``1 / size`` rounded to ``dtype``."""
    total = everyone[0][key].copy()
    for other in everyone[1:]:
        total += other[key]
    return total * numpy.dtype(dtype).type(1.0 / len(everyone))


@pytest.mark.mpi
@pytest.mark.parametrize("name", CPU_COMMUNICATORS)
def test_pieces_and_several_packed_messages_give_the_mean(name):
    # "big": 2.5 messages in place; "c*": 900 KiB each, packed into two messages.
    shapes = {"big": (5, PIECE // 2), "small": (3,)}
    count = PACKED // 230400 + 2
    shapes.update({f"c{i}": (230400,) for i in range(count)})
    comm = chainermn.create_communicator(name)
    model = _model(shapes)
    mine = _grads(comm.rank, shapes)
    for key, grad in mine.items():
        getattr(model, key).grad = grad.copy()
    big = model.big.grad
    comm.multi_node_mean_grad(model)
    everyone = [_grads(r, shapes) for r in range(comm.size)]
    assert model.big.grad is big
    for key in shapes:
        expected = _exact_mean(everyone, key, numpy.float32)
        if comm.size <= 2:  # two addends: the sum is the same in any order, bitwise
            numpy.testing.assert_array_equal(getattr(model, key).grad, expected, err_msg=key)
        else:
            numpy.testing.assert_allclose(
                getattr(model, key).grad, expected, rtol=1e-6, atol=1e-6, err_msg=key
            )


@pytest.mark.mpi
def test_a_gradient_contiguous_on_one_rank_and_not_on_another_still_matches():
    """The messages depend on the sizes only: a large gradient that one rank must copy
    (non-contiguous there) travels in the same pieces as on the ranks that reduce it in place,
    next to a large gradient of another size."""
    shapes = {"a": (1200, 1000), "b": (600, 500)}
    comm = chainermn.create_communicator("flat")
    mine = _grads(comm.rank, shapes)
    if comm.rank % 2 == 1:
        mine["a"] = numpy.asfortranarray(mine["a"])
    model, everyone = _average(comm, shapes, mine)
    _assert_close_to_mean(model, everyone)


@pytest.mark.mpi
def test_float16_on_the_wire_for_large_and_packed_gradients_stays_within_tolerance():
    shapes = {"big": (PIECE + 5,), "c0": (300000,), "c1": (7,)}
    comm = chainermn.create_communicator("flat", allreduce_grad_dtype=numpy.float16)
    model, everyone = _average(comm, shapes)
    for key in shapes:
        stacked = numpy.array([g[key] for g in everyone], numpy.float64)
        bound = comm.size * 2.0**-11 * numpy.abs(stacked).max()
        assert getattr(model, key).grad.dtype == numpy.float32
        numpy.testing.assert_allclose(
            getattr(model, key).grad, stacked.mean(axis=0), rtol=0, atol=bound, err_msg=key
        )


@pytest.mark.mpi
def test_a_changed_layout_gets_its_own_plan():
    comm = chainermn.create_communicator("flat")
    for shapes in ({"a": (4, 3)}, {"a": (4, 3), "b": (300000,)}, {"a": (4, 3)}):
        _assert_close_to_mean(*_average(comm, shapes))


@pytest.mark.parametrize(
    ("dtypes", "configured", "expected"),
    [
        (("<f2",), None, numpy.float32),  # at least float32 on the wire
        (("<f2", "<f8"), None, numpy.float64),
        (("<f4", "<f8"), numpy.float16, numpy.float16),  # allreduce_grad_dtype wins
    ],
)
def test_a_plan_travels_in_the_configured_dtype_else_the_layouts(dtypes, configured, expected):
    layout = tuple((f"p{i}", (3,), d) for i, d in enumerate(dtypes))
    plans: dict = {}
    plan = _mean_plan.cached(plans, layout, configured, 2)
    assert plan.dtype == expected
    assert _mean_plan.cached(plans, layout, configured, 2) is plan
    # Another configuration of the same layout is another plan.
    other = numpy.float64 if configured is None else None
    assert _mean_plan.cached(plans, layout, other, 2) is not plan


def test_plan_splits_by_size_only():
    shapes = [(3,), (PIECE,), (200000,), (200000,), (2, PIECE), (100000,)]
    plan = _mean_plan.MeanPlan(shapes, numpy.dtype(numpy.float32), 2)
    assert plan.large == [1, 4]
    # 3 + 200000 + 200000 + 100000 floats: under one message, so one packed message.
    assert [indices for indices, _, _ in plan.packed] == [[0, 2, 3, 5]]
    assert plan.packed[0][1].size == 500003
    assert [v.shape for v in plan.packed[0][2]] == [(3,), (200000,), (200000,), (100000,)]
    assert plan.scale == numpy.float32(0.5)


def test_plan_starts_a_new_packed_message_once_one_is_full():
    shapes = [(250000,)] * 40  # just under the in-place threshold in float32
    plan = _mean_plan.MeanPlan(shapes, numpy.dtype(numpy.float32), 3)
    assert plan.large == []
    per = PACKED // 250000 + 1  # gradients are added until a message holds PACKED or more
    expected = [list(range(i, min(i + per, 40))) for i in range(0, 40, per)]
    assert [indices for indices, _, _ in plan.packed] == expected
    assert len(expected) > 2
    assert plan.packed[2][1].base is plan.packed[0][1].base  # one staging buffer
    # float16: twice as many elements per message.
    plan = _mean_plan.MeanPlan(shapes, numpy.dtype(numpy.float16), 3)
    per = 2 * PACKED // 250000 + 1
    expected = [list(range(i, min(i + per, 40))) for i in range(0, 40, per)]
    assert [indices for indices, _, _ in plan.packed] == expected


@pytest.mark.parametrize(
    "dtype, wire", [("f", "e"), ("d", "e"), ("d", "f"), ("f", "f"), ("e", "f")]
)
def test_pack_equals_assigning_each_array_bitwise(dtype, wire):
    rng = numpy.random.RandomState(0)
    arrays = [
        rng.standard_normal(shape).astype(dtype) * 1e3 for shape in [(3, 4), (5,), (0,), (2, 7)]
    ]
    arrays[3] = arrays[3].T  # not contiguous
    expected = numpy.empty(sum(a.size for a in arrays), wire)
    offset = 0
    for a in arrays:
        expected[offset : offset + a.size] = a.reshape(-1)
        offset += a.size
    packed = _model_params.pack(arrays, numpy.dtype(wire), rank=0)
    numpy.testing.assert_array_equal(packed, expected)
    assert packed.dtype == numpy.dtype(wire)


def test_unpack_views_writes_the_scaled_values_cast_to_each_array():
    buffer = numpy.arange(10, dtype=numpy.float32)
    views = [buffer[:6].reshape(2, 3), buffer[6:]]
    arrays = [numpy.zeros((2, 3), numpy.float16), numpy.zeros(4, numpy.float64)]
    _model_params.unpack_views(views, arrays, numpy.float32(0.5))
    numpy.testing.assert_array_equal(arrays[0], (numpy.arange(6) * 0.5).reshape(2, 3))
    numpy.testing.assert_array_equal(arrays[1], numpy.arange(6, 10) * 0.5)
    assert arrays[0].dtype == numpy.float16 and arrays[1].dtype == numpy.float64
