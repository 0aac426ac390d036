"""The installed entry points of a group, read once for every group at a time.

``importlib.metadata.entry_points(group=...)`` reads the ``entry_points.txt`` of every installed
distribution on each call, whatever the group; the puzzles, formulations and backends registries
each ask for their own group, so a command (or a task process) would read them all three times.
:func:`entry_points` reads them once per ``sys.path`` (a test or a plugin that puts a folder on
the path is seen) and answers each group from that reading, in the same order.
"""

from __future__ import annotations

import functools
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import importlib.metadata


def entry_points(group: str) -> list[importlib.metadata.EntryPoint]:
    """The entry points of ``group``, as ``importlib.metadata.entry_points(group=group)``."""
    return list(_table(tuple(sys.path)).get(group, ()))


@functools.lru_cache(maxsize=8)
def _table(path: tuple[str, ...]) -> dict[str, tuple[importlib.metadata.EntryPoint, ...]]:
    import importlib.metadata  # on first use: a command that reads no entry point skips it

    every = importlib.metadata.entry_points()  # one reading, all groups (3.11: by group)
    return {g: tuple(every.select(group=g)) for g in every.groups}
