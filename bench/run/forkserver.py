"""A fork server: a pre-imported template process that forks each task.

Importing a solver stack (python-sat, OR-tools, Pyomo + highspy) costs more than most puzzles'
solves take; paid by every task process, it would dominate the times. A run therefore starts one
template process per (model kind, thread setting), which imports the modules once and then forks
a fresh child per task. Isolation stays: each child is a new process in its own session and
process group (killed as a group at the limit), with its own result file and stderr, and its
memory is measured from outside exactly as a spawned task's is.

Pre-forking: the template keeps one *spare* child forked ahead of time. The spare does
everything a task child does before its task (its own session, the death signal, its VmHWM
reset, stdin and stdout on /dev/null: the work after ``fork``) and then waits on a pipe of its
own; it says when it is ready on a second pipe. A request goes to the ready spare; the task's
time starts at that hand-off (``t0``, ``perf_counter``: CLOCK_MONOTONIC, the same clock in
every process), so neither the copy of the template's page tables nor the child's start is
timed. The template forks the next spare when a task child of its own has ended (between tasks
at ``--jobs 1``, not while one runs), and at its start; a request that finds no spare forks a
child then, its time starting before that fork. A spare belongs to no task: it is not in a
task's process tree, nor in a task's memory cgroup, until its task is handed to it. When the
template ends, it kills its spare; a spare whose template died is killed by the kernel
(``PR_SET_PDEATHSIG``) and sees end-of-file on its pipe.

Protocol (JSON lines): the harness writes ``{"id", "target", "args", "stderr"}`` to the
template's stdin; the template hands it to its spare (or forks), answers ``{"id", "pid",
"rss", "t0"}`` at once (``rss``: the child's own RSS when its task began, after the fork
and its start-up, so that the task's own increase is its peak minus this; ``t0``: the
hand-off, or the start of the fork; ``spare``: whether it was the spare) and ``{"pid",
"code"}`` when it reaps the child; ``{"spare"}`` once the next spare, forked after a task
child ended, is ready (:meth:`Template.wait_spare`).
``target`` is ``module:function``, called in the child with ``args``; its return value is the
exit code.

Lifetimes: the template asks the kernel to kill it when the harness dies
(``PR_SET_PDEATHSIG``), and each child to be killed when the template dies, so neither
outlives the harness. The signal follows the *thread* that started the template: start
templates from a thread that lives as long as the run (the runner uses its main thread).
A task's own children (glpsol, cbc) are in the task's process group.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from queue import Empty, Queue
from typing import Any

from bench.run.spare import (
    SPARE_READY_S,
    SPARES,
    Spare,
    child_main,
    die_with_parent,
    fork_spare,
    readable,
    rss_bytes,
)

log = logging.getLogger(__name__)

#: how a forked child ended: exit code (negative: killed by that signal), CPU seconds
Exit = tuple[int, float | None]


# ----------------------------------------------------------------------- the template side


def serve(parent: int, modules: Sequence[str], prefork: bool = True) -> None:
    """The template's loop: preload, then run one child per request line on stdin: its spare
    (pre-forked; ``prefork``), or one forked for the request."""
    die_with_parent(parent)
    preload(modules)
    # the template's objects go to the permanent generation: a child's garbage collections
    # then neither scan them nor copy their pages (copy-on-write)
    gc.collect()
    gc.freeze()
    out = sys.stdout
    rfd, wfd = os.pipe()
    os.set_blocking(wfd, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(wfd, warn_on_full_buffer=False)
    stdin = sys.stdin.buffer
    me = os.getpid()  # before a fork: a child's getppid() is 1 if we died first
    spare: list[Spare] = [fork_spare(me)] if prefork else []
    out.write(json.dumps({"ready": me, "rss": rss_bytes()}) + "\n")
    out.flush()
    buf = b""
    try:
        while True:
            ready = readable([stdin.fileno(), rfd], None)
            if rfd in ready:
                with contextlib.suppress(BlockingIOError):
                    os.read(rfd, 4096)
            _reap(out, spare, me if prefork else None)
            if stdin.fileno() not in ready:
                continue
            chunk = os.read(stdin.fileno(), 65536)
            if not chunk:  # the harness closed the pipe: stop (children end on their own)
                return
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                req = json.loads(line)
                pid, rss, t0, handed = _start(req, line, spare, me)
                out.write(json.dumps({"id": req["id"], "pid": pid, "rss": rss, "t0": t0,
                                      "spare": handed}) + "\n")
                out.flush()
            _reap(out, spare, me if prefork else None)
    finally:
        for s in spare:  # idle: it has no task to finish
            with contextlib.suppress(OSError):
                os.kill(s.pid, signal.SIGKILL)
                os.waitpid(s.pid, 0)
            s.close()


def _start(req: dict[str, Any], line: bytes, spare: list[Spare],
           me: int) -> tuple[int, int, float, bool]:
    """Start the request's child: hand it to the ready spare, else fork a spare for it and
    hand it there; its pid, its RSS when its task began (the spare's own, said when ready),
    the start of its time (the hand-off, or before the fork), and whether it was the
    template's standing spare."""
    while spare:
        s = spare.pop()
        if s.wait_ready(SPARE_READY_S):
            t0 = time.perf_counter()
            if s.hand(line):
                SPARES.discard(s.pid)
                return s.pid, s.rss, t0, True
        s.close()
        with contextlib.suppress(OSError):  # a spare that failed: killed, reaped in _reap
            os.kill(s.pid, signal.SIGKILL)
    t0 = time.perf_counter()
    s = fork_spare(me)
    if s.wait_ready(SPARE_READY_S) and s.hand(line):
        SPARES.discard(s.pid)
        return s.pid, s.rss, t0, False
    s.close()
    with contextlib.suppress(OSError):  # a child that never said ready: killed, reaped later
        os.kill(s.pid, signal.SIGKILL)
    # the last resort, forked directly: its base is this process's RSS, an upper bound of the
    # child's own at its start
    rss = rss_bytes()
    pid = os.fork()
    if pid == 0:
        child_main(req, me)
    return pid, rss, t0, False


def _reap(out: Any, spare: list[Spare], refill: int | None) -> None:
    """Report each ended child (``{"pid", "code", "cpu"}``); a dead spare is dropped. With
    ``refill`` (the template's pid), fork a new spare once a task child ended and none is
    left."""
    ended = False
    while True:
        try:
            pid, status, usage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            break
        if not pid:
            break
        if pid in SPARES:  # a spare that had no task: not the harness's business
            SPARES.discard(pid)
            for s in [s for s in spare if s.pid == pid]:
                spare.remove(s)
                s.close()
            continue
        ended = True
        out.write(json.dumps({"pid": pid, "code": os.waitstatus_to_exitcode(status),
                              "cpu": usage.ru_utime + usage.ru_stime}) + "\n")
        out.flush()
    if ended and refill is not None and not spare:
        spare.append(fork_spare(refill))
        # said once it is ready: the runner starts its next task after that, so the fork
        # overlaps no task (one at a time)
        spare[0].wait_ready(SPARE_READY_S)
        out.write(json.dumps({"spare": spare[0].pid}) + "\n")
        out.flush()


# ------------------------------------------------------------------------ the harness side


def preload(names: Sequence[str]) -> None:
    """Import each "module", or import and call "module:function:arg" as function(arg); a
    failure is logged and skipped."""
    for name in names:
        module, _, call = name.partition(":")
        try:
            mod = importlib.import_module(module)
            if call:
                func, _, arg = call.partition(":")
                getattr(mod, func)(arg)
        except Exception as e:  # a broken plugin: its tasks import it and record the error
            log.warning("preloading %s failed: %s: %s", name, type(e).__name__, e)


def fork_here(target: str, args: Sequence[Any],
              stderr: Path | None = None) -> tuple[int, int]:
    """Fork a task child from this process itself (which must be single-threaded and have
    preloaded what the task needs): for a one-task command, where a template process would
    cost as much as the interpreter it saves. The child starts as a spare does and is handed
    the task once it said ready; its pid and its RSS when its task began. Wait for it with
    ``os.waitpid``."""
    req = {"target": target, "args": list(args), "stderr": str(stderr) if stderr else None}
    parent = os.getpid()
    sys.stdout.flush()
    sys.stderr.flush()
    s = fork_spare(parent)
    SPARES.discard(s.pid)
    if s.wait_ready(SPARE_READY_S) and s.hand(json.dumps(req).encode()):
        return s.pid, s.rss
    s.close()
    with contextlib.suppress(OSError):  # never said ready: killed; the caller's waitpid
        os.kill(s.pid, signal.SIGKILL)  # of the child below does not reap it
        os.waitpid(s.pid, 0)
    rss = rss_bytes()  # the last resort, as in _start
    pid = os.fork()
    if pid == 0:
        child_main(req, parent)
    return pid, rss


#: seconds the harness waits for the template's answer to a request; past it the template is
#: killed (it waits at most three SPARE_READY_S for children, well inside this)
FORK_TIMEOUT_S = 30.0
#: the template's option to fork each child on request (no spare)
NO_PREFORK = "--no-prefork"
#: the template's option taking the formulation modules its harness skipped already
#: (:func:`bench.registry_load.skipped_state`)
SKIPPED = "--skipped="


class TemplateError(RuntimeError):
    pass


#: a template's answer to a request: the child's pid, its RSS when its task began, the
#: start of its time (``perf_counter``), where its exit will come
Answer = tuple[int, int, float, Queue[Exit]]


class Forked:
    """A task child of a template: its pid, its RSS when its task began, the start of
    its time (``t0``, ``perf_counter``: the hand-off to a ready spare, or the start of the
    fork; default: now), its exit."""

    def __init__(self, pid: int, base_rss: int, exits: Queue[Exit],
                 t0: float | None = None) -> None:
        self.pid, self.base_rss, self._exits = pid, base_rss, exits
        self.t0 = time.perf_counter() if t0 is None else t0
        self.returncode: int | None = None
        self.cpu_s: float | None = None

    def wait(self, timeout: float) -> int | None:
        """The exit code once the template reaped the child, else None after ``timeout``."""
        if self.returncode is None:
            with contextlib.suppress(Empty):
                self.returncode, self.cpu_s = self._exits.get(timeout=timeout)
        return self.returncode


class Template:
    """One template process; ``fork`` is thread-safe (jobs > 1 share a template).
    ``prefork``: the template keeps a spare child forked ahead of time (else it forks each
    child on request)."""

    def __init__(self, preload: Sequence[str], env: dict[str, str] | None = None,
                 prefork: bool = True) -> None:
        from bench.registry_load import skipped_state

        self.preload = tuple(preload)
        # the formulation modules this process skipped (and logged): the template skips them
        # without importing them, nor logging them again
        skipped = skipped_state()
        t0 = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, "-P", "-m", "bench.run.forkserver", str(os.getpid()),  # -P: SAFE_M
             *([] if prefork else [NO_PREFORK]), *([SKIPPED + skipped] if skipped else []),
             *self.preload],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, start_new_session=True,
        )
        assert self.proc.stdin and self.proc.stdout
        try:
            first = self.proc.stdout.readline()
        except BaseException:  # the harness stops (a Ctrl-C) while the template preloads
            self.proc.kill()
            self.proc.wait()
            raise
        if not first:
            raise TemplateError(f"template for {self.preload} did not start")
        self.rss = int(json.loads(first)["rss"])
        self.startup_s = time.perf_counter() - t0
        self._lock = threading.Lock()
        self._next = 0
        self._forks: dict[int, Queue[Answer]] = {}
        self._exits: dict[int, Queue[Exit]] = {}
        self._spare = threading.Event()  # clear from a hand-off to the spare to the next one
        self._spare.set()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout
        for line in self.proc.stdout:
            msg = json.loads(line)
            with self._lock:
                if "id" in msg:
                    if msg.get("spare"):
                        self._spare.clear()
                    exits: Queue[Exit] = Queue()
                    self._exits[msg["pid"]] = exits
                    self._forks.pop(msg["id"]).put((msg["pid"], msg["rss"], msg["t0"],
                                                     exits))
                elif "pid" in msg and msg["pid"] in self._exits:
                    self._exits.pop(msg["pid"]).put((msg["code"], msg.get("cpu")))
                elif "spare" in msg:
                    self._spare.set()
        self._spare.set()
        with self._lock:  # the template died: nothing more will come
            for q in self._forks.values():
                q.put((0, 0, 0.0, Queue()))
            for e in self._exits.values():
                e.put((-signal.SIGKILL, None))

    def alive(self) -> bool:
        return self.proc.poll() is None

    def fork(self, target: str, args: Sequence[Any], stderr: Path | None = None) -> Forked:
        """Start a child running ``target(*args)`` (stderr to that file): the template's
        spare, or one forked now."""
        answer: Queue[Answer] = Queue()
        with self._lock:
            if not self.alive():
                raise TemplateError("template process is gone")
            self._next += 1
            rid = self._next
            self._forks[rid] = answer
            req = {"id": rid, "target": target, "args": list(args),
                   "stderr": str(stderr) if stderr else None}
            assert self.proc.stdin
            self.proc.stdin.write((json.dumps(req) + "\n").encode())
            self.proc.stdin.flush()
        try:
            pid, rss, t0, exits = answer.get(timeout=FORK_TIMEOUT_S)
        except Empty:
            pid = 0
        if not pid:
            # the caller runs the task another way: the template must not start it late, in
            # a child nobody watches, so it ends here (its children die with it: PDEATHSIG)
            with contextlib.suppress(OSError):
                self.proc.kill()
            raise TemplateError("template did not fork")
        return Forked(pid, rss, exits, t0)

    def wait_spare(self, timeout: float) -> bool:
        """Wait until the template's next spare is ready (after a task handed to its spare
        ended); False after ``timeout``. The runner waits before its next task, so the
        fork of the spare is not in that task's time, whatever template it uses."""
        return self._spare.wait(timeout)

    def close(self) -> None:
        end_child(self.proc)


