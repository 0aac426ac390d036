"""Instance generators: random puzzles with exactly one solution, reproducible from a seed.

A :class:`Generator` builds a random valid solution, derives clues from it, and then edits the
clues (or the intended solution) until no *other* solution exists. Other solutions are found
in-process with an exact formulation of the harness (:func:`other_solution`: the formulation's
model plus its ``block`` constraint excluding the intended grid; infeasible means unique).
Whatever the generator did, :func:`generate` then proves uniqueness independently of that loop
through :func:`bench.run.execute.execute` with ``Task(count=2)`` on the written instance text: only
an instance whose count is exactly 1 is returned.

Reproducibility: :func:`generate` seeds ``random.Random(seed)`` and draws one 32-bit seed per
instance from it (instance ``i`` does not depend on ``count``); every random choice of a
generator comes from its own ``random.Random``. The alternative solutions the solver returns
steer the edits, so the output is reproducible for the same code and solver versions (CP-SAT
runs with one worker and a fixed seed; the SAT solvers are deterministic). A solve that hits
its time limit makes the generator start over from a fresh solution, which keeps the result
deterministic as long as the limit is not reached on one machine and not on another. Each
file records its recipe and the generator's version (:mod:`bench.generate.provenance`), so a
file can be checked by regenerating it while that version is current; :func:`write_generated`
never replaces a different existing file unless told to.

The generators live in each puzzle's folder (its ``generate`` module, found through the puzzle
registry): ``shikaku`` (random rectangle partition, clue cells moved until unique) and
``nurikabe`` (random wall and islands, clues moved or 1-islands added until unique).
"""

from __future__ import annotations

import random
import re
import tempfile
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from bench.backends import SolveOptions, get_backend
from bench.generate.provenance import Recipe, header_fields, read_header
from bench.instance import Instance, InstanceError, format_instance, parse_instance
from bench.puzzles import SolutionGrid, Token, get_puzzle, puzzle_names
from bench.puzzles.base import Alias, implementation
from bench.puzzles.registry import load_all
from bench.records import Task
from bench.solve import solve

R = TypeVar("R")

#: per-solve time limit of the in-process uniqueness loop (seconds)
SOLVE_LIMIT_S = 60.0
#: the final count to 2 of :func:`generate_one`: a generation of minutes is not thrown away for
#: a slow proof (the large big-island puzzles need more than :data:`SOLVE_LIMIT_S`)
COUNT_LIMIT_S = 600.0
MIN_SIDE = 2
MAX_SIDE = 200


class GenerationError(Exception):
    """A generator that cannot run (unknown puzzle, no generator, bad size) or that gave up;
    ``str(err)`` is one line."""


class ExistingFileError(GenerationError):
    """:func:`write_generated` would replace an existing file with different content."""


class SolveTimeout(GenerationError):
    """An in-process solve of the uniqueness loop hit its time limit."""


@dataclass(frozen=True)
class Generated:
    """One generated instance, its (unique) solution and what it took."""

    instance: Instance
    solution: SolutionGrid
    seconds: float
    solves: int  # in-process solver calls of the uniqueness loop (the final proof excluded)


