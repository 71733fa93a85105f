"""How freed NumPy arrays of a few megabytes are reused instead of faulted in again.

A training step allocates and frees the same large temporaries (im2col columns, the saved
gates of an LSTM, gradients) again and again. glibc's malloc serves blocks above its mmap
threshold with fresh mappings and hands its heap's free top back to the OS above its trim
threshold; both start low (128 KiB) and only rise to the largest block freed so far (up to
32 MiB). Until they have risen above a step's temporaries, every step faults all their pages
in again: measured, a one-layer ``n_step_lstm`` (20 steps, batch 32, 128 units) spent 3.3 ms
of a 9.5 ms step in the kernel for 2,000 page faults.

:func:`raise_malloc_thresholds` (called once when ``chainer`` is imported) allocates and
frees one untouched block of :data:`THRESHOLD_BYTES`, which raises them as such a temporary
would: blocks below 30 MiB then come from the heap, and up to 60 MiB of its free top is kept
for reuse. No page of the block is touched, so it costs no memory; elsewhere than on glibc it
is an allocation and a free. Setting ``MALLOC_MMAP_THRESHOLD_`` (or ``mallopt``) fixes
glibc's thresholds, and then this changes nothing.
"""

from __future__ import annotations

import numpy

#: The block allocated and freed once to raise glibc's malloc thresholds (bytes).
THRESHOLD_BYTES = 30 * 2**20


def raise_malloc_thresholds() -> None:
    """Allocate and free one block of :data:`THRESHOLD_BYTES` (see the module docstring)."""
    numpy.empty(THRESHOLD_BYTES, numpy.uint8)
