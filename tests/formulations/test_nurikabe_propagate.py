"""sat-propagate (wall connectivity and island reachability as an IPASIR-UP propagator in
CaDiCaL 1.9.5 and 3.0): small instances solved and equal to their .sol files on both, seeded
scrambles, the
refusal of other solvers, the model check's clause when propagation is off, and every reason
and clause the propagator gives being implied by the puzzle.

Exactness on tiny random grids and the seeds is in test_nurikabe_sat.py (it takes every SAT
formulation on cadical195)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from pysat.solvers import Solver

from bench.backends import SolveOptions, get_backend
from bench.backends.kinds import SatAssignment
from bench.check import check_variant
from bench.instance import Instance, read_instance
from bench.models import SatModel
from bench.puzzles import get_puzzle
from bench.registry import get_formulation
from bench.solve import Solved
from formulations.nurikabe._propagator import NurikabePropagator
from tests.formulations.propagator_run import Traced, drive, solve_label

ROOT = Path(__file__).resolve().parents[2]
SMALL = [ROOT / "instances" / "nurikabe" / name for name in
         ("gen-nurikabe-7x7-s1-0.txt", "seed-p03.txt", "seed-p04.txt",
          "gen-nurikabe-10x10-s1-0.txt")]
VARIANTS = ["sat-propagate", "sat-propagate[islands=layers]"]
#: two clues covering 70 % of a 10x10: the propagator's search does most of the work
FEW = ROOT / "instances" / "nurikabe" / "few" / "gen-nurikabe-10x10-s1-cover70-0.txt"


def solution(path: Path) -> list[list[str]]:
    return list(json.loads(path.with_suffix(".sol").read_text()))


def run(inst: Instance, label: str, solver: str = "cadical195", seed: int = 0,
        count: int | None = None) -> Solved:
    return solve_label("nurikabe", inst, label, solver, seed, count)


@pytest.mark.parametrize("solver", ["cadical195", "cadical300"])
@pytest.mark.parametrize("label", VARIANTS)
@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.stem)
def test_small_instances_equal_their_solution_files(path: Path, label: str, solver: str) -> None:
    res = run(read_instance(path), label, solver=solver, count=2)
    assert res.status == "solved", res.message
    assert res.grid == solution(path)
    assert res.count == 1  # unique: counting blocks with plain clauses beside the propagator
    assert res.stats.effort["propagator_calls"] > 0
    assert res.stats.effort["propagator_s"] > 0


def test_a_seeded_scramble_reads_the_propagator_through_the_signs() -> None:
    """Seed 3 negates about half the variables inside the solver; the propagator maps them."""
    path = SMALL[1]
    res = run(read_instance(path), "sat-propagate", seed=3)
    assert res.status == "solved", res.message
    assert res.grid == solution(path)


@pytest.mark.parametrize("solver", ["glucose4", "minisat22"])
def test_other_solvers_are_refused_with_a_reason(solver: str) -> None:
    res = run(read_instance(SMALL[0]), "sat-propagate", solver=solver)
    assert res.status == "skipped"
    assert "runs only on cadical195, cadical300" in res.message and solver in res.message


def test_check_skips_other_solvers_with_the_reason() -> None:
    form = get_formulation("nurikabe", "sat-propagate", ["sat"])
    checks = list(check_variant(form, get_backend("glucose4"), 30))
    assert [(c.name, c.status) for c in checks] == [("solver", "skip")]
    assert checks[0].detail == "runs only on cadical195, cadical300, not glucose4"


def test_a_backend_without_ipasir_up_does_not_drop_the_propagator() -> None:
    """Asked directly, a solver without the interface raises rather than solve without it."""
    form = get_formulation("nurikabe", "sat-propagate", ["sat"])
    model = form.build(read_instance(SMALL[0]))
    session = get_backend("glucose4").start(model, SolveOptions())
    with pytest.raises(ValueError, match="IPASIR-UP"):
        session.solve(30)
    session.close()


# --- what the clauses say ------------------------------------------------------------------------

def eager(inst: Instance) -> SatModel:
    """The fully eager exact CNF (sat-tree): black and ownership variables of the same names."""
    return get_formulation("nurikabe", "sat-tree", ["sat"]).build(inst)


def implied(clause: list[int], model: SatModel, full: SatModel) -> bool:
    """Whether every solution satisfies ``clause`` (over ``model``'s variables): the eager
    exact CNF with the clause negated has no model."""
    names = full.pool.obj2id
    units = []
    for lit in clause:
        key = model.pool.obj(abs(lit))
        assert key in names, key
        units.append([names[key] if lit > 0 else -names[key]])
    with Solver(name="glucose4", bootstrap_with=full.clauses + units) as s:
        return s.solve() is False


class Recording(NurikabePropagator):
    """Keeps every reason and clause it hands the solver, and the reason of every literal it
    infers, asked or not (seed 0: model polarity)."""

    given: list[list[int]]

    def propagate(self) -> list[int]:
        out = super().propagate()
        self.given.extend(self.explain(lit) for lit in out)
        return out

    def provide_reason(self, lit: int) -> list[int]:
        reason = super().provide_reason(lit)
        self.given.append(reason)
        return reason

    def add_clause(self) -> list[int]:
        clause = super().add_clause()
        self.given.append(clause)
        return clause


def test_every_reason_and_clause_is_implied_by_the_puzzle() -> None:
    """On a 7x7 (solved, then shown unique) and a few-clue 10x10 (2,000 conflicts of search),
    the reason of every inference (60 drawn per instance) and every clause the propagator adds
    holds the literal it explains and is implied by the puzzle's rules."""
    rnd = random.Random(5)
    checked = 0
    for path, budget in ((SMALL[0], None), (FEW, 2000)):
        inst = read_instance(path)
        form = get_formulation("nurikabe", "sat-propagate", ["sat"])
        model = form.build(inst)
        prop = model.propagator
        prop.__class__ = Recording
        prop.given = []
        with Solver(name="cadical195") as s:
            prop.connect(s)
            for clause in model.clauses:
                s.add_clause(clause)
            if budget is None:
                assert s.solve()
                found = SatAssignment.of_model(s.get_model())
                form.block(inst, model, form.decode(inst, model, found))
                s.add_clause(model.clauses[-1])
                assert not s.solve()
            else:
                s.conf_budget(budget)
                s.solve_limited()
        given = sorted({tuple(c) for c in prop.given})
        assert given, "the propagator inferred nothing"
        full = eager(inst)
        for clause in rnd.sample(given, 60) if len(given) > 60 else given:
            assert implied(list(clause), model, full), clause
            checked += 1
    assert checked >= 50


# --- the model check -----------------------------------------------------------------------------

#: a 6x5 with solutions, whose island sizes and no-2x2 rule a split wall also satisfies: the 5
#: across the middle row cuts the wall in two
SPLIT = ("puzzle: nurikabe\nsource: test\n\n. 1 . 1 .\n. . . . .\n5 . . . .\n. . . . .\n"
         ". 1 . 1 .\n. . . . .\n")


def test_the_model_check_rejects_a_split_wall_with_an_implied_clause(tmp_path: Path) -> None:
    path = tmp_path / "split.txt"
    path.write_text(SPLIT)
    inst = read_instance(path)
    form = get_formulation("nurikabe", "sat-propagate", ["sat"])
    model = form.build(inst)
    black = model.handles["black"]
    whites = {(2, c) for c in range(5)} | {(0, 1), (0, 3), (4, 1), (4, 3)}
    grid = [["." if (r, c) in whites else "#" for c in range(5)] for r in range(6)]
    problems = get_puzzle("nurikabe").verify(inst, grid)
    assert problems == ["black cells form 2 separate groups (starting at (0,0), (3,0))"]
    assignment = [-x if v in whites else x for v, x in black.items()]
    clause = model.propagator.violated(assignment)
    assert clause is not None
    true = set(assignment)
    assert all(-lit in true for lit in clause)  # the assignment falsifies it
    assert implied(clause, model, eager(inst))
    answer = run(inst, "sat-propagate").grid
    assert answer is not None
    right = [x if answer[v[0]][v[1]] == "#" else -x for v, x in black.items()]
    assert model.propagator.violated(right) is None  # a solution passes


def test_check_only_still_answers_right_through_rejected_models(tmp_path: Path) -> None:
    """With inference off the search offers models whose wall or islands break the rules;
    check_model rejects each with a clause and the final answer is a solution."""
    rejected = 0
    for path in SMALL[:3]:
        inst = read_instance(path)
        form = get_formulation("nurikabe", "sat-propagate", ["sat"])
        model = form.build(inst)
        model.propagator.infer = False
        session = get_backend("cadical195").start(model, SolveOptions())
        out = session.solve(60)
        session.close()
        assert out.status == "sat" and out.value is not None
        assert form.decode(inst, model, out.value) == solution(path)
        assert out.stats["propagator_inferences"] == 0
        rejected += int(out.stats["propagator_model_rejections"])
    assert rejected > 0


def test_a_result_keeps_the_propagators_counters() -> None:
    # the propagator's effort reaches the results table: callbacks, seconds in them, inferred
    # literals, added clauses; a formulation without a propagator leaves them empty
    from bench.records import Task
    from bench.run.execute import execute

    few = execute(Task(str(FEW), "sat-propagate", "cadical195", 60.0, 8192, 0, 1, 0))
    assert few.status == "solved" and few.checked
    assert few.propagator_calls and few.propagator_calls > 0
    assert few.propagator_inferences and few.propagator_inferences > 0
    assert few.propagator_s is not None and few.solve_s is not None
    assert 0 < few.propagator_s <= few.solve_s
    assert few.propagator_clauses is not None
    plain = execute(Task(str(SMALL[1]), "sat-hybrid", "cadical195", 60.0, 8192, 0, 1, 0))
    assert plain.status == "solved" and plain.propagator_calls is None


# --- the articulation and incremental reasoning ------------------------------------------------

#: every seed and the small generated instances (unique: their .sol files)
EVERY = sorted(ROOT.glob("instances/nurikabe/seed-p0*.txt")) + sorted(
    p for n in (5, 7, 10) for p in ROOT.glob(f"instances/nurikabe/gen-nurikabe-{n}x{n}-s?-0.txt"))
CUTS = ["sat-propagate[cut=true]", "sat-propagate[cut=false]", "sat-propagate[cut=incremental]",
        "sat-propagate[cut=incremental,root=handed]"]


def test_the_instance_lists_are_there() -> None:
    assert len(EVERY) == 14
    assert all(p.with_suffix(".sol").exists() for p in EVERY)


@pytest.mark.parametrize("path", EVERY, ids=lambda p: p.stem)
def test_answers_verify_and_count_as_sat_hybrid_does(path: Path) -> None:
    """With and without articulation: the answer passes the puzzle's verifier, and counting
    to 2 gives what sat-hybrid gives (1: every one of these is unique)."""
    inst = read_instance(path)
    hybrid = run(inst, "sat-hybrid", count=2)
    assert hybrid.status == "solved" and hybrid.count == 1
    for label in CUTS:
        res = run(inst, label, count=2)
        assert res.status == "solved", (label, res.message)
        assert res.grid is not None
        assert get_puzzle("nurikabe").verify(inst, res.grid) == [], label
        assert res.grid == hybrid.grid == solution(path), label
        assert res.count == hybrid.count, label


def solution_truth(inst: Instance, model: SatModel, grid: list[list[str]]) -> dict[int, bool]:
    """Every black and ownership variable's value in the solution ``grid``: island k owns
    the white cells joined to its clue through white cells."""
    truth = {x: grid[r][c] == "#" for (r, c), x in model.handles["black"].items()}
    for reg in model.handles["regions"]:
        joined = {reg.root}
        stack = [reg.root]
        while stack:
            r, c = stack.pop()
            for v in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if (v not in joined and 0 <= v[0] < inst.rows and 0 <= v[1] < inst.cols
                        and grid[v[0]][v[1]] != "#"):
                    joined.add(v)
                    stack.append(v)
        truth.update({x: v in joined for v, x in reg.own.items()})
    return truth


class Cuts(Recording):
    """Recording, and which inferences were articulation ones."""

    cut_given: list[list[int]]

    def propagate(self) -> list[int]:
        out = super().propagate()
        self.cut_given.extend(self.explain(lit) for lit in out
                              if not isinstance(self.why[lit], tuple))
        return out


HARDER = [ROOT / "instances" / "nurikabe" / "few" / f"gen-nurikabe-10x10-s{s}-cover70-0.txt"
          for s in (1, 2)] + [ROOT / "instances" / "nurikabe" / "big" /
                              "gen-nurikabe-20x20-s2-big1-0.txt"]


def test_every_reason_holds_in_the_unique_solution() -> None:
    """Every reason and added clause (articulation ones among them) of searches on the seeds,
    the 10x10s, two few-clue 10x10s and a 20x20 with a big island (1,500 conflicts each) is
    satisfied by the instance's unique solution: a reason false there would cut it off."""
    cut_reasons = total = 0
    for path in [*EVERY[:5], *EVERY[-3:], *HARDER]:
        inst = read_instance(path)
        form = get_formulation("nurikabe", "sat-propagate[cut=true]", ["sat"])
        model = form.build(inst)
        prop = model.propagator
        prop.__class__ = Cuts
        prop.given, prop.cut_given = [], []
        with Solver(name="cadical195") as s:
            prop.connect(s)
            for clause in model.clauses:
                s.add_clause(clause)
            s.conf_budget(1500)
            s.solve_limited()
        truth = solution_truth(inst, model, solution(path))
        for clause in prop.given:
            assert any(truth[abs(lit)] == (lit > 0) for lit in clause), (path.stem, clause)
        total += len(prop.given)
        cut_reasons += len(prop.cut_given)
    assert total > 1000 and cut_reasons > 20, (total, cut_reasons)


def test_articulation_reasons_are_implied_by_the_puzzle() -> None:
    """The articulation reasons of a few-clue 10x10 search (30 drawn) are each implied by
    the eager exact CNF (unsatisfiable with the clause negated)."""
    inst = read_instance(FEW)
    form = get_formulation("nurikabe", "sat-propagate[cut=true]", ["sat"])
    model = form.build(inst)
    prop = model.propagator
    prop.__class__ = Cuts
    prop.given, prop.cut_given = [], []
    with Solver(name="cadical195") as s:
        prop.connect(s)
        for clause in model.clauses:
            s.add_clause(clause)
        s.conf_budget(1000)
        s.solve_limited()
    given = sorted({tuple(c) for c in prop.cut_given})
    assert len(given) >= 10
    full = eager(inst)
    for clause in random.Random(7).sample(given, min(30, len(given))):
        assert implied(list(clause), model, full), clause


def test_a_corridor_cell_between_two_black_cells_is_inferred_black(tmp_path: Path) -> None:
    """On the 6x5 with the 5 across the middle row: with the middle row white but for its
    last cell and a black cell above and below it, that last cell is the wall's only link,
    so it is black, with a reason that names the two black cells and is implied."""
    path = tmp_path / "split.txt"
    path.write_text(SPLIT)
    inst = read_instance(path)
    form = get_formulation("nurikabe", "sat-propagate[cut=true]", ["sat"])
    model = form.build(inst)
    prop, black = model.propagator, model.handles["black"]
    for v in ((2, 0), (2, 1), (2, 2), (2, 3)):
        prop.on_assignment(-black[v])
    prop.on_assignment(black[(1, 0)])
    prop.on_assignment(black[(3, 0)])
    inferred: list[int] = []
    while True:
        out = prop.propagate()
        assert prop.pending is None
        if not out:
            break
        inferred.extend(out)
        for lit in out:
            prop.on_assignment(lit)
    gate = black[(2, 4)]
    assert gate in inferred
    reason = prop.explain(gate)
    assert {gate, -black[(1, 0)], -black[(3, 0)]} <= set(reason)
    assert implied(reason, model, eager(inst))


def test_backtracking_restores_what_the_level_saw() -> None:
    """The derived state is restored, not recomputed, when the search backs up: after a
    level's assignments are undone the propagator infers what it inferred before them."""
    inst = read_instance(FEW)
    form = get_formulation("nurikabe", "sat-propagate[cut=true]", ["sat"])
    model = form.build(inst)
    prop, black = model.propagator, model.handles["black"]

    def fixpoint() -> list[int]:
        got: list[int] = []
        while out := prop.propagate():
            got.extend(out)
            for lit in out:
                prop.on_assignment(lit)
        return got

    base = fixpoint()
    open_ = [v for v, x in black.items() if prop.val[x] == 0]
    prop.on_new_level()
    prop.on_assignment(black[open_[len(open_) // 2]])
    fixpoint()
    relabels = prop.relabels
    prop.on_backtrack(0)
    assert prop.relabels == relabels and prop.restores == 1
    assert prop.propagate() == []  # nothing left to do: the level-0 fixpoint is back
    again = NurikabePropagator(prop.rows, prop.cols, prop.black, prop.islands, sorted(prop.clues),
                               prop.blacks)
    mine = sorted(base)
    theirs: list[int] = []
    while out := again.propagate():
        theirs.extend(out)
        for lit in out:
            again.on_assignment(lit)
    assert sorted(theirs) == mine
    assert [x for x in prop.trail] == [abs(x) for x in base]


def test_a_literal_reported_after_the_next_level_opened_keeps_its_level(tmp_path: Path) -> None:
    """CaDiCaL reports a handed-over literal lazily, possibly after the next decision level
    opened; a backtrack to the level it was handed over at must not undo it, and it is not
    handed over again while that level is open (re-propagating an assigned literal once
    crashed CaDiCaL 1.9.5 when every variable was assigned)."""
    path = tmp_path / "split.txt"
    path.write_text(SPLIT)
    inst = read_instance(path)
    model = get_formulation("nurikabe", "sat-propagate", ["sat"]).build(inst)
    prop, black = model.propagator, model.handles["black"]
    for v in ((2, 0), (2, 1), (2, 2), (2, 3)):
        prop.on_assignment(-black[v])
    prop.on_assignment(black[(1, 0)])
    prop.on_assignment(black[(3, 0)])
    first = prop.propagate()
    assert first
    x = first[0]
    prop.on_new_level()  # level 1 opens before the solver reports x
    prop.on_assignment(x)
    prop.on_new_level()
    prop.on_backtrack(0)
    assert prop.val[abs(x)] == (1 if x > 0 else -1)  # x belongs to level 0: it stays
    assert x not in prop.propagate()
    prop.on_backtrack(0)
    again = NurikabePropagator(prop.rows, prop.cols, prop.black, prop.islands, sorted(prop.clues),
                               prop.blacks)
    for v in ((2, 0), (2, 1), (2, 2), (2, 3)):
        again.on_assignment(-black[v])
    again.on_assignment(black[(1, 0)])
    again.on_assignment(black[(3, 0)])
    assert x in again.propagate()  # a fresh propagator hands it over, as the first did


def _flood(cells: set[int], start: int, nbrs: list[list[int]]) -> set[int]:
    seen, stack = {start}, [start]
    while stack:
        for u in nbrs[stack.pop()]:
            if u in cells and u not in seen:
                seen.add(u)
                stack.append(u)
    return seen


def _grid_neighbours(rows: int, cols: int) -> list[list[int]]:
    """Each cell's orthogonal neighbours on a row-major ``rows`` x ``cols`` grid."""
    n = rows * cols
    return [[j for j in (i - cols if i >= cols else -1, i + cols if i + cols < n else -1,
                         i - 1 if i % cols else -1, i + 1 if (i + 1) % cols else -1)
             if j >= 0] for i in range(n)]


def test_separators_are_exactly_the_cells_that_cut_a_black_cell_off() -> None:
    """On random partly coloured grids of 1x1 to 14x14: the open cells ``separators`` names
    are exactly those whose removal cuts some black cell off the anchor (checked by a flood
    fill without each cell), each subtree holds its black cell and not ``p``, and every
    neighbour of a subtree but ``p`` is outside the searched component (white); a matrix kept
    per grid size and rewritten by every search gives the same answer as a new one."""
    from formulations.nurikabe._wall import dfs_graph, grid_table, separators

    rng = random.Random(11)
    named = 0
    graphs: dict[int, object] = {}
    for _ in range(400):
        rows, cols = rng.randint(1, 14), rng.randint(1, 14)
        n = rows * cols
        nbrs = _grid_neighbours(rows, cols)
        white, black = rng.uniform(0.05, 0.4), rng.uniform(0.02, 0.3)
        color = [-1 if rng.random() < white else (1 if rng.random() < black else 0)
                 for _ in range(n)]
        dark = [i for i in range(n) if color[i] == 1]
        if not dark:
            continue
        a = rng.choice(dark)
        comp = _flood({i for i in range(n) if color[i] >= 0}, a, nbrs)
        ina = np.array([i in comp for i in range(n)])
        tone, tab = np.array(color, dtype=np.int8), grid_table(rows, cols)
        order, seps = separators(a, ina, tone, tab)
        again, kept = separators(a, ina, tone, tab, graphs.setdefault(n, dfs_graph(n)))
        assert again.tolist() == order.tolist() and kept == seps
        assert sorted(order.tolist()) == sorted(comp)
        brute = {p for p in comp if color[p] == 0
                 and any(color[b] == 1 and b not in _flood(comp - {p}, a, nbrs) for b in comp)}
        assert {p for p, *_ in seps} == brute
        for p, start, stop, b in seps:
            sub = set(order[start:stop].tolist())
            assert b in sub and color[b] == 1 and p not in sub and a not in sub
            assert b not in _flood(comp - {p}, a, nbrs)
            assert all(u in sub or u == p or u not in comp for w in sub for u in nbrs[w])
        named += len(brute)
    assert named > 200


def _fixpoint(prop: NurikabePropagator) -> None:
    """Propagate and hand every inferred literal back as assigned until nothing is new."""
    while True:
        out = prop.propagate()
        assert prop.pending is None
        if not out:
            return
        for lit in out:
            prop.on_assignment(lit)


def test_a_black_cell_of_the_wall_starts_no_articulation_search(tmp_path: Path) -> None:
    """The articulation search runs after a relabel, not after a new black cell inside the
    wall's component (it can only give an existing cut cell a black side), nor after a
    backtrack to a level whose component did not change since its own search."""
    path = tmp_path / "split.txt"
    path.write_text(SPLIT)
    model = get_formulation("nurikabe", "sat-propagate[cut=true]", ["sat"]).build(
        read_instance(path))
    prop, black = model.propagator, model.handles["black"]
    prop.on_assignment(black[(1, 0)])
    _fixpoint(prop)
    searches = prop.cuts
    assert searches >= 1  # the first labelling
    prop.on_new_level()
    prop.on_assignment(black[(5, 4)])
    _fixpoint(prop)
    assert prop.cuts == searches
    prop.on_backtrack(0)
    _fixpoint(prop)
    assert prop.cuts == searches


def test_the_bit_parallel_search_equals_a_breadth_first_search() -> None:
    """On random grids of 1x1 to 15x15 (shapes that wrap rows, single rows and columns): the
    cells ``Bits.ball`` reaches through the allowed cells within ``steps`` steps, and those
    it reached before the last step, equal a per-cell breadth-first search's; ``grow`` adds
    exactly the orthogonal neighbours; ``cells`` lists the bits in increasing order."""
    from formulations.nurikabe._bits import Bits, cells

    rng = random.Random(5)
    for _ in range(500):
        rows, cols = rng.randint(1, 15), rng.randint(1, 15)
        n = rows * cols
        nbrs = _grid_neighbours(rows, cols)
        bits = Bits(rows, cols)
        allowed = {i for i in range(n) if rng.random() < rng.uniform(0.3, 0.95)}
        root = rng.randrange(n)
        steps = rng.randint(0, 20)
        dist = {root: 0}
        frontier = [root]
        for step in range(1, steps + 1):
            frontier = [u for w in frontier for u in nbrs[w] if u in allowed and u not in dist
                        and dist.setdefault(u, step) == step]
        reach, inner = bits.ball(root, sum(1 << i for i in allowed), steps)
        assert list(cells(reach)) == sorted(dist)
        last = max(dist.values())
        assert list(cells(inner)) == sorted(v for v, d in dist.items()
                                            if d < steps or last < steps)
        some = {i for i in range(n) if rng.random() < 0.2}
        grown = {u for w in some for u in nbrs[w]} | some
        assert list(cells(bits.grow(sum(1 << i for i in some)))) == sorted(grown)


class Skips(NurikabePropagator):
    """Whenever a backtrack's owed articulation search is let go without searching (the
    component did not change since the last search in a way it did not foresee), runs the
    search from scratch and keeps the inferences it would have made that are not yet known."""

    skipped: int
    missed: list[int]

    def propagate(self) -> list[int]:
        owed, cuts = self.cut_owed, self.cuts
        out = super().propagate()
        if owed and not self.cut_owed and self.cuts == cuts and self.la and self.pending is None:
            self.skipped += 1
            found: dict[int, object] = {}
            keep = self.cut_out
            self._cut(found)  # type: ignore[arg-type]
            self.cuts, self.cut_out = cuts, keep
            self.missed.extend(x for x in found if self.val[x] <= 0 and x not in self.sent)
        return out


class SearchesAfterEveryBacktrack(NurikabePropagator):
    """The articulation search owed after every backtrack, run whether or not it can find
    anything (the reference the skip is compared to)."""

    def on_backtrack(self, to: int) -> None:
        super().on_backtrack(to)
        self.cut_dirty = self.cut


def test_a_skipped_articulation_search_would_have_found_nothing_new() -> None:
    """On the few-clue 10x10s, a 20x20 with a big island and every small instance, each
    scrambled three ways: whenever a backtrack's owed articulation search is let go, a search
    from scratch on the assignment as it stands finds no cut cell the solver does not already
    have (hundreds of skips)."""
    skipped = 0
    for path in HARDER + EVERY:
        for seed in (0, 7, 13):
            prop = drive(path, Skips, 400, seed)
            assert prop.missed == [], (path.name, seed)
            skipped += prop.skipped
    assert skipped > 300


class TracedReference(SearchesAfterEveryBacktrack, Traced):
    pass


def test_skipping_owed_searches_hands_the_solver_exactly_the_same() -> None:
    """The same solve with the owed search run after every backtrack and with it let go when
    it can find nothing new: the solver is handed the same literals in the same order at every
    call (so the search is the same), with fewer articulation searches."""
    for path in HARDER:
        ref = drive(path, TracedReference, 800)
        new = drive(path, Traced, 800)
        assert new.trace == ref.trace, path.name
        assert new.cuts < ref.cuts, path.name


def test_a_backtrack_searches_again_after_a_black_cell_the_search_did_not_infer(
        tmp_path: Path) -> None:
    """On the 6x5 with the middle row white but for its last cell: the wall searched with a
    black cell above only; then, a level up, a black cell below makes that last cell a cut
    cell, which the search leaves for later (a new black cell starts none). A backtrack to
    that level must search again (the level's component changed since its search) and infer
    it; with nothing new it must not search at all."""
    path = tmp_path / "split.txt"
    path.write_text(SPLIT)
    model = get_formulation("nurikabe", "sat-propagate[cut=true]", ["sat"]).build(
        read_instance(path))
    prop, black = model.propagator, model.handles["black"]
    gate = black[(2, 4)]
    for v in ((2, 0), (2, 1), (2, 2), (2, 3)):
        prop.on_assignment(-black[v])
    prop.on_assignment(black[(1, 0)])
    _fixpoint(prop)
    searches = prop.cuts
    prop.on_new_level()
    prop.on_new_level()
    prop.on_backtrack(1)
    _fixpoint(prop)
    assert prop.cuts == searches  # nothing changed since the search: none owed
    prop.on_assignment(black[(3, 0)])
    _fixpoint(prop)
    assert prop.cuts == searches and prop.val[gate] == 0  # left for later
    prop.on_new_level()
    prop.on_backtrack(1)
    out = prop.propagate()
    assert prop.cuts == searches + 1
    assert gate in out
