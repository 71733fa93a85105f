"""The two reductions of a two-rank average (MPI's sum then a division, NumPy's mean of two
in the reduction): the same bits, chosen alike on every rank from the slowest rank's
durations (mpi); the choice itself and the averaged write-back in one process."""

import numpy
import pytest
from mpi4py import MPI

import chainer
import chainermn
from chainermn.communicators import _mean_choice, _mean_plan, _model_params
from chainermn.communicators import _memory_utility as _mem


def _choices(choice: _mean_choice.MeanChoice, durations: list) -> list:
    """What ``choice`` answers call after call when the average that uses NumPy's mean takes
    ``durations[1]`` seconds and the other ``durations[0]``."""
    answers = []
    for _ in range(2 * _mean_choice.RETRY_EVERY):
        use_numpy = choice.next()
        answers.append(use_numpy)
        choice.record(durations[use_numpy])
    return answers


@pytest.mark.parametrize("faster", [0, 1])
def test_both_reductions_run_first_then_the_faster_one_with_a_retry_of_the_other(faster):
    durations = [2.0, 1.0] if faster else [1.0, 2.0]
    answers = _choices(_mean_choice.MeanChoice(), durations)
    warm_up = 2 * _mean_choice.WARM_UP
    assert answers[:warm_up] == [False, True] * _mean_choice.WARM_UP
    rest = answers[warm_up:]
    retries = [i for i, a in enumerate(rest, start=warm_up + 1) if a != bool(faster)]
    assert retries == [_mean_choice.RETRY_EVERY, 2 * _mean_choice.RETRY_EVERY]


def test_the_choice_follows_a_machine_that_changes():
    choice = _mean_choice.MeanChoice()
    _choices(choice, [1.0, 2.0])  # MPI's sum is faster ...
    answers = []
    for _ in range(_mean_choice.WINDOW + 1):  # ... until it takes 3 s: its fast durations
        use_numpy = choice.next()  # leave the window as it keeps running
        answers.append(use_numpy)
        choice.record(2.0 if use_numpy else 3.0)
    assert answers[: _mean_choice.WINDOW] == [False] * _mean_choice.WINDOW
    assert answers[-1] is True


def test_a_duration_without_a_pending_answer_is_ignored():
    choice = _mean_choice.MeanChoice()
    choice.record(5.0)
    assert [list(d) for d in choice.durations] == [[], []]
    choice.next()
    choice.record(1.0)
    choice.record(9.0)  # a second report of the same average
    assert [list(d) for d in choice.durations] == [[1.0], []]


def test_only_float_plans_of_two_ranks_choose():
    assert _mean_plan.MeanPlan([(3,)], numpy.dtype(numpy.float32), 2).mean_choice is not None
    assert _mean_plan.MeanPlan([(3,)], numpy.dtype(numpy.float64), 2).mean_choice is not None
    assert _mean_plan.MeanPlan([(3,)], numpy.dtype(numpy.float16), 2).mean_choice is None
    assert _mean_plan.MeanPlan([(3,)], numpy.dtype(numpy.float32), 3).mean_choice is None


