"""The Nurikabe generator's uniqueness check: "is there a solution other than the intended
one?", answered by an exact lazy SAT formulation on CaDiCaL, warm-started at the intended
solution and limited by conflicts (deterministic, so generation reproduces from the seed on a
loaded machine too).

Warm start: the model is first solved with every cell's colour assumed as in the intended
solution (pure propagation: the clauses of an exact formulation hold there), and the full
assignment found (auxiliary variables included) becomes the solver's saved phases. Then the
intended solution is blocked and the solver searches from it: another solution, if any, is
usually a local change of the intended one, found in one call with a connected wall, where a
cold search wanders through hundreds of lazy wall-cut rounds (the figures:
docs/results/2026-11-25-nurikabe-hard-and-sparse.md, "Generator at scale"). The answer is exact
either way: "none" means the blocked model is unsatisfiable, and a grid returned has passed the
rule verifier.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bench.backends.kinds import SatAssignment
from bench.generate import GenerationError, SolveTimeout
from bench.grid import Cell, neighbours
from bench.instance import Instance
from bench.puzzles import SolutionGrid, get_puzzle
from bench.puzzles.nurikabe.rules import BLACK


@dataclass
class Search:
    """One model on one CaDiCaL solver, fed the model's clauses as they come (lazy cuts)."""

    form: Any
    inst: Instance
    model: Any
    solver: Any
    fed: int = 0

    def feed(self) -> None:
        for clause in self.model.clauses[self.fed:]:
            self.solver.add_clause(clause)
        self.fed = len(self.model.clauses)

    def run(self, assumptions: list[int], budget: int) -> tuple[SolutionGrid | None, int]:
        """One solution under ``assumptions`` through the lazy loop (None if there is none),
        and the conflicts it spent; :class:`SolveTimeout` past ``budget`` conflicts."""
        spent = 0
        while True:
            self.feed()
            before = self.solver.accum_stats().get("conflicts", 0)
            self.solver.conf_budget(max(budget - spent, 1))
            found = self.solver.solve_limited(assumptions=assumptions)
            spent += self.solver.accum_stats().get("conflicts", 0) - before
            if found is False:
                return None, spent
            if found is None:
                raise SolveTimeout(f"over {budget} conflicts")
            value = SatAssignment.of_model(self.solver.get_model())
            if self.form.separate(self.inst, self.model, value) == 0:
                break
            if spent >= budget:
                raise SolveTimeout(f"over {budget} conflicts")
        grid = self.form.decode(self.inst, self.model, value)
        problems = get_puzzle(self.inst.puzzle).verify(self.inst, grid)
        if problems:
            raise GenerationError(f"the formulation returned a wrong grid: {problems[0]}")
        return grid, spent


@dataclass
class WarmCheck:
    """Exact "another solution?" by ``formulation`` (a registered exact SAT Nurikabe
    formulation with ``handles["black"]``) on CaDiCaL 1.9.5, each call within ``conflicts``
    conflicts summed over its solver calls (:class:`SolveTimeout` beyond, for the first answer
    only). Each search runs warm (phases at the intended solution) for up to ``warm``
    conflicts, good at finding a nearby other solution, then on a fresh solver with its own
    phases, better at proving there is none."""

    formulation: str = "sat-lazy"
    conflicts: int = 200_000
    warm: int = 5_000

    def other(self, inst: Instance, intended: SolutionGrid, most: int = 1,
              free: set[Cell] | None = None) -> SolutionGrid | None:
        """None if ``intended`` is the only solution; else the intended grid with the
        differences of up to ``most`` other solutions applied, each found with the cells of
        the earlier differences and their neighbours held as intended (separate ambiguities,
        one model). With ``most=1`` a solution; with more, a map of where the puzzle is
        ambiguous (each difference region valid only as part of its own solution). With
        ``free``, only those cells may differ (the rest held as intended): a local check,
        exact only about other solutions that differ inside ``free`` alone."""
        from pysat.solvers import Solver

        from bench.registry import get_formulation

        form = get_formulation(inst.puzzle, self.formulation)
        model = form.build(inst)
        black = model.handles["black"]
        here = {v: x if intended[v[0]][v[1]] == BLACK else -x for v, x in black.items()}
        merged = [row[:] for row in intended]
        held: set[Cell] = set() if free is None else set(black) - free
        left, found = self.conflicts, 0
        with Solver(name="cadical195", bootstrap_with=model.clauses) as warm, \
                Solver(name="cadical195") as cold:
            if not warm.solve(assumptions=list(here.values())):
                raise GenerationError("internal error: the intended grid breaks the model")
            phases = warm.get_model()
            form.block(inst, model, intended)
            searches = [Search(form, inst, model, warm, len(model.clauses) - 1),
                        Search(form, inst, model, cold)]
            while found < most:
                assume = [here[v] for v in sorted(held)]
                warm.set_phases(phases)
                try:
                    grid, spent = searches[0].run(assume, min(self.warm, left))
                except SolveTimeout:
                    left -= min(self.warm, left)
                    try:
                        grid, spent = searches[1].run(assume, left)
                    except SolveTimeout:
                        if found == 0:
                            raise
                        break
                left -= spent
                if grid is None:
                    break
                found += 1
                diff = [(r, c) for r, row in enumerate(grid) for c, x in enumerate(row)
                        if x != intended[r][c]]
                for r, c in diff:
                    merged[r][c] = grid[r][c]
                held.update(n for v in diff for n in (v, *neighbours(v, inst.rows, inst.cols)))
        return merged if found else None
