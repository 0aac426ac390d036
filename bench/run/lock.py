"""A run folder's lock: ``.lock``, held exclusively (``flock``) by the run or merge writing the
folder and shared by a merge or a report reading it; the kernel releases it however the
process ends, so a killed run leaves no stale lock."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
import time
from pathlib import Path

LOCK = ".lock"


class FolderLocked(RuntimeError):
    """Another run is writing the run folder."""


def _flock_soon(fd: int, tries: int = 20, pause_s: float = 0.005) -> None:
    """Take ``fd``'s exclusive lock, trying again for about 0.1 s before giving up
    (``BlockingIOError``): a report holds a folder's lock shared for an instant
    (:func:`writer`), which must not turn a starting run away."""
    for _ in range(tries - 1):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            time.sleep(pause_s)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def open_lock(folder: str | Path, flags: int) -> int:
    """Open the run folder's ``.lock`` with ``flags`` (``os.O_RDWR | os.O_CREAT`` to create
    it), without following a link and without blocking; raise :class:`FolderLocked` naming it
    when it is not a regular file of one name (a symbolic or hard link would let the pid a run
    writes into it overwrite another file, and join two folders' locks; a FIFO would block a
    reader), OSError as ``os.open`` raises it else (no such file, a directory, no access)."""
    path = Path(folder) / LOCK
    try:
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
    except OSError as e:
        if e.errno != errno.ELOOP:
            raise
        fd = -1
    info = os.fstat(fd) if fd >= 0 else None
    if info is None or not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
        if fd >= 0:
            os.close(fd)
        raise FolderLocked(f"{path}: not a regular file of its own (a link, FIFO or device): "
                           "no run writes a folder whose lock it cannot trust; remove it")
    return fd


def _holder(fd: int) -> str:
    """Who holds the lock on ``fd`` that an exclusive lock could not take, for a message: a
    reader (a merge reading its input, or a report) when a shared lock can still be had, else
    a run or a merge writing the folder, with the pid it wrote into the lock."""
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        pid = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
        return f"by another run or merge (pid {pid})"
    fcntl.flock(fd, fcntl.LOCK_UN)
    return "by another process: a merge or a report reading it"


class RunLock:
    """An exclusive lock on a run folder while a run writes it (``flock``: released by the
    kernel however the run ends, so a killed run leaves no stale lock)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.fd: int | None = None

    def __enter__(self) -> RunLock:
        self.folder.mkdir(parents=True, exist_ok=True)
        fd = open_lock(self.folder, os.O_RDWR | os.O_CREAT)
        try:
            _flock_soon(fd)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise FolderLocked(f"{self.folder} is held {holder}; wait for it to finish or "
                               "use another --out") from None
        with contextlib.suppress(OSError):  # the pid is for the message only
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self.fd = fd
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def writer(folder: str | Path) -> str | None:
    """Who is writing the run folder now: the pid a run wrote into its ``.lock`` ("?" when
    unreadable) while the run holds the lock, else None. A shared lock is tried and let go at
    once (as ``merge`` takes its inputs'); the lock is opened as :func:`open_lock` opens it,
    and anything but a regular file is no lock."""
    try:
        fd = open_lock(folder, os.O_RDONLY)
    except (OSError, FolderLocked):  # no lock file: no run has written here since locks
        return None                  # were kept
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
        except OSError:
            return None
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)
