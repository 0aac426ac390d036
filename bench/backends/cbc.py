"""COIN-OR CBC (cbcbox) as a child process on a Pyomo-written LP file
(:class:`~bench.backends.lpfile.LpFileSession`): its command line, its solution file and the
effort counters in its log.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path

from bench.backends.base import Seeding, SolveOptions, Status
from bench.backends.lpfile import LpFileBackend
from bench.effort import NODES, SIMPLEX_ITERATIONS


class Cbc(LpFileBackend):
    """Pyomo's own CBC reader expects a rows section that cbcbox's CBC no longer prints, and
    silently loads no values: the file is read here instead.

    Effort, from CBC's log (:meth:`effort_of`): ``simplex_iterations`` is the root LP
    relaxation's iterations (the "Iters: N" closing the log's "Root LP relaxation" phase, "LP
    solve" for a model with no integer column; no such line: the LP needed none) plus branch
    and cut's ("Total iterations: N": the root's cut passes and the tree's nodes; it leaves the
    root LP out, and reads 0 on a model a heuristic solved at the root). Neither counts strong
    branching's iterations (CBC's own "Strong branching: ... iters", rounded) nor heuristics'
    LPs. ``nodes`` is "Enumerated nodes: N" (0: solved at the root). A model bound tightening
    proves infeasible prints none of these: 0 each. Phase markers are UTF-8 (▶) or ASCII (>)
    by the locale: both are read.

    Only a whole log counts, one CBC closed with its "Total time (...)" line: a log cut short
    (CBC killed at the deadline, :class:`~bench.backends.lpfile.LpFileSession`) gives no
    counters. Its progress rows state only lower bounds (the root LP's "Iters: N", the
    branch-and-bound table's "Nodes" column), which would read as the whole effort of a search
    that went on past them, and a result cannot mark a counter as a lower bound.

    CBC takes no seed and runs with its default seeds: on puzzle models neither
    ``-randomCbcSeed`` (CBC's heuristics) nor ``-randomSeed`` (Clp's) changes the nodes, the
    iterations or the solution, the clock's seed (0) included (``tests/backends/test_cbc.py``);
    a task's repeats measure timing noise."""

    name = "cbc"
    package = "cbcbox"
    description = "COIN-OR CBC (cbcbox), child process on a Pyomo-written LP file"
    seeding = Seeding("none", "CBC searches alike under any -randomCbcSeed and -randomSeed")
    effort = (SIMPLEX_ITERATIONS, NODES)
    check_rank = 1
    _phase = re.compile(r"^(?:\u25b6|>) (.*)$")  # a phase's start: "▶ Root LP relaxation"
    _root_iters = re.compile(r"\bIters: (\d+)\s+Time:")
    _result = re.compile(r"^(Enumerated nodes|Total iterations):\s+(\d+)\s*$", re.M)
    #: the line CBC closes its log with, whatever it solved: "Total time (Wallclock seconds):"
    _closed = re.compile(r"^Total time \(", re.M)

    def executable(self) -> str | None:
        if importlib.util.find_spec("cbcbox") is None:
            return shutil.which("cbc")
        try:
            path = self.cbcbox_binary()
        except (ValueError, RuntimeError):  # cbcbox refused its build setting: so would the
            return None  # `cbc` script it puts on PATH
        return path if Path(path).exists() else shutil.which("cbc")

    @staticmethod
    def cbcbox_binary() -> str:
        """cbcbox's CBC binary; cbcbox raises ValueError or RuntimeError for a
        ``CBCBOX_BUILD`` it does not know or did not ship."""
        import cbcbox  # type: ignore[import-untyped]

        return str(cbcbox.cbc_bin_path())

    def available(self) -> str | None:
        reason = super().available()
        if reason and importlib.util.find_spec("pyomo") and importlib.util.find_spec("cbcbox"):
            try:
                self.cbcbox_binary()
            except (ValueError, RuntimeError) as e:
                return f"cbcbox has no CBC binary here: {e}"
        return reason

    def version(self) -> str:
        return f"CBC (cbcbox {super().version()})"

    def command(self, lp: Path, sol: Path, time_limit: float, options: SolveOptions) -> list[str]:
        # -sec takes a real number of seconds; -timeMode elapsed: wall-clock, not CPU, time
        return [self.executable() or "cbc", str(lp), "-timeMode", "elapsed",
                "-sec", f"{max(time_limit, 0.001):.3f}", "-threads", str(options.threads),
                "-solve", "-solu", str(sol)]

    def effort_of(self, log: str) -> dict[str, float]:
        """The counters of a whole log (:class:`Cbc`); none of a log cut short."""
        if not self._closed.search(log):
            return {}
        root, phase = 0, ""
        for line in log.splitlines():
            start = self._phase.match(line)
            if start:
                phase = start.group(1)
            elif phase.startswith(("Root LP relaxation", "LP solve")):
                hit = self._root_iters.search(line)
                if hit:
                    root, phase = int(hit.group(1)), ""
        result = dict(self._result.findall(log))
        return {"simplex_iterations": float(root + int(result.get("Total iterations", 0))),
                "nodes": float(result.get("Enumerated nodes", 0))}

    def read(self, text: str) -> tuple[Status, dict[str, float]]:
        lines = text.splitlines()
        head = lines[0] if lines else ""
        status: Status
        if head.startswith("Optimal"):
            status = "optimal"
        elif "infeasible" in head.lower():
            status = "infeasible"
        elif head.startswith("Stopped") and "no integer solution" not in head:
            status = "feasible"
        elif head.startswith("Stopped"):
            status = "timeout"
        else:
            status = "unknown"
        values: dict[str, float] = {}
        for line in lines[1:]:  # "index name value reduced-cost"; only non-zero columns
            parts = line.split()
            if parts and parts[0] == "**":  # marks an infeasible row or column
                parts = parts[1:]
            if len(parts) >= 3:
                values[parts[1]] = float(parts[2])
        return status, values