class Generator:
    """Random instances of one puzzle with exactly one solution.

    Subclasses set ``puzzle`` and the exact ``formulation``/``solver`` pair used both for the
    uniqueness loop and for the final proof, and implement :meth:`generate_solved`.
    """

    puzzle: ClassVar[str]
    formulation: ClassVar[str]
    solver: ClassVar[str]
    #: the integer parameters ``generate --param NAME=N`` may set, with their help; each is an
    #: attribute of the generator whose class value is the default
    params: ClassVar[dict[str, str]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass that defines ``checker`` (the old name of :meth:`uniqueness_formulation`,
        until 0.3) and not the new name gets it under the new name, with a DeprecationWarning."""
        super().__init_subclass__(**kwargs)
        own = vars(cls)
        if "checker" in own and "uniqueness_formulation" not in own:
            warnings.warn(f"{cls.__module__}.{cls.__qualname__}.checker: the generator hook "
                          "'checker' is renamed 'uniqueness_formulation' (the old name works "
                          "until 0.3)", DeprecationWarning, stacklevel=2)
            cls.uniqueness_formulation = Alias(own["checker"])  # type: ignore[method-assign,assignment]

    def __init__(self) -> None:
        self.solves = 0

    def with_params(self, params: dict[str, int]) -> Generator:
        """A generator of the same class with ``params`` set (:attr:`params`);
        :class:`GenerationError` naming the known ones for any other name or a negative value."""
        gen = type(self)()
        for name, value in params.items():
            if name not in self.params:
                known = ", ".join(sorted(self.params)) or "none"
                raise GenerationError(
                    f"unknown parameter {name!r} for the {self.puzzle} generator (known: {known})")
            if value < 0:
                raise GenerationError(f"bad parameter {name}={value}: must be at least 0")
            setattr(gen, name, value)
        return gen

    def generate(self, rows: int, cols: int, rng: random.Random) -> Instance:
        """A ``rows x cols`` instance with exactly one solution (headers: ``puzzle`` only)."""
        return self.generate_solved(rows, cols, rng)[0]

    def generate_solved(
        self, rows: int, cols: int, rng: random.Random
    ) -> tuple[Instance, SolutionGrid]:
        """The instance and its unique solution."""
        raise NotImplementedError

    # --- helpers for subclasses -------------------------------------------------------------

    def instance(self, grid: list[list[Token]]) -> Instance:
        """An instance of this puzzle from a clue grid (validated by the puzzle's rules)."""
        return instance_from_grid(self.puzzle, grid)

    def proof_count(self, inst: Instance) -> int:
        """Solutions of ``inst`` up to 2 for the final proof of :func:`generate_one`:
        :func:`count_solutions` with :meth:`uniqueness_formulation`, unless a kind has an
        exact counter of its own."""
        return count_solutions(inst, self.uniqueness_formulation(), self.solver,
                               time_limit=COUNT_LIMIT_S)

    def until_solved(self, attempt: Callable[[], R], tries: int, failure: str) -> R:
        """``attempt()``, again after a solver timeout, at most ``tries`` times; then a
        :class:`GenerationError` saying ``failure``."""
        for _ in range(tries):
            try:
                return attempt()
            except SolveTimeout:
                continue
        raise GenerationError(failure)

    def uniqueness_formulation(self) -> str:
        """The exact formulation of the uniqueness checks and the final proof:
        :attr:`formulation` unless a parameter calls for another."""
        return self.formulation

    def checker(self) -> str:
        """Deprecated name of :meth:`uniqueness_formulation` (until 0.3)."""
        warnings.warn("Generator.checker is renamed Generator.uniqueness_formulation (the old "
                      "name works until 0.3)", DeprecationWarning, stacklevel=2)
        return str(implementation(self, "uniqueness_formulation")())

    def other(self, inst: Instance, intended: SolutionGrid) -> SolutionGrid | None:
        """A solution of ``inst`` other than ``intended``, or None when there is none."""
        self.solves += 1
        return other_solution(inst, intended, self.uniqueness_formulation(), self.solver)


_GENERATORS: dict[str, Generator] = {}


def register_generator(cls: type[Generator]) -> type[Generator]:
    _GENERATORS[cls.puzzle] = cls()
    return cls


def generator_names() -> list[str]:
    """Puzzles with a generator: the ``generate`` module of a puzzle's folder registers one."""
    load_all("generate")
    return sorted(_GENERATORS)


def get_generator(puzzle: str) -> Generator:
    """The generator of a puzzle; :class:`GenerationError` naming the ones that exist."""
    have = ", ".join(generator_names())
    if puzzle in _GENERATORS:
        return _GENERATORS[puzzle]
    if puzzle in puzzle_names():
        raise GenerationError(f"no generator for {puzzle} yet (generators exist for: {have})")
    raise GenerationError(f"unknown puzzle {puzzle!r} (generators exist for: {have})")


def instance_from_grid(puzzle: str, grid: list[list[Token]],
                       header: dict[str, str] | None = None) -> Instance:
    rules = get_puzzle(puzzle)
    lines = [f"{k}: {v}" for k, v in ({"puzzle": puzzle} | (header or {})).items()]
    body = [" ".join(rules.format_token(v) for v in row) for row in grid]
    return parse_instance("\n".join([*lines, "", *body]) + "\n", f"<generated {puzzle}>")


#: a ``--size`` as the generators take it: ROWSxCOLS (``10x12``, ``8X8``, spaces allowed)
SIZE = re.compile(r"^\s*(\d+)\s*[xX]\s*(\d+)\s*$")


def parse_size(text: str) -> tuple[int, int]:
    """``"10x12"`` -> ``(10, 12)``; ValueError with a one-line message otherwise."""
    m = SIZE.match(text)
    if not m:
        raise ValueError(f"bad --size {text!r}: expected ROWSxCOLS, e.g. 10x10")
    return int(m[1]), int(m[2])


def check_size(puzzle: str, rows: int, cols: int) -> None:
    if not (MIN_SIDE <= rows <= MAX_SIDE and MIN_SIDE <= cols <= MAX_SIDE):
        raise GenerationError(
            f"bad size {rows}x{cols} for {puzzle}: rows and columns must be "
            f"{MIN_SIDE}..{MAX_SIDE}")


# --- solving ----------------------------------------------------------------------------------


def other_solution(inst: Instance, intended: SolutionGrid, formulation: str, solver: str,
                   time_limit: float = SOLVE_LIMIT_S) -> SolutionGrid | None:
    """A checked solution of ``inst`` that differs from ``intended`` (projected onto cell
    values, through the formulation's ``block``), or None if the solver proves there is none.

    This is :func:`bench.solve.solve` with ``exclude=intended``: the loop a task runs (build,
    block, solve with the lazy loop, decode, check), in-process so the alternative grid is
    available."""
    from bench.registry import get_formulation

    problems = get_puzzle(inst.puzzle).verify(inst, intended)
    if problems:
        raise GenerationError(f"internal error: intended grid breaks the rules: {problems[0]}")
    form = get_formulation(inst.puzzle, formulation)
    if not form.is_exact():
        raise GenerationError(f"{formulation} is not exact: it cannot prove uniqueness")
    deadline = time.perf_counter() + time_limit
    solved = solve(inst, form, get_backend(solver), deadline, exclude=intended,
                   options=SolveOptions(threads=1, seed=0))
    if solved.status == "error":
        raise GenerationError(f"{formulation}: {solved.message}")
    if solved.status == "infeasible":
        return None
    if solved.grid is None:
        raise SolveTimeout(f"{formulation}/{solver}: {solved.status} within {time_limit:g} s")
    if solved.problems:
        raise GenerationError(
            f"{formulation}/{solver} returned a wrong grid: {solved.problems[0]}")
    return solved.grid


def count_solutions(inst: Instance, formulation: str, solver: str,
                    time_limit: float = SOLVE_LIMIT_S) -> int:
    """Solutions of ``inst`` up to 2, through :func:`bench.run.execute.execute` on a temporary
    instance file (the harness's own counting path); GenerationError if it does not finish."""
    from bench.run.execute import execute

    with tempfile.TemporaryDirectory(prefix="puzzlebench-gen-") as tmp:
        path = Path(tmp) / "instance.txt"
        path.write_text(format_instance(inst), encoding="utf-8")
        res = execute(Task(str(path), formulation, solver, time_limit=time_limit, count=2))
    if res.status == "infeasible":
        return 0
    if res.status != "solved" or res.count is None:
        raise GenerationError(
            f"uniqueness proof with {formulation}/{solver} ended {res.status}: {res.message}")
    return res.count


# --- the entry points -------------------------------------------------------------------------


def instance_seeds(seed: int, count: int) -> list[int]:
    """The per-instance seeds of ``generate(..., seed, count)``: instance i's seed does not
    depend on ``count``."""
    master = random.Random(seed)
    return [master.getrandbits(32) for _ in range(count)]


def command(puzzle: str, rows: int, cols: int, seed: int, count: int = 1,
            params: dict[str, int] | None = None) -> str:
    cmd = f"puzzlebench generate {puzzle} --size {rows}x{cols} --seed {seed}"
    cmd += "".join(f" --param {k}={v}" for k, v in sorted((params or {}).items()))
    return cmd + (f" --count {count}" if count > 1 else "")


def file_stem(puzzle: str, rows: int, cols: int, seed: int, index: int,
              params: dict[str, int] | None = None) -> str:
    """``gen-<puzzle>-<R>x<C>-s<seed>[-<param><value>...]-<index>``."""
    tags = "".join(f"-{k}{v}" for k, v in sorted((params or {}).items()))
    return f"gen-{puzzle}-{rows}x{cols}-s{seed}{tags}-{index}"


def file_header(recipe: Recipe) -> dict[str, str]:
    """The header lines (after ``puzzle``) of the file :func:`generate_one` writes for
    ``recipe``: known before the generation, as it depends on nothing the generator draws."""
    r = recipe
    gen = get_generator(r.puzzle).with_params(r.params)
    header = {"source": "generated by " + command(r.puzzle, r.rows, r.cols, r.seed, r.count,
                                                  r.params)}
    if r.count > 1:
        header["generator-index"] = str(r.index)
    header["generator-seed"] = str(instance_seeds(r.seed, r.index + 1)[r.index])
    return header | header_fields(r, type(gen).__module__, gen.uniqueness_formulation(), gen.solver)


def check_existing(out_dir: str | Path, recipe: Recipe) -> None:
    """:class:`ExistingFileError` when ``<out_dir>/<stem>.txt`` exists and cannot be what
    :func:`generate_one` makes from ``recipe`` (not a readable file, or another header than
    :func:`file_header`: a file of an older generator, say), so a long generation is not run
    only to be refused by :func:`save_generated`. A file with this very header is not judged:
    only the generation can tell."""
    r = recipe
    path = Path(out_dir) / f"{file_stem(r.puzzle, r.rows, r.cols, r.seed, r.index, r.params)}.txt"
    if not (path.exists() or path.is_symlink()):
        return
    try:
        header = read_header(path)
    except (OSError, UnicodeDecodeError, InstanceError):
        header = {}
    expected = {"puzzle": r.puzzle} | file_header(r)
    if header != expected:
        raise ExistingFileError(
            f"{path} exists with different content: not overwritten (--force replaces it)")


def generate_one(puzzle: str, rows: int, cols: int, seed: int, index: int = 0,
                 count: int = 1, params: dict[str, int] | None = None) -> Generated:
    """Instance ``index`` of ``generate(puzzle, rows, cols, seed, count, params)``, proved
    unique."""
    gen = get_generator(puzzle).with_params(params or {})
    check_size(puzzle, rows, cols)
    if not 0 <= index < count:
        raise GenerationError(f"instance index {index} out of range for --count {count}")
    sub_seed = instance_seeds(seed, index + 1)[index]
    header = file_header(Recipe(puzzle, rows, cols, seed, count, index, dict(params or {})))
    t0 = time.perf_counter()
    inst, solution = gen.generate_solved(rows, cols, random.Random(sub_seed))
    stem = file_stem(puzzle, rows, cols, seed, index, params)
    inst = replace(instance_from_grid(puzzle, [list(row) for row in inst.grid], header),
                   path=f"{stem}.txt", name=stem)
    problems = get_puzzle(puzzle).verify(inst, solution)
    if problems:
        raise GenerationError(f"internal error: generated solution is wrong: {problems[0]}")
    found = gen.proof_count(inst)
    if found != 1:
        raise GenerationError(f"internal error: generated instance has {found} solutions")
    return Generated(inst, solution, time.perf_counter() - t0, gen.solves)


def write_generated(gen: Generated, out_dir: str | Path, force: bool = False) -> Path:
    """:func:`save_generated`, returning the ``.txt`` path."""
    return save_generated(gen, out_dir, force)[0]


def save_generated(gen: Generated, out_dir: str | Path, force: bool = False) -> tuple[Path, str]:
    """Write ``<out_dir>/<stem>.txt`` and its known solution ``<stem>.sol`` (a JSON grid, as
    ``docs/formats.md`` describes) beside it, making ``out_dir`` if it is missing
    (a generation can take hours: it must not end on a missing folder). Returns the ``.txt``
    path and what happened: ``"written"`` (no file with other content was there),
    ``"unchanged"`` (both existed with these very bytes: nothing is written) or
    ``"replaced"`` (one had other content, and ``force``).

    Without ``force``, an existing ``.txt`` or ``.sol`` with other content (or something other
    than a file in its place) raises :class:`ExistingFileError` naming it, and nothing is
    written. Each file is written to a temporary name beside it and renamed into place."""
    from bench.convert.formats import solution_text

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{gen.instance.name}.txt"
    texts = {path: format_instance(gen.instance).encode("utf-8"),
             path.with_suffix(".sol"): solution_text(gen.solution).encode("utf-8")}
    existing = [p for p in texts if p.exists() or p.is_symlink()]
    same = [p for p in existing if p.is_file() and p.read_bytes() == texts[p]]
    if existing and len(same) == len(texts):
        return path, "unchanged"
    differing = [p for p in existing if p not in same]
    if differing and not force:
        raise ExistingFileError(
            f"{differing[0]} exists with different content: not overwritten "
            "(--force replaces it)")
    for p, data in texts.items():
        if p in same:
            continue
        tmp = p.with_name(f".{p.name}.tmp")
        tmp.write_bytes(data)
        tmp.replace(p)
    return path, "replaced" if differing else "written"


def generate(puzzle: str, rows: int, cols: int, seed: int, count: int = 1,
             params: dict[str, int] | None = None) -> list[Instance]:
    """``count`` instances of ``puzzle``, each with exactly one solution (proved by counting to 2
    through :func:`bench.run.execute.execute`), reproducible from ``seed`` (and ``params``, the
    generator's :attr:`Generator.params`)."""
    return [generate_one(puzzle, rows, cols, seed, i, count, params).instance
            for i in range(count)]
