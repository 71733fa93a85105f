"""Choosing, on every process, the same snapshot set to resume from.

Each process that holds snapshot files lists what it has; the newest entry present on all of
them whose files every one of them can read is chosen, and processes say why newer entries
were passed over. A mixed set (processes resuming from different points) is never chosen.
"""

from __future__ import annotations

import os
import warnings
import zipfile
from collections.abc import Callable, Hashable, Sequence


def allgather_obj(comm, obj) -> list:
    return comm.bcast_obj(comm.gather_obj(obj, root=0), root=0)


def check_npz(path: str) -> str | None:
    """``None`` when ``path`` is a complete NPZ file, else why it cannot be used."""
    if not os.path.isfile(path):
        return "missing"
    try:
        with zipfile.ZipFile(path) as archive:
            bad = archive.testzip()
    except (zipfile.BadZipFile, OSError, EOFError) as error:
        return f"truncated or corrupt ({error})"
    return None if bad is None else f"corrupt member {bad!r}"


def choose_common(
    comm, mine: Sequence[Hashable] | None, problem: Callable[[Hashable], str | None], what: str
) -> Hashable | None:
    """The newest key every participating process has and can read, the same on all.

    Args:
        comm: The communicator (every process calls this together).
        mine: This process's keys, oldest first; ``None`` when it takes no part.
        problem: For one of ``mine``: ``None`` if its file is usable, else the reason.
        what: What the keys name, for the messages (e.g. "checkpoint 'run'").

    Returns:
        The chosen key, or ``None`` when no complete set exists.
    """
    everyone = allgather_obj(comm, None if mine is None else list(mine))
    holders = [rank for rank, keys in enumerate(everyone) if keys is not None]
    if not holders:
        return None
    common = set(everyone[holders[0]])
    for rank in holders[1:]:
        common &= set(everyone[rank])
    candidates = [key for key in everyone[holders[0]] if key in common]
    newest = {everyone[rank][-1] for rank in holders if everyone[rank]}
    skipped = []
    for key in sorted(newest - common, key=str):
        missing = [rank for rank in holders if key not in everyone[rank]]
        skipped.append(f"{key} is missing on rank(s) {missing}")
    chosen = None
    while candidates:
        key = candidates.pop()
        reason = problem(key) if mine is not None else None
        reasons = allgather_obj(comm, reason)
        bad = {rank: r for rank, r in enumerate(reasons) if r is not None}
        if not bad:
            chosen = key
            break
        skipped.append(
            f"{key} is unusable: " + "; ".join(f"rank {r}: {m}" for r, m in bad.items())
        )
    if skipped and comm.rank == 0:
        outcome = "no complete set left" if chosen is None else f"resuming from {chosen}"
        warnings.warn(
            f"{what}: passing over the newest snapshots ({'; '.join(skipped)}); {outcome}, "
            "the newest set every process has complete",
            UserWarning,
            stacklevel=3,
        )
    return chosen
