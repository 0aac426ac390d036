"""Replacing a file in one step: write a temporary file beside it, then rename it over the old
one (``os.replace``, atomic within a file system). A reader sees the old file or the new one,
never a torn one; a full or read-only disk leaves the old file whole and no temporary behind.
Used for the task's result and deadline files (a task killed mid-write leaves its last
complete result) and the run folder's files."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path


def replace_atomic(path: Path, write: Callable[[Path], object]) -> None:
    """Replace ``path`` by what ``write(temporary_path)`` writes (``PATH.tmp`` beside it)."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def write_atomic(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` (:func:`replace_atomic`)."""
    replace_atomic(path, lambda tmp: tmp.write_text(text))
