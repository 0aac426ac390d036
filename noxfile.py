"""Sessions: tests (CI), docs (CI), bench (the default suite + report), microbench, lint,
typecheck."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import nox

nox.options.sessions = ["tests"]
nox.options.reuse_existing_virtualenvs = True
nox.options.default_venv_backend = "venv"

PYTHON = None  # the interpreter nox runs under (3.11+)


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """The test suite (slow benchmarks excluded; pass `-m slow` to run only those), with the
    `peers` extra (puzzlekit, from PyPI) so the external formulations are tested too, and the
    `lint` extra, which the example plugin's ruff/mypy test uses, the `dask` extra (the
    cluster executor's tests start a real local Dask cluster), the `docs` extra (the site's
    hooks are tested) and the `cpmpy` extra (the CPMpy solvers)."""
    session.install("-e", ".[test,lint,peers,dask,docs,cpmpy]")
    session.run("pytest", "-q", *session.posargs)


@nox.session(python=PYTHON)
def docs(session: nox.Session) -> None:
    """The documentation site into site/, with --strict: a broken link, a missing page or a page
    left out of the nav fails. The command-line reference and the formulation catalogue are
    generated from the parser and the plugin registry as it builds (docs/hooks.py), so the
    package is installed too, and so is every report a page links to, rendered from its run's
    data in results/<run>/ (cached in .cache/docs-reports/: a rebuild renders only what
    changed). NO_MKDOCS_2_WARNING silences Material's MkDocs-2 banner."""
    session.install("-e", ".[docs]")
    session.run("mkdocs", "build", "--strict", *session.posargs,
                env={"NO_MKDOCS_2_WARNING": "1"})


@nox.session(python=PYTHON)
def bench(session: nox.Session) -> None:
    """Run the default suite into results/<run>/ and write reports/<run>/ (args go to `run`):
    its plan and worst-case cost first (`run --dry-run`), then the tasks: every formulation's
    default variant on the suite's solvers, three tiers a puzzle, the tiers' repeats, seeds
    and time limits as `instances/suites.toml` declares them, within 20 minutes on 2 cores.
    `-- --seed 3` runs solver seeds disjoint from the default run's (3-5 against 0-2);
    `-- --dry-run` prints the plan and its cost and stops.

    Results are reused from the latest earlier `results/default-*` run made on this machine
    type wherever their identity matches (same instance content, formulation and backend code,
    solver version, limits, seed, repetition): only new or changed tasks run; `--no-reuse`
    runs everything. `--formulation NAME` (a plugin or a new built-in) runs the suite's pairs
    plus every variant of NAME, the rest reused; a plugin package is installed into the
    session's own environment by `--install PATH` (repeatable; the session's option, not
    `run`'s: `-- --install ./mine-plugin --formulation mine`).
    The report's options are kept beside the data, in results/<run>/report.json: the docs site
    renders the run's report from them."""
    session.install("-e", ".[peers]")  # the peer package (puzzlekit) joins the comparison
    plugins, posargs = plugin_args(session.posargs)
    for path in plugins:  # the session's environment is its own: a plugin joins it here
        if not Path(path).is_dir():
            session.error(f"--install {path}: no such folder (a plugin package's folder)")
        session.install("-e", path)
    stamp = f"{dt.datetime.now():%Y%m%d-%H%M%S}"
    plan, args, out, dry = bench_args(posargs, stamp)
    session.run("puzzlebench", "run", *plan, "--dry-run")
    if dry:  # the plan only: nothing run, no folder, no report
        return
    session.run("puzzlebench", "run", *args, success_codes=[0, 1])
    report = {"instance": ["seed-*"]}  # kept with the data: the docs site renders the same
    Path(out, "report.json").write_text(json.dumps(report) + "\n", encoding="utf-8")
    session.run("puzzlebench", "report", out, "--out", str(Path("reports") / Path(out).name),
                *(a for p in report["instance"] for a in ("--instance", p)))


def _given(args: list[str], option: str) -> bool:
    """Whether ``option`` is among ``args``, as ``--opt VALUE`` or ``--opt=VALUE`` (the two
    forms `run`'s parser reads; it takes no abbreviation of an option)."""
    return any(a == option or a.startswith(f"{option}=") for a in args)


