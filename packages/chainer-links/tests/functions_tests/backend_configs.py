"""Backend configurations shared by the function tests (``testing.inject_backend_tests``).

The ChainerX configuration is skipped where chainerx is not installed.
"""

CPU_AND_CHAINERX = [{}, {"use_chainerx": True, "chainerx_device": "native:0"}]
