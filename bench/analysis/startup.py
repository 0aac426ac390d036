"""`puzzlebench solve` against the bare import of the solver library it uses, per puzzle.

Per puzzle, one instance file (``instances/<puzzle>/``: the first ``seed-*`` file, else the
first file) is solved with the puzzle's declared default pair by the whole command
(``python -m bench.cli solve FILE``: interpreter start, bench's imports, the task process, the
check, the output), and the solver's modules (its backend's ``Backend.modules``, numpy left
out: ``import pysat.solvers, pysat.card`` for a SAT solver, ``import
ortools.sat.python.cp_model`` for CP-SAT, ...) are imported by a bare ``python -c``
(``python -c pass`` where the backend lists none, as ``external``: shown as ``(none)``);
``python -c pass`` is timed beside them (the interpreter alone). ``--instance FILE`` measures
that file instead (its puzzle's row only). Each command runs once
untimed, then ``repeats`` times, every command of every puzzle in turn (side by side, so load
changes hit them alike); the table gives medians and the ratio solve / bare import.

By default the commands run with Python's bytecode cache usable, as an installed package runs:
where the environment turns writing bytecode off (``PYTHONDONTWRITEBYTECODE``), the commands get
a cache folder of their own (``PYTHONPYCACHEPREFIX``, filled by the untimed run) and bench's
modules are not compiled again on every start. ``--no-bytecode-cache`` measures the
environment as it is. ``--baseline DIR`` times a second source tree's ``solve`` of the same
instance beside the others (bench and formulations imported from DIR, e.g. a checkout of an
earlier commit), with its ratio to the same bare import: a change measured before and after
under one load.

    python -m bench.analysis.startup --repeats 5
    python -m bench.analysis.startup --repeats 5 --puzzle fillomino --baseline ../main
    python -m bench.analysis.startup --repeats 5 --instance instances/nurikabe/two/FILE.txt
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

#: the source tree the commands import ``bench`` from (this module's)
ROOT = Path(__file__).resolve().parents[2]
#: modules a backend may list for its task processes that are not its solver library
HARNESS_MODULES = frozenset({"numpy"})


@dataclass(frozen=True)
class Case:
    """One puzzle's instance, its default pair and the solver's modules."""

    puzzle: str
    instance: Path
    formulation: str
    solver: str
    modules: tuple[str, ...]


@dataclass(frozen=True)
class Row:
    """Medians in seconds over the repeats, and their ratio."""

    case: Case
    python_s: float  # python -c pass
    import_s: float  # python -c "import <the solver's modules>"
    solve_s: float  # python -m bench.cli solve FILE
    solved: bool  # every timed solve exited 0
    baseline_s: float | None = None  # the same solve from the baseline tree, if one was given
    baseline_solved: bool = True  # every timed baseline solve exited 0

    @property
    def ratio(self) -> float:
        return self.solve_s / self.import_s

    @property
    def baseline_ratio(self) -> float | None:
        return None if self.baseline_s is None else self.baseline_s / self.import_s


def instance_of(puzzle: str, folder: Path = ROOT / "instances") -> Path:
    """The puzzle's measured instance: its first ``seed-*`` file, else its first file."""
    files = sorted(p for p in (folder / puzzle).glob("*.txt") if p.is_file())
    if not files:
        raise FileNotFoundError(f"{folder / puzzle}: no instance file")
    return next((p for p in files if p.name.startswith("seed-")), files[0])


def case_of(puzzle: str, instance: Path | None = None) -> Case:
    from bench.backends import get_backend
    from bench.instance import read_instance
    from bench.select.rules import is_selector, resolve
    from bench.solve import default_choice

    path = instance or instance_of(puzzle)
    formulation, solver = default_choice(puzzle)
    if is_selector(formulation) or is_selector(solver):  # the pair it picks for the instance
        name = formulation if is_selector(formulation) else solver
        formulation, solver, _ = resolve(read_instance(path), name)
    modules = tuple(m for m in get_backend(solver).modules if m not in HARNESS_MODULES)
    return Case(puzzle, path, formulation, solver, modules)


def environment(bytecode_cache: bool, cache_dir: str, root: Path = ROOT) -> dict[str, str]:
    """The commands' environment: bench from ``root``; with ``bytecode_cache``, bytecode
    written and read (under ``cache_dir`` where the environment turns writing it off)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH")]))
    if bytecode_cache and env.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
        env.setdefault("PYTHONPYCACHEPREFIX", cache_dir)
    return env


def commands(case: Case, baseline: bool = False) -> dict[str, list[str]]:
    """The case's commands by column; with ``baseline``, the solve once more (run from the
    baseline tree)."""
    solve = [sys.executable, "-m", "bench.cli", "solve", str(case.instance)]
    bare = "import " + ", ".join(case.modules) if case.modules else "pass"
    return {"python": [sys.executable, "-c", "pass"],
            "import": [sys.executable, "-c", bare],
            "solve": solve, **({"baseline": solve} if baseline else {})}


def _run(cmd: Sequence[str], env: dict[str, str], cwd: Path = ROOT) -> tuple[float, int]:
    """The command's wall time and exit code. Waited for by a blocking ``waitpid``: a wait with
    a timeout polls at growing intervals, which would round the times up."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                         cwd=cwd)
    code = p.wait()
    return time.perf_counter() - t0, code


