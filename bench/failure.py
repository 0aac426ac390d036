"""What a formulation's exception becomes in a result: the phase of the solve it was raised in,
a one-line message that names the formulation's own line (``file:line``), and the whole
traceback (kept in the journal's ``traceback`` field).

The formulation's "own code" is the folder of the top-level package its class is defined in
(``formulations/`` for a built-in one, the plugin's package folder for a plugin, the module
file for a plugin that is a single module): the frames there are the ones its author can fix.
"""

from __future__ import annotations

import re
import signal
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

#: the steps of a solve an error is reported in
PHASES = ("setup", "skip", "build", "solve", "separate", "decode", "verify", "block")


@dataclass(frozen=True)
class Failure:
    """An exception raised by a formulation or its solver during ``phase``."""

    phase: str
    message: str  # one line: "build: KeyError: (10, 0) at mine/sat_mine.py:57"
    traceback: str  # the whole Python traceback


def own_root(cls: type) -> Path | None:
    """The folder (or file) of the code a formulation's author owns (see the module text)."""
    top = sys.modules.get(cls.__module__.split(".")[0])
    if top is None:
        return None
    paths = list(getattr(top, "__path__", []))
    if paths:
        return Path(paths[0]).resolve()
    file = getattr(top, "__file__", None)
    return Path(file).resolve() if file else None


def _owned(filename: str, root: Path | None) -> bool:
    if root is None:
        return False
    path = Path(filename).resolve()
    return path == root or root in path.parents


def _shown(filename: str, root: Path | None) -> str:
    """A frame's file relative to the folder above the formulation's package."""
    path = Path(filename).resolve()
    if root is not None and _owned(filename, root):
        return str(path.relative_to(root.parent))
    return filename


def describe(exc: BaseException, phase: str, form: object) -> Failure:
    """The :class:`Failure` of ``exc`` raised in ``phase`` of ``form`` (a formulation)."""
    cls = type(form)
    root = own_root(cls)
    frames = traceback.extract_tb(exc.__traceback__)
    own = [f for f in frames if _owned(f.filename, root)]
    where = own[-1] if own else (frames[-1] if frames else None)
    text = (f"{type(exc).__name__}: {exc}".splitlines() or [type(exc).__name__])[0]
    label = getattr(form, "label", cls.__name__)
    at = f" at {_shown(where.filename, root)}:{where.lineno}" if where else ""
    return Failure(phase, f"{label}: {phase}: {text}{at}",
                   "".join(traceback.format_exception(exc)))


_FRAME = re.compile(r'^  File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<func>.+)$')


def own_frames(trace: str, cls: type | None, last: int = 3) -> list[str]:
    """The last ``last`` frames of a traceback text that are in the formulation's own code
    (``cls``'s package; every frame outside the harness and Python when ``cls`` is None),
    each as ``file:line in function`` and its source line."""
    root = own_root(cls) if cls is not None else None
    harness = Path(__file__).resolve().parent
    out: list[list[str]] = []
    for line in trace.splitlines():
        m = _FRAME.match(line)
        if m:
            file = m["file"]
            mine = (_owned(file, root) if root is not None
                    else not _owned(file, harness) and "site-packages" not in file
                    and not file.startswith(sys.prefix) and not file.startswith("<"))
            out.append([f"{_shown(file, root)}:{m['line']} in {m['func']}"] if mine else [])
        elif out and out[-1] and line.startswith("    ") and len(out[-1]) == 1:
            out[-1].append(line.strip())
    kept = [frame for frame in out if frame][-last:]
    return ["  " + frame[0] + (f": {frame[1]}" if len(frame) > 1 else "") for frame in kept]


_SIGNAL = re.compile(r"\b(SIG[A-Z]{2,6})\b|(Segmentation fault)")


def died_of(returncode: int | None, output: str = "") -> str:
    """The signal a process died of, by name ("SIGSEGV"; "" for a process that exited): the
    first one its output names (a crash handler's report, such as CBC's "Signal SIGSEGV
    caught" before it aborts with SIGABRT; a shell's or Python's "Segmentation fault"), else
    the one its exit code says (a negative exit is the number of the signal that killed it)."""
    m = _SIGNAL.search(output)
    if m:
        return m[1] or "SIGSEGV"
    if returncode is not None and returncode < 0:
        try:
            return signal.Signals(-returncode).name
        except ValueError:
            return f"signal {-returncode}"
    return ""
