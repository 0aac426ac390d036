"""The task process: ``python -m bench.run.task TASK_JSON RESULT_PATH`` (spawned), or
``bench.run.task:main`` called with the same two arguments in a child forked from a template
process that already imported the solver (bench.run.forkserver).

Writes the result (and partial results while running) to RESULT_PATH as JSON, atomically, so
the runner keeps whatever was reached when it has to kill this process (:class:`ResultFile`).
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import functools
import json
import logging
import os
import resource
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

from bench.records import Result, Task
from bench.run.atomic import write_atomic

PR_SET_CHILD_SUBREAPER = 36


def _prctl() -> Any:
    """libc's ``prctl``, looked up once (in a fork-server template, before its tasks fork:
    the first ctypes call costs a task milliseconds); None where there is none."""
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


PRCTL = _prctl()


def become_subreaper() -> None:
    """Orphaned descendants (a solver child's child whose parent exited, one that started its
    own session) are re-parented to this task process instead of init, so they stay in the
    task's tree, which the harness measures and kills (Linux >= 3.4; no-op elsewhere)."""
    if PRCTL is not None:
        with contextlib.suppress(OSError, ctypes.ArgumentError):
            PRCTL(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


class ResultFile:
    """RESULT_PATH, replaced atomically by each newer result: each version is written whole
    to a file of its own (``result.PID.N.json``, never rewritten), then RESULT_PATH, a symbolic
    link, is pointed at it in one ``rename``. A reader that opens RESULT_PATH sees a complete
    version; a process killed mid-write leaves the link on the last complete one.

    Why a link and not ``rename`` of the file itself (:func:`bench.run.atomic.write_atomic`):
    renaming a regular file over an existing one makes ext4 (``auto_da_alloc``) write the new
    file's data to disk before the rename returns, several milliseconds per result, paid in
    every task's wall time; renaming a link over a link writes no data."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.versions = 0

    def write(self, text: str) -> None:
        self.versions += 1
        pid = os.getpid()  # a file of one process's own, even if another wrote here too
        data = self.path.with_name(f"{self.path.stem}.{pid}.{self.versions}{self.path.suffix}")
        link = self.path.with_name(f"{self.path.name}.{pid}.link")
        try:
            with open(data, "x", encoding="utf-8") as f:
                f.write(text)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(link)  # left by a write that failed between its two steps
            try:
                os.symlink(data.name, link)
            except (OSError, NotImplementedError):  # no links here (Windows without the right)
                os.replace(data, self.path)
                return
            os.replace(link, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(link)
            raise


def fields_of(res: Result) -> dict[str, Any]:
    """The result's fields as :meth:`Result.to_dict` gives them, without its deep copy (every
    field is a JSON value, the grid a list of lists, and this is only serialised)."""
    return {f.name: getattr(res, f.name) for f in RESULT_FIELDS}


RESULT_FIELDS = dataclasses.fields(Result)


def main(*argv: str) -> int:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    become_subreaper()
    task = Task.from_dict(json.loads(argv[0]))
    out = Path(argv[1])
    result = ResultFile(out)
    # solver files (Pyomo's LP files) go to the task's folder, which the harness removes
    tempfile.tempdir = str(out.parent)
    os.environ["TMPDIR"] = str(out.parent)

    last: list[Result] = []

    def report(res: Result) -> None:
        last[:] = [res]
        # the largest ru_maxrss of this process's finished children (glpsol, cbc): at least
        # max(their own peak, this process's high-water mark when it forked them), both
        # within the tree, so a lower bound of its peak that polling cannot miss
        children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        result.write(json.dumps({**fields_of(res), "children_maxrss_mb": children}))

    from bench.judge import UNJUDGED, crashed, out_of_memory
    from bench.run.execute import base_result, execute

    try:
        res = execute(task, progress=report, on_start=functools.partial(started, task, out))
        res.rep = task.rep
    except MemoryError as e:  # Python's allocator, or a solver's (bench.backends.lpfile, highs)
        res = last[0] if last else base_result(task, None, UNJUDGED)
        out_of_memory(res, e)
    except Exception as e:  # a crash in a formulation or solver is a result, not a lost run
        traceback.print_exc()
        res = last[0] if last else base_result(task, None, UNJUDGED)
        crashed(res, e, traceback.format_exc())
    last[:] = [res]
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    result.write(json.dumps({**fields_of(res), "children_maxrss_mb": children,
                             "own_hwm_mb": own_hwm_mb(), "final": True}))
    return 0


def own_hwm_mb() -> float | None:
    """This process's VmHWM (the kernel's exact high-water mark of its RSS) in MB: the task's
    own peak, which a poll misses when the task is shorter than the poll interval. None where
    it is not the task's (a forked child whose mark could not be reset) or not readable."""
    from bench.run.spare import HWM_INHERITED

    if os.environ.get(HWM_INHERITED):
        return None
    try:
        with open("/proc/self/status", "rb") as f:
            for line in f:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


