import inspect
import unittest

import pytest

from chainer.testing import condition


def flaky(outcomes):
    """A test function that plays ``outcomes`` ('pass', 'fail', 'skip', 'error') in order."""
    calls = []

    def test_flaky():
        outcome = outcomes[len(calls)]
        calls.append(outcome)
        if outcome == "fail":
            raise AssertionError(f"planned failure {len(calls)}")
        if outcome == "error":
            raise RuntimeError("planned error")
        if outcome == "skip":
            raise unittest.SkipTest("planned skip")

    return test_flaky, calls


@pytest.mark.parametrize(
    ("decorator", "outcomes", "runs", "passes"),
    [
        (condition.repeat(3), ["pass", "pass", "pass"], 3, True),
        (condition.repeat(3), ["pass", "fail", "pass"], 2, False),
        (condition.retry(3), ["fail", "error", "pass"], 3, True),
        (condition.retry(3), ["fail", "fail", "fail"], 3, False),
        (condition.retry(3), ["pass", "fail", "fail"], 1, True),
        (condition.repeat_with_success_at_least(4, 2), ["fail", "pass", "fail", "pass"], 4, True),
        (condition.repeat_with_success_at_least(4, 2), ["pass", "fail", "fail", "fail"], 4, False),
        (condition.repeat_with_success_at_least(4, 2), ["fail", "fail", "fail"], 3, False),
        (condition.repeat_with_success_at_least(4, 3), ["pass", "pass", "pass"], 3, True),
    ],
)
def test_runs_until_the_outcome_is_decided(decorator, outcomes, runs, passes):
    test, calls = flaky(outcomes)
    wrapped = decorator(test)
    if passes:
        wrapped()
    else:
        with pytest.raises(AssertionError, match=r"test_flaky passed \d+ of \d+ runs") as info:
            wrapped()
        assert "first error message:" in str(info.value)
        assert ("planned failure" in str(info.value)) or ("planned error" in str(info.value))
    assert len(calls) == runs


@pytest.mark.parametrize("skip", [pytest.skip, unittest.SkipTest])
def test_a_skipping_run_skips_the_test_at_once(skip):
    count = []

    @condition.repeat(3)
    def test_skips():
        count.append(1)
        if skip is pytest.skip:
            pytest.skip("not here")
        raise unittest.SkipTest("not here")

    with pytest.raises(unittest.SkipTest, match="not here"):
        test_skips()
    assert len(count) == 1


def test_min_success_zero_passes():
    test, calls = flaky(["fail"])
    condition.repeat_with_success_at_least(1, 0)(test)()


def test_unittest_runs_get_fresh_instances(run_unittest):
    events = []

    class TestCounter(unittest.TestCase):
        def setUp(self):
            self.value = 0
            events.append("setUp")
            self.addCleanup(events.append, "cleanup")

        def tearDown(self):
            events.append("tearDown")

        @condition.repeat(3)
        def test_increment(self):
            self.value += 1
            events.append(("value", self.value, self))
            assert self.value == 1  # would fail if runs shared an instance

    result = run_unittest([TestCounter])
    assert result.wasSuccessful()
    values = [event for event in events if isinstance(event, tuple)]
    assert [v[1] for v in values] == [1, 1, 1]
    assert len({id(v[2]) for v in values}) == 3  # the instances are alive in ``events``
    # The runner's own setUp/tearDown plus one of each per run.
    assert events.count("setUp") == 4 and events.count("tearDown") == 4
    assert events.count("cleanup") == 4


def test_wrapper_keeps_the_signature_for_fixtures():
    def test_uses_fixture(tmp_path, capsys):
        pass

    wrapped = condition.retry(2)(test_uses_fixture)
    assert list(inspect.signature(wrapped).parameters) == ["tmp_path", "capsys"]
    assert wrapped.__name__ == "test_uses_fixture"


@pytest.mark.parametrize(
    ("times", "min_success", "error", "message"),
    [
        (0, 0, ValueError, r"need times >= 1 and 0 <= min_success <= times, got times=0"),
        (2, 3, AssertionError, r"0 <= min_success <= times, got times=2, min_success=3"),
        (2, -1, ValueError, r"min_success=-1"),
        (2.0, 1, TypeError, r"times must be an int, got float 2.0"),
        (2, True, TypeError, r"min_success must be an int, got bool"),
    ],
)
def test_bad_counts(times, min_success, error, message):
    with pytest.raises(error, match=message):
        condition.repeat_with_success_at_least(times, min_success)


def test_pytest_runs_repeated_tests(run_pytest):
    run = run_pytest(
        """
        import itertools
        from chainer.testing import condition

        counter = itertools.count()

        @condition.retry(3)
        def test_third_time_lucky():
            assert next(counter) == 2

        @condition.repeat(2)
        def test_always_fails():
            assert False, 'never'
        """
    )
    assert run.outcomes == {"test_third_time_lucky": "PASSED", "test_always_fails": "FAILED"}
    assert "test_always_fails passed 0 of 1 runs, needed 2 of at most 2" in run.output
