"""Shared adaptor of the puzzlekit peer formulations (``formulations/<p>/external_puzzlekit.py``).

puzzlekit (PyPI, MIT; OR-tools CP-SAT models of 100+ puzzles) is an optional extra
(``pip install 'puzzlebench[peers]'``) and is imported only inside a task, never when the
formulation modules are imported: without it the formulations are listed as unavailable.

Its public entry point ``puzzlekit.solve(text, puzzle_type, solver_options)`` parses its own
text format (``"R C"`` then one line per row, cells separated by spaces, ``-`` empty), builds
its CP-SAT model and solves it; we pass the time left, ``num_workers`` (the task's threads, 1
by default) and ``random_seed``. Its model construction is therefore inside ``solve_s``. Its
first solve in a process costs about a second of one-time set-up, paid here by a warm-up solve
of the puzzle's tiny instance before the time limit starts (``setup_s``).
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from typing import Any, ClassVar

from bench.backends.kinds import ExternalAnswer, ExternalModel
from bench.instance import Instance
from bench.models import Value
from bench.puzzles import SolutionGrid, grid_from_cells
from bench.registry import Formulation

INSTALL_HINT = "pip install 'puzzlebench[peers]'"
#: puzzlekit's status words -> ours (a status not listed is "unknown")
STATUSES = {"Optimal": "optimal", "Feasible": "feasible", "Infeasible": "infeasible",
            "Timeout": "timeout", "Unknown": "unknown"}


def puzzlekit_text(inst: Instance, token: Any) -> str:
    """An instance in puzzlekit's grid format; ``token(v)`` renders a non-empty cell."""
    rows = [" ".join("-" if v is None else token(v) for v in row) for row in inst.grid]
    return f"{inst.rows} {inst.cols}\n" + "\n".join(rows)


def puzzlekit_solve(puzzle_type: str, text: str, time_limit: float, threads: int,
                    seed: int) -> tuple[str, list[list[str]] | None, dict[str, Any]]:
    """Call puzzlekit; its status (ours), its answer grid (None without a solution) and its
    solution data (times, counters)."""
    import puzzlekit

    result = puzzlekit.solve(text, puzzle_type, solver_options={
        "time_limit_sec": time_limit, "num_workers": threads, "random_seed": seed})
    data = result.solution_data
    status = STATUSES.get(str(data.get("status")), "unknown")
    grid = result.sol_grid.matrix if status in ("optimal", "feasible") else None
    return status, grid, data


class PuzzlekitFormulation(Formulation[ExternalModel]):
    """One puzzle's puzzlekit model: subclasses give puzzlekit's type name, how a clue is
    written, a tiny instance for the warm-up, and how an answer cell reads as a number."""

    name = "puzzlekit"
    kind = "external"
    requires = ("puzzlekit",)
    peer = "puzzlekit"  # the distribution: a peer's solver (its version is the result's)
    install_hint = INSTALL_HINT
    puzzle_type: ClassVar[str]
    tiny: ClassVar[str]  # a small instance in puzzlekit's format, solved once as the warm-up

    def token(self, value: Any) -> str:
        return str(value)

    def cell_value(self, answer: str) -> float:
        raise NotImplementedError

    def setup(self) -> float:
        t0 = time.perf_counter()
        puzzlekit_solve(self.puzzle_type, self.tiny, 10.0, 1, 0)
        return time.perf_counter() - t0

    def build(self, inst: Instance) -> ExternalModel:
        text = puzzlekit_text(inst, self.token)
        model = ExternalModel.new(lambda limit, threads, seed: ExternalAnswer("unknown"))

        def run(time_limit: float, threads: int, seed: int) -> ExternalAnswer:
            status, grid, data = puzzlekit_solve(self.puzzle_type, text, time_limit, threads,
                                                 seed)
            stats = {k: float(data[key]) for k, key in
                     (("conflicts", "num_conflicts"), ("branches", "num_branches"))
                     if isinstance(data.get(key), int | float)}
            # puzzlekit's own model size, known once it built it (the constraints column)
            model.variables = int(data.get("num_vars") or 0)
            model.constraints = int(data.get("num_constrs") or 0)
            values: dict[Hashable, float] | None = None
            if grid is not None:
                values = {(r, c): self.cell_value(str(v))
                          for r, row in enumerate(grid) for c, v in enumerate(row)}
            wall = data.get("wall_time")
            return ExternalAnswer(status, values,
                                  float(wall) if isinstance(wall, int | float) else None, stats)

        model.run = run
        model.handles["text"] = text
        return model


class PuzzlekitColouring(PuzzlekitFormulation):
    """A two-colour puzzle (Nurikabe, Yin-Yang): puzzlekit's answer cell ``dark`` is the
    puzzle's ``on`` token, everything else ``off``."""

    dark: ClassVar[str]  # puzzlekit's answer token of a dark cell
    on: ClassVar[str]  # our solution tokens
    off: ClassVar[str]

    def cell_value(self, answer: str) -> float:
        return 1.0 if answer == self.dark else 0.0

    def decode(self, inst: Instance, model: ExternalModel, value: Value) -> SolutionGrid:
        dark = [(r, c) for r in range(inst.rows) for c in range(inst.cols) if value((r, c)) > 0.5]
        return grid_from_cells(inst.rows, inst.cols, dark, self.on, self.off)
