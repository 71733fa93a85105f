"""Checks of the state handling shared by the stateful rnn link tests."""

from chainer.device_resident import DeviceResidentsVisitor


class _RecordingVisitor(DeviceResidentsVisitor):
    def __init__(self):
        self.variables = []

    def visit_device_resident(self, device_resident):
        pass

    def visit_array(self, arr):
        return arr

    def visit_variable(self, param):
        self.variables.append(param)


def visited_variables(link):
    """The variables a device transfer of ``link`` would move."""
    visitor = _RecordingVisitor()
    link.device_resident_accept(visitor)
    return visitor.variables


def assert_states_are_visited(link, names):
    """A device transfer moves the state variables ``names`` along with the parameters."""
    visited = visited_variables(link)
    for name in names:
        state = getattr(link, name)
        assert state is not None, name
        assert any(v is state for v in visited), name
    assert all(any(v is p for v in visited) for p in link.params())