#: the file beside the result where the task writes its deadline (a perf_counter value)
DEADLINE = "deadline"


def started(task: Task, out: Path, deadline: float) -> None:
    """The task's limits start (after its one-time set-up): the harness learns the deadline,
    the kernel gets the memory limit."""
    write_atomic(out.with_name(DEADLINE), repr(deadline))
    limit_memory(task.memory_limit_mb)


def _resident_file_bytes() -> int:
    """RssFile + RssShmem of this process (Linux /proc; 0 elsewhere)."""
    total = 0
    with contextlib.suppress(OSError, ValueError, IndexError), \
            open("/proc/self/status", "rb") as f:
        for line in f:
            if line.startswith((b"RssFile:", b"RssShmem:")):
                total += int(line.split()[1]) * 1024
    return total


def limit_memory(limit_mb: int) -> None:
    """Let the kernel refuse the task's data allocations past the memory limit
    (RLIMIT_DATA: heap and private writable mappings, not the shared libraries or files a
    solver maps; inherited by its solver children, each held to it). An allocation past it
    fails (MemoryError, std::bad_alloc), recorded as ``memout``; the harness's polling of the
    tree's RSS stays the limit on the sum over processes."""
    # the limit is on resident memory, which also holds file pages (the interpreter's and the
    # solver libraries' code) that RLIMIT_DATA does not count: leave them out of the data limit
    limit = max(int(limit_mb) * 2**20 - _resident_file_bytes(), 2**20)
    with contextlib.suppress(ValueError, OSError):
        _soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))


def warm(kinds: str) -> None:
    """Run in a fork-server template before it forks tasks: the one-time set-up every task
    would otherwise repeat (puzzle rules, backend registry and versions, which read package
    metadata, the built-in formulations of these kinds, and the table of plugin entry points,
    whose reading scans every installed distribution's metadata), and the code digests of
    those backends and formulations, so that a forked task's check of its planned code
    (:func:`bench.identity.changed_code`) parses no file that did not change since."""
    from bench.backends import all_backends
    from bench.identity import backend_code, formulation_code
    from bench.puzzles import puzzle_names
    from bench.registry import load_builtin, plugins, registered

    wanted = set(kinds.split(","))
    for b in all_backends():
        if set(b.kinds) & wanted and b.available() is None:
            # some backends run the solver's executable to read its version (glpsol
            # --version) on every call: ask once here, and let forked tasks reuse it
            version = b.version()
            b.version = functools.partial(str, version)  # type: ignore[method-assign]
            b.preload()
            backend_code(type(b))
    for name in puzzle_names():
        try:
            load_builtin(name, wanted)
        except Exception as e:  # a broken formulation fails its own tasks, not the template
            logging.getLogger(__name__).warning("preloading %s formulations failed: %s: %s",
                                                name, type(e).__name__, e)
    for cls in registered():
        if cls.kind in wanted:
            formulation_code(cls)
    plugins()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