def _value(args: list[str], option: str) -> str | None:
    """The value ``args`` give ``option`` (the last one, as argparse keeps), None if none."""
    found = None
    for i, a in enumerate(args):
        if a.startswith(f"{option}="):
            found = a.partition("=")[2]
        elif a == option and i + 1 < len(args):
            found = args[i + 1]
    return found


def _without(args: list[str], option: str) -> list[str]:
    """``args`` less every ``option VALUE`` and ``option=VALUE``."""
    kept: list[str] = []
    skip = False
    for a in args:
        if skip or a.startswith(f"{option}="):
            skip = False
        elif a == option:
            skip = True
        else:
            kept.append(a)
    return kept


def plugin_args(posargs: list[str]) -> tuple[list[str], list[str]]:
    """The `bench` session's own ``--install PATH`` values (each form, in order) and the
    arguments without them: the plugin packages to install into the session's environment,
    which holds only this package and the peers otherwise."""
    paths: list[str] = []
    for i, a in enumerate(posargs):
        if a.startswith("--install="):
            paths.append(a.partition("=")[2])
        elif a == "--install" and i + 1 < len(posargs):
            paths.append(posargs[i + 1])
    return paths, _without(posargs, "--install")


def bench_args(posargs: list[str], stamp: str) -> tuple[list[str], list[str], str, bool]:
    """The `bench` session's arguments to `run` from its own (``nox -s bench -- ARGS``):
    ``(plan, args, out, dry)``, the dry run's arguments (no ``--out``, no ``--dry-run``), the
    run's, its folder and whether ARGS ask for the plan only. ``--no-reuse`` is the session's
    own; ``--formulation`` adds to the suite's selection (``run --add-formulation``); the
    suite, jobs, folder and reuse default to ``default``, 2, ``results/default-STAMP`` and the
    latest ``results/default-*`` unless ARGS give them, in either form `run` reads."""
    args = list(posargs)
    reuse = "--no-reuse" not in args
    args = [a for a in args if a != "--no-reuse"]
    # added to the suite's selection, not in its place (`run --add-formulation`)
    args = ["--add-formulation" + a[len("--formulation"):] if _given([a], "--formulation")
            else a for a in args]
    out = _value(args, "--out")
    if out is None:
        out = f"results/default-{stamp}"
        args += ["--out", out]
    if not _given(args, "--suite"):
        args += ["--suite", "default"]
    if not _given(args, "--jobs"):
        args += ["--jobs", "2"]
    if reuse and not _given(args, "--reuse-latest"):
        args += ["--reuse-latest", "results/default-*"]
    plan = [a for a in _without(args, "--out") if a != "--dry-run"]
    return plan, args, out, "--dry-run" in args


@nox.session(python=PYTHON)
def microbench(session: nox.Session) -> None:
    """Model construction per formulation and the harness itself (task start-up per kind,
    forked and spawned; journal append; Parquet consolidation of 100k results; the report of
    a 10k-task run; a lazy loop's separation rounds) with pytest-benchmark, compared with the
    latest saved run in results/microbench/ (fails on a median regression over 50 %). Save a new
    baseline with `nox -s microbench -- --benchmark-autosave`; `nox -s microbench -- -k
    harness` runs only the harness."""
    session.install("-e", ".[test]")
    storage = Path("results") / "microbench"
    compare = ["--benchmark-compare", "--benchmark-compare-fail=median:50%"] \
        if any(storage.rglob("*.json")) else []
    session.run("pytest", "tests/benchmarks", "-m", "slow or not slow", "--benchmark-enable",
                f"--benchmark-storage=file://{storage}",
                "--benchmark-columns=min,median,max,rounds", *compare, *session.posargs)


@nox.session(python=PYTHON)
def lint(session: nox.Session) -> None:
    session.install("ruff>=0.5")
    session.run("ruff", "check", "bench", "formulations", "tests", "noxfile.py", "docs/hooks.py")


@nox.session(python=PYTHON)
def typecheck(session: nox.Session) -> None:
    session.install("-e", ".[lint]")
    session.run("mypy")