def test_an_averaging_reduction_leaves_the_plan_only_the_write_back():
    step = _mean_plan.MEAN_PIECE_BYTES // 4
    # Packed, in place in two pieces, packed, and through a copy (not C-contiguous).
    shapes = [(4, 5), (2, step // 2 + 3), (6,)]
    rng = numpy.random.RandomState(3)
    grads = [rng.uniform(-1, 1, s).astype(numpy.float32) for s in shapes]
    grads.append(numpy.asfortranarray(rng.uniform(-1, 1, (3, step)).astype(numpy.float32)))
    plan = _mean_plan.MeanPlan([g.shape for g in grads], numpy.dtype(numpy.float32), 2)
    expected = [g * numpy.float32(0.75) for g in grads]

    def halve_and_more(buffer):  # stands for a reduction that averages
        buffer *= numpy.float32(0.75)

    plan.run(grads, halve_and_more, 0, averaged=True)
    for got, want in zip(grads, expected):
        numpy.testing.assert_array_equal(got, want)


def test_numpys_mean_takes_large_gradients_in_smaller_pieces():
    piece, mean_piece = _mean_plan.PIECE_BYTES // 4, _mean_plan.MEAN_PIECE_BYTES // 4
    plan = _mean_plan.MeanPlan([(piece + 5,)], numpy.dtype(numpy.float32), 2)
    grads = [numpy.zeros(piece + 5, numpy.float32)]
    assert [b.size for b, _ in plan.messages(grads, 0)] == [piece, 5]
    by_numpy = [b.size for b, _ in plan.messages(grads, 0, averaged=True)]
    assert by_numpy == [mean_piece] * (piece // mean_piece) + [5]


def test_unpack_views_without_a_scale_copies():
    buffer = numpy.arange(6, dtype=numpy.float32)
    arrays = [numpy.zeros(2, numpy.float64), numpy.zeros((2, 2), numpy.float32)]
    views = [buffer[:2], buffer[2:].reshape(2, 2)]
    _model_params.unpack_views(views, arrays, None)
    numpy.testing.assert_array_equal(arrays[0], [0.0, 1.0])
    numpy.testing.assert_array_equal(arrays[1], [[2.0, 3.0], [4.0, 5.0]])


@pytest.fixture(scope="module")
def world():
    comm = chainermn.create_communicator("flat")
    if comm.size < 2:
        pytest.skip("needs mpiexec -n 2 or more")
    return comm


@pytest.mark.mpi
@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_numpys_mean_of_two_has_the_bits_of_the_sum_then_the_division(world, dtype):
    if world.size != 2:
        pytest.skip("the mean of two is only used with two ranks")
    everyone = [numpy.random.RandomState(r).standard_normal(70_001).astype(dtype) for r in (0, 1)]
    mine = everyone[world.rank].copy()
    op, datatype = _mem.mean_of_two_op_and_type(numpy.dtype(dtype))
    world.mpi_comm.Allreduce(MPI.IN_PLACE, [mine, datatype], op)
    expected = (everyone[0] + everyone[1]) / dtype(2)
    numpy.testing.assert_array_equal(mine, expected)
    summed = everyone[world.rank].copy()
    world.mpi_comm.Allreduce(MPI.IN_PLACE, summed, MPI.SUM)
    numpy.testing.assert_array_equal(mine, summed * dtype(0.5))


@pytest.mark.mpi
def test_agree_on_layout_returns_the_largest_report(world):
    grads = [numpy.zeros(3, numpy.float32)]
    _, _, largest = _model_params.agree_on_layout(
        world.mpi_comm, ["w"], grads, "test", report=10 * (world.rank + 1)
    )
    assert largest == 10 * world.size


@pytest.mark.mpi
def test_every_average_is_exact_and_every_rank_chooses_alike(world):
    step = _mean_plan.PIECE_BYTES // 4  # 1.5 pieces of MPI's sum, 6 of NumPy's mean
    model = chainer.Chain()
    with model.init_scope():
        model.big = chainer.Parameter(numpy.zeros((3, step // 2), numpy.float32))
        model.small = chainer.Parameter(numpy.zeros((7, 5), numpy.float32))
    calls = 2 * _mean_choice.WARM_UP + 4
    for call in range(calls):
        everyone = []
        for r in range(world.size):
            rng = numpy.random.RandomState(100 * call + r)
            shapes = {"big": (3, step // 2), "small": (7, 5)}
            everyone.append({k: rng.uniform(-1, 1, s) for k, s in shapes.items()})
        for key, param in model.namedparams():
            param.grad = everyone[world.rank][key[1:]].astype(numpy.float32)
        world.multi_node_mean_grad(model)
        for key in ("big", "small"):
            total = everyone[0][key].astype(numpy.float32)
            for other in everyone[1:]:
                total = total + other[key].astype(numpy.float32)
            expected = total * numpy.float32(1.0 / world.size)
            got = getattr(model, key).grad
            if world.size == 2:  # one addition per element: the same bits either way
                numpy.testing.assert_array_equal(got, expected, err_msg=key)
            else:  # the MPI library's order of additions
                numpy.testing.assert_allclose(got, expected, rtol=1e-6, err_msg=key)
    plans = world._mean_plans
    (plan,) = plans.values()
    if world.size != 2:
        assert plan.mean_choice is None
        return
    histories = world.mpi_comm.allgather([list(d) for d in plan.mean_choice.durations])
    assert all(h == histories[0] for h in histories)
    assert all(len(d) >= _mean_choice.WARM_UP for d in histories[0])
