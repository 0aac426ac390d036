"""The CP-SAT encoding cases, run in a spawned process by ``test_cpsat.py`` (the test process
keeps OR-tools out of its own imports): each returns every on-set of
its model, enumerated by solving and blocking (projected onto the cell literals)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bench.encodings import cpsat
from bench.grid import Cell, all_cells, bfs_distances
from bench.models import CpsatModel

Post = Callable[[Any, dict[Cell, Any]], Any]


def solutions(rows: int, cols: int, post: Post, lazy: dict[str, Any] | None = None,
              ) -> set[frozenset[Cell]]:
    from ortools.sat.python import cp_model

    m = CpsatModel.new()
    cp = m.model
    member = {v: cp.new_bool_var(f"x{v}") for v in all_cells(rows, cols)}
    post(cp, member)
    found: set[frozenset[Cell]] = set()
    while True:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        if solver.solve(cp) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return found
        on = frozenset(v for v, x in member.items() if solver.value(x))
        if lazy is not None and cpsat.separate_connected(cp, member, on.__contains__, **lazy):
            continue
        assert on not in found
        found.add(on)
        cp.add_bool_or([x.Not() if v in on else x for v, x in member.items()])


def region_post(cp: Any, x: dict[Cell, Any]) -> None:
    reg = cpsat.region(cp, (1, 1), 3, bfs_distances([(1, 1)], 3, 3, limit=2))
    cpsat.assign(cp, x, [reg])


def rooted_post(cp: Any, x: dict[Cell, Any]) -> None:
    cpsat.at_most(cp, list(x.values()), 4)  # max_size is an assumption, not a constraint
    cpsat.connected(cp, x, root=(1, 1), max_size=4)


def errors() -> list[str]:
    cp = CpsatModel.new().model
    x = {v: cp.new_bool_var(f"x{v}") for v in all_cells(2, 2)}
    out = []
    for call in (lambda: cpsat.connected(cp, x, method="flow"),
                 lambda: cpsat.connected(cp, x, root=(5, 5)),
                 lambda: cpsat.exactly(cp, list(x.values()), 1, encoding="totalizer")):
        try:
            call()
        except ValueError as e:
            out.append(str(e))
    return out


CASES: dict[str, Callable[[], Any]] = {
    "tree-free": lambda: solutions(3, 3, lambda cp, x: cpsat.connected(cp, x, root="free")),
    "tree-first": lambda: solutions(3, 3, lambda cp, x: cpsat.connected(cp, x, root="first")),
    "tree-root": lambda: solutions(3, 3, rooted_post),
    "lazy-component": lambda: solutions(
        3, 3, lambda cp, x: cpsat.connected(cp, x, method="lazy"), {"cut": "component"}),
    "lazy-pair": lambda: solutions(
        3, 3, lambda cp, x: cpsat.connected(cp, x, method="lazy"), {"cut": "pair"}),
    "no-2x2": lambda: solutions(2, 3, lambda cp, x: cpsat.no_2x2(cp, x, 2, 3)),
    "exactly-2": lambda: solutions(1, 5, lambda cp, x: cpsat.exactly(cp, list(x.values()), 2)),
    "at-most-2": lambda: solutions(1, 5, lambda cp, x: cpsat.at_most(cp, list(x.values()), 2)),
    "region": lambda: solutions(3, 3, region_post),
    "errors": errors,
}


def run(case: str) -> Any:
    return CASES[case]()
