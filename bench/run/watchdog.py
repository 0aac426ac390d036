"""The run's watchdog: a small program that outlives the harness however it dies, then kills
what the run left behind and removes its task folders.

Started by :class:`bench.run.forkserver.Watchdog` as ``python -S -I <this file> TOKEN MARKER``
in its own session: isolated mode without ``site`` imports the standard library only, so it
starts in milliseconds and depends on no module of the harness. It reads lines on stdin:

- ``+DIR`` guard a task folder, ``-DIR`` release it (and forget its processes);
- ``pDIR<TAB>PID<TAB>START`` track a process of the task in DIR, by pid and start time (field
  22 of ``/proc/PID/stat``, so a recycled pid is never mistaken for it);
- ``bye``: the harness ends normally; nothing is killed.

The harness is gone when stdin ends without ``bye`` or when this process is re-parented (a
process forked from the harness without exec keeps the pipe open). Then it stops (SIGSTOP, so
none forks away) and kills the tracked processes that are still the same, kills every process
whose environment carries ``MARKER=TOKEN`` (rounds until none is left, at most 20), and in every
case removes the folders still guarded (task folders, and task memory cgroups, removable once
their killed processes have left).
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import sys
import time

#: the task processes being tracked: folder -> {pid: start time}
Tracked = dict[str, dict[int, bytes]]


def start_time(pid: int) -> bytes:
    """A process's start time (clock ticks since boot, /proc/PID/stat field 22); b"" if gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[19]
    except (OSError, IndexError):
        return b""


def listen(fd: int, dirs: set[str], pids: Tracked) -> bool:
    """Apply the commands on ``fd`` until it ends, ``bye`` comes, or the parent changes;
    True on ``bye`` (a normal end)."""
    parent, buf = os.getppid(), b""
    while True:
        if not select.select([fd], [], [], 0.2)[0]:
            if os.getppid() != parent:
                return False
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            return False
        *lines, buf = (buf + chunk).split(b"\n")
        for line in (ln.decode() for ln in lines):
            if line == "bye":
                return True
            if line[:1] == "+":
                dirs.add(line[1:])
            elif line[:1] == "-":
                dirs.discard(line[1:])
                pids.pop(line[1:], None)
            elif line[:1] == "p":
                d, p, t = line[1:].rsplit("\t", 2)
                pids.setdefault(d, {})[int(p)] = t.encode()


def signal_all(pids: list[int], sig: signal.Signals) -> None:
    for p in pids:
        with contextlib.suppress(OSError):
            os.kill(p, sig)


def kill_tracked(pids: Tracked) -> None:
    """Stop, then kill, the tracked processes whose start time still matches."""
    tracked = [(p, t) for ps in pids.values() for p, t in ps.items()]
    signal_all([p for p, t in tracked if start_time(p) == t], signal.SIGSTOP)
    signal_all([p for p, t in tracked if start_time(p) == t], signal.SIGKILL)


def kill_marked(mark: bytes) -> None:
    """Kill every process whose environment holds ``mark``, in rounds until none is found."""
    for _ in range(20):
        found = 0
        for p in os.listdir("/proc"):
            if not p.isdigit() or int(p) == os.getpid():
                continue
            try:
                with open("/proc/" + p + "/environ", "rb") as f:
                    if mark in f.read().split(b"\0"):
                        os.kill(int(p), signal.SIGKILL)
                        found += 1
            except OSError:
                pass
        if not found:
            return
        time.sleep(0.05)


def remove(dirs: set[str]) -> None:
    for d in dirs:
        for _ in range(100):
            shutil.rmtree(d, ignore_errors=True)
            if not os.path.exists(d):
                break
            time.sleep(0.02)


def main(argv: list[str]) -> int:
    """``argv``: the run's token and the marker's environment variable name."""
    token, marker = argv
    dirs: set[str] = set()
    pids: Tracked = {}
    if not listen(sys.stdin.fileno(), dirs, pids):
        kill_tracked(pids)
        kill_marked(f"{marker}={token}".encode())
    remove(dirs)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
