"""A fork server: a pre-imported template process that forks each task.

Importing a solver stack (python-sat, OR-tools, Pyomo + highspy) costs more than most puzzles'
solves take; paid by every task process, it would dominate the times. A run therefore starts one
template process per (model kind, thread setting), which imports the modules once and then forks
a fresh child per task. Isolation stays: each child is a new process in its own session and
process group (killed as a group at the limit), with its own result file and stderr, and its
memory is measured from outside exactly as a spawned task's is.

Protocol (JSON lines): the harness writes ``{"id", "target", "args", "stderr"}`` to the
template's stdin; the template forks, answers ``{"id", "pid"}`` at once and
``{"pid", "code"}`` when it reaps the child. ``target`` is ``module:function``, called in the
child with ``args``; its return value is the exit code.

Lifetimes: the template asks the kernel to kill it when the harness dies
(``PR_SET_PDEATHSIG``), and each child to be killed when the template dies, so neither
outlives the harness. The signal follows the *thread* that started the template: start
templates from a thread that lives as long as the run (the runner uses its main thread).
A task's own children (glpsol, cbc) are in the task's process group.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import importlib
import json
import logging
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from queue import Empty, Queue
from typing import Any

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1
#: how a forked child ended: exit code (negative: killed by that signal), CPU seconds
Exit = tuple[int, float | None]


_prctl: list[Any] = []  # libc's prctl, looked up once: a template's children inherit it


def die_with_parent(parent: int) -> None:
    """Be killed (SIGKILL) when the parent thread/process exits (Linux; no-op elsewhere)."""
    with contextlib.suppress(OSError, AttributeError):
        if not _prctl:
            _prctl.append(ctypes.CDLL(None, use_errno=True).prctl)
        _prctl[0](PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


def reset_peak_rss() -> bool:
    """Reset this process's VmHWM to its current RSS (Linux >= 4.0, ``clear_refs`` value 5):
    a forked child inherits the template's high-water mark, which is not the task's."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def rss_bytes() -> int:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


# ----------------------------------------------------------------------- the template side


def _child(req: dict[str, Any], parent: int) -> None:
    """In the forked child: new session, own stderr, run the target, exit without cleanup."""
    code = 1
    try:
        os.setsid()
        die_with_parent(parent)
        with contextlib.suppress(ValueError):
            signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        reset_peak_rss()
        devnull = os.open(os.devnull, os.O_RDWR)
        err = os.open(req["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644) \
            if req.get("stderr") else devnull
        os.dup2(devnull, 0)
        os.dup2(devnull, 1)
        os.dup2(err, 2)
        module, func = req["target"].split(":")
        code = int(getattr(importlib.import_module(module), func)(*req["args"]) or 0)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    except BaseException:  # report and exit; never return into the template
        import traceback

        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stderr.flush()
        os._exit(code)


def serve(parent: int, modules: Sequence[str]) -> None:
    """The template's loop: preload, then fork one child per request line on stdin."""
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
    out.write(json.dumps({"ready": os.getpid(), "rss": rss_bytes()}) + "\n")
    out.flush()
    buf = b""
    while True:
        ready, _, _ = select.select([stdin.fileno(), rfd], [], [])
        if rfd in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(rfd, 4096)
        _reap(out)
        if stdin.fileno() not in ready:
            continue
        chunk = os.read(stdin.fileno(), 65536)
        if not chunk:  # the harness closed the pipe: stop (children end on their own)
            return
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            req = json.loads(line)
            rss = rss_bytes()
            me = os.getpid()  # before the fork: the child's getppid() is 1 if we died first
            pid = os.fork()
            if pid == 0:
                _child(req, me)
            out.write(json.dumps({"id": req["id"], "pid": pid, "rss": rss}) + "\n")
            out.flush()
        _reap(out)


def _reap(out: Any) -> None:
    while True:
        try:
            pid, status, usage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if not pid:
            return
        out.write(json.dumps({"pid": pid, "code": os.waitstatus_to_exitcode(status),
                              "cpu": usage.ru_utime + usage.ru_stime}) + "\n")
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


def fork_here(target: str, args: Sequence[Any], stderr: Path | None = None) -> int:
    """Fork a task child from this process itself (which must be single-threaded and have
    preloaded what the task needs): for a one-task command, where a template process would
    cost as much as the interpreter it saves. Wait for it with ``os.waitpid``."""
    req = {"target": target, "args": list(args), "stderr": str(stderr) if stderr else None}
    parent = os.getpid()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        _child(req, parent)
    return pid


class TemplateError(RuntimeError):
    pass


class Forked:
    """A task child of a template: its pid, the template's RSS when it forked, its exit."""

    def __init__(self, pid: int, base_rss: int, exits: Queue[Exit]) -> None:
        self.pid, self.base_rss, self._exits = pid, base_rss, exits
        self.returncode: int | None = None
        self.cpu_s: float | None = None

    def wait(self, timeout: float) -> int | None:
        """The exit code once the template reaped the child, else None after ``timeout``."""
        if self.returncode is None:
            with contextlib.suppress(Empty):
                self.returncode, self.cpu_s = self._exits.get(timeout=timeout)
        return self.returncode


class Template:
    """One template process; ``fork`` is thread-safe (jobs > 1 share a template)."""

    def __init__(self, preload: Sequence[str], env: dict[str, str] | None = None) -> None:
        self.preload = tuple(preload)
        t0 = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bench.run.forkserver", str(os.getpid()), *self.preload],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, start_new_session=True,
        )
        assert self.proc.stdin and self.proc.stdout
        first = self.proc.stdout.readline()
        if not first:
            raise TemplateError(f"template for {self.preload} did not start")
        self.rss = int(json.loads(first)["rss"])
        self.startup_s = time.perf_counter() - t0
        self._lock = threading.Lock()
        self._next = 0
        self._forks: dict[int, Queue[tuple[int, int, Queue[Exit]]]] = {}
        self._exits: dict[int, Queue[Exit]] = {}
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout
        for line in self.proc.stdout:
            msg = json.loads(line)
            with self._lock:
                if "id" in msg:
                    exits: Queue[Exit] = Queue()
                    self._exits[msg["pid"]] = exits
                    self._forks.pop(msg["id"]).put((msg["pid"], msg["rss"], exits))
                elif "pid" in msg and msg["pid"] in self._exits:
                    self._exits.pop(msg["pid"]).put((msg["code"], msg.get("cpu")))
        with self._lock:  # the template died: nothing more will come
            for q in self._forks.values():
                q.put((0, 0, Queue()))
            for e in self._exits.values():
                e.put((-signal.SIGKILL, None))

    def alive(self) -> bool:
        return self.proc.poll() is None

    def fork(self, target: str, args: Sequence[Any], stderr: Path | None = None) -> Forked:
        answer: Queue[tuple[int, int, Queue[Exit]]] = Queue()
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
            pid, rss, exits = answer.get(timeout=30)
        except Empty:
            pid = 0
        if not pid:
            raise TemplateError("template did not fork")
        return Forked(pid, rss, exits)

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
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    serve(int(argv[0]), argv[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
