"""The native device's cache of freed large buffers stays within its documented bound.

Freed buffers of 256 KiB or more are kept, by page-rounded size, for the next request of that
size, up to 512 MiB in all; the rest go back to malloc. Measured on the resident memory (RSS)
of a fresh process whose malloc maps every block of 128 KiB or more on its own
(``MALLOC_MMAP_THRESHOLD_`` fixed), so that a block malloc gets back leaves the RSS at once
and what stays resident is the cache (and the arrays alive).
"""

import os
import subprocess
import sys

import pytest

SCRIPT = """
import chainerx as chx

MIB = 2**20
PAGE = 4096


def rss():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * PAGE


# Nine buffers of distinct page-rounded sizes just over 60 MiB each (540 MiB touched): nine do
# not fit the 512 MiB cap together, so eight stay cached when all are freed.
sizes = [(60 * MIB + k * PAGE) // 4 for k in range(9)]
chx.ones((1,), chx.float32)  # the device, the thread pool and the binding are set up
base = rss()
arrays = [chx.ones((n,), chx.float32) for n in sizes]
live = rss() - base
del arrays
cached = rss() - base
# The same sizes again: the cached buffers are reused (only the others are fresh pages).
arrays = [chx.ones((n,), chx.float32) for n in sizes]
again = rss() - base
del arrays
# Other sizes (each once): nothing is evicted for them, and the cache does not grow past its cap.
for k in range(4):
    chx.ones(((32 * MIB + k * PAGE) // 4,), chx.float32)
after_others = rss() - base
print(live / MIB, cached / MIB, again / MIB, after_others / MIB)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc and glibc's malloc")
def test_freed_large_buffers_are_cached_up_to_512_mib():
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="131072", OPENBLAS_NUM_THREADS="1")
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    live, cached, again, after_others = map(float, result.stdout.split())
    slack = 16  # MiB: the interpreter, malloc's own pages
    assert 540 - slack < live < 540 + slack
    # Eight buffers of 60 MiB (and a few pages) fit the cap; the ninth was unmapped.
    assert 480 - slack < cached <= 512 + slack
    # The eight cached buffers were handed out again (not cached ones and eight fresh ones).
    assert 540 - slack < again < 540 + slack
    # The cache kept the first sizes (512 MiB at most): the 32 MiB blocks, which do not fit
    # beside them, were unmapped on release.
    assert 480 - slack < after_others <= 512 + slack