def end_child(proc: subprocess.Popen[Any]) -> None:
    """Close a helper process's stdin (its signal to finish) and reap it, killing it after 5 s."""
    with contextlib.suppress(OSError):
        if proc.stdin:
            proc.stdin.close()
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


#: the run's marker in the environment of every template (and so of every task and solver
#: child): the watchdog kills what carries it when the harness dies
RUN_MARKER = "PUZZLEBENCH_RUN"
#: the watchdog program, run by path in isolated mode (standard library only)
WATCHDOG = Path(__file__).with_name("watchdog.py")

class Watchdog:
    """The run's watchdog process (:mod:`bench.run.watchdog`): it outlives the harness however
    it dies (its own session, no PDEATHSIG); when its stdin closes without a goodbye, it kills
    every process carrying the run's marker (solver children that a task started in their own
    session, or that the kernel's PDEATHSIG does not reach) and removes the task folders still
    registered.

    ``marked(env)`` is the environment for what the run starts; ``guard``/``release`` register a
    task folder; ``close`` says goodbye (a normal end: nothing is killed)."""

    def __init__(self) -> None:
        self.token = f"{os.getpid()}-{time.time_ns()}"
        self._lock = threading.Lock()
        self.proc = subprocess.Popen(
            [sys.executable, "-S", "-I", str(WATCHDOG), self.token, RUN_MARKER],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, start_new_session=True, text=True,
        )

    def marked(self, env: dict[str, str]) -> dict[str, str]:
        return {**env, RUN_MARKER: self.token}

    def _send(self, line: str) -> None:
        with self._lock, contextlib.suppress(OSError, ValueError):
            assert self.proc.stdin
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()

    def guard(self, folder: str | Path) -> None:
        self._send(f"+{folder}")

    def release(self, folder: str | Path) -> None:
        self._send(f"-{folder}")

    def track(self, folder: str | Path, pid: int, started: bytes) -> None:
        """A process of the task in ``folder`` (pid and start time): killed if the harness
        dies, whether or not it carries the run's marker."""
        self._send(f"p{folder}\t{pid}\t{started.decode()}")

    def close(self) -> None:
        self._send("bye")
        end_child(self.proc)


def main(argv: list[str]) -> int:
    """``PARENT [--no-prefork] [--skipped=JSON] MODULE...``"""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    parent, *modules = argv
    prefork = modules[:1] != [NO_PREFORK]
    modules = modules[not prefork:]
    if modules[:1] and modules[0].startswith(SKIPPED):
        from bench.registry_load import adopt_skipped

        adopt_skipped(modules.pop(0).removeprefix(SKIPPED))
    serve(int(parent), modules, prefork=prefork)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