def baseline_problem(root: Path) -> str:
    """Why ``root`` cannot be a baseline tree ("" if it can)."""
    if not (root / "bench" / "cli" / "__main__.py").is_file():
        return f"{root}: not a puzzlebench source tree (no bench/cli/__main__.py)"
    return ""


def measure(cases: Sequence[Case], repeats: int = 5, bytecode_cache: bool = True,
            baseline: Path | None = None) -> list[Row]:
    """Time every case's commands ``repeats`` times, interleaved (after one untimed run of
    each); with ``baseline``, also the solve run from that source tree."""
    with tempfile.TemporaryDirectory(prefix="puzzlebench-pycache-") as cache:
        env = environment(bytecode_cache, cache)
        where = {"baseline": (environment(bytecode_cache, cache, baseline), baseline)
                 } if baseline is not None else {}
        cmds = [commands(c, baseline is not None) for c in cases]

        def run(key: str, cmd: list[str]) -> tuple[float, int]:
            return _run(cmd, *where.get(key, (env, ROOT)))

        for per_case in cmds:
            for key, cmd in per_case.items():
                run(key, cmd)
        times: list[dict[str, list[float]]] = [{k: [] for k in c} for c in cmds]
        failed: list[set[str]] = [set() for _ in cases]
        for _ in range(repeats):
            for i, per_case in enumerate(cmds):
                for key, cmd in per_case.items():
                    took, code = run(key, cmd)
                    times[i][key].append(took)
                    if key != "python" and code != 0:
                        failed[i].add(key)
    return [Row(case, statistics.median(t["python"]), statistics.median(t["import"]),
                statistics.median(t["solve"]), not bad & {"import", "solve"},
                statistics.median(t["baseline"]) if "baseline" in t else None,
                "baseline" not in bad)
            for case, t, bad in zip(cases, times, failed, strict=True)]


HEADER = ("puzzle", "pair", "bare import", "python", "import s", "solve s", "ratio")
#: the columns a baseline adds
BASELINE_HEADER = ("baseline s", "baseline ratio")


def table(rows: Sequence[Row]) -> list[str]:
    """The rows as aligned text lines: a header, then one line per puzzle."""
    based = any(r.baseline_s is not None for r in rows)
    header = HEADER + (BASELINE_HEADER if based else ())
    cells = [header] + [
        (r.case.puzzle, f"{r.case.formulation} / {r.case.solver}",
         ", ".join(r.case.modules) or "(none)",
         f"{r.python_s:.3f}", f"{r.import_s:.3f}", f"{r.solve_s:.3f}",
         f"{r.ratio:.2f}" + ("" if r.solved else " (not solved)"),
         *((f"{r.baseline_s:.3f}" if r.baseline_s is not None else "-",
            f"{r.baseline_ratio:.2f}" + ("" if r.baseline_solved else " (not solved)")
            if r.baseline_ratio is not None else "-")
           if based else ()))
        for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(header))]
    return ["  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip()
            for line in cells]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.analysis.startup",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5, help="timed runs per command (median)")
    ap.add_argument("--puzzle", action="append", help="only these puzzles (repeatable)")
    ap.add_argument("--instance", type=Path, metavar="FILE",
                    help="measure this instance file (its puzzle's row only)")
    ap.add_argument("--no-bytecode-cache", action="store_true",
                    help="run as the environment is (bytecode not written if it says so)")
    ap.add_argument("--baseline", type=Path, metavar="DIR",
                    help="another source tree (e.g. a checkout of an earlier commit) whose "
                    "solve of the same instance is timed beside")
    args = ap.parse_args(argv)
    baseline = args.baseline.resolve() if args.baseline else None
    if baseline is not None and (problem := baseline_problem(baseline)):
        print(f"startup: {problem}", file=sys.stderr)
        return 2
    from bench.instance import InstanceError, read_instance
    from bench.puzzles import puzzle_names

    try:
        cases = ([case_of(read_instance(args.instance).puzzle, args.instance)]
                 if args.instance else [case_of(p) for p in args.puzzle or puzzle_names()])
    except (KeyError, FileNotFoundError, InstanceError) as e:
        print(f"startup: {e.args[0] if e.args else e}", file=sys.stderr)
        return 2
    cached = not args.no_bytecode_cache
    rows = measure(cases, max(1, args.repeats), bytecode_cache=cached, baseline=baseline)
    print(f"medians of {max(1, args.repeats)} runs, side by side; bytecode cache "
          f"{'on' if cached else 'as the environment has it'}; {sys.executable}"
          + (f"; baseline: bench from {baseline}" if baseline else ""))
    for line in table(rows):
        print(line)
    return 0 if all(r.solved and r.baseline_solved for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
