import random
import unittest

import numpy
import pytest

from chainer import testing


def draw():
    return (random.random(), float(numpy.random.uniform()))


def expected_draw():
    """What a generator seeded with 0 draws first, computed independently of fix_random."""
    return (random.Random(0).random(), float(numpy.random.RandomState(0).uniform()))


def test_function_draws_the_fixed_numbers_and_restores_the_state():
    random.seed(123)
    numpy.random.seed(123)
    reference_after = draw()
    random.seed(123)
    numpy.random.seed(123)

    @testing.fix_random()
    def test_draws():
        return draw()

    assert test_draws() == expected_draw()
    assert test_draws() == expected_draw()
    assert draw() == reference_after  # the outer sequence continues untouched


def test_function_state_is_restored_after_a_failure():
    numpy.random.seed(7)
    expected = numpy.random.RandomState(7).uniform()

    @testing.fix_random()
    def test_fails():
        numpy.random.uniform()
        raise AssertionError("boom")

    with pytest.raises(AssertionError, match="boom"):
        test_fails()
    assert numpy.random.uniform() == expected


def test_unittest_class_setup_and_tests_are_reproducible(run_unittest):
    seen = []

    @testing.fix_random()
    class TestDraws(unittest.TestCase):
        def setUp(self):
            self.x = draw()

        def tearDown(self):
            seen.append("tearDown")

        def test_a(self):
            seen.append((self.x, draw()))

        def test_b(self):
            seen.append((self.x, draw()))

    result = run_unittest([TestDraws])
    assert result.wasSuccessful() and result.testsRun == 2
    first, second = (entry for entry in seen if entry != "tearDown")
    assert first == second
    assert first[0] == expected_draw()
    assert seen.count("tearDown") == 2
    assert TestDraws.setUp.__name__ == "setUp"


def test_failing_setup_restores_the_state(run_unittest):
    @testing.fix_random()
    class TestBrokenSetup(unittest.TestCase):
        def setUp(self):
            raise RuntimeError("setup failed")

        def test_a(self):
            pass

    numpy.random.seed(11)
    expected = numpy.random.RandomState(11).uniform()
    result = run_unittest([TestBrokenSetup])
    assert len(result.errors) == 1
    assert numpy.random.uniform() == expected


def test_pytest_style_class_gets_the_methods_created(run_pytest):
    run = run_pytest(
        """
        import numpy
        from chainer import testing

        FIRST = float(numpy.random.RandomState(0).uniform())

        @testing.fix_random(setup_method='setup_method', teardown_method='teardown_method')
        class TestPlain:
            def test_a(self):
                assert float(numpy.random.uniform()) == FIRST

            def test_b(self):
                assert float(numpy.random.uniform()) == FIRST
        """
    )
    assert run.outcomes == {"TestPlain::test_a": "PASSED", "TestPlain::test_b": "PASSED"}, (
        run.output
    )


def test_generate_seed_is_reproducible_inside_fix_random():
    @testing.fix_random()
    def test_seed():
        return testing.generate_seed()

    expected = int(numpy.random.RandomState(0).randint(0, 2**32 - 1, dtype=numpy.int64))
    assert test_seed() == test_seed() == expected


def test_generate_seed_outside_fix_random():
    with pytest.raises(
        RuntimeError, match=r"must be called inside a test decorated with .*fix_random"
    ):
        testing.generate_seed()


def test_fix_random_rejects_other_objects():
    with pytest.raises(TypeError, match="fix_random decorates a test class or function, got int"):
        testing.fix_random()(3)
