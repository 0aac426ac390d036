"""Solver backends: one small class per solver, declaring the model kinds it accepts.

A backend starts a :class:`Session` on a built model; ``Session.solve`` may be called again
after a lazy formulation added cuts. Incremental backends feed only what is new to the live
solver; the others rebuild. Every solver quirk (option names, status codes, timing fields,
executables, how a kind states "no solution") lives in this package and nowhere else.

Backends are found through the ``puzzlebench.backends`` entry points, the built-in ones too
(``pyproject.toml``): an entry point names a :class:`Backend` subclass (one solver) or a function
returning backends (a family: one class serving several solver names, each with its own
availability). Built-ins come first, in their declared order (the order `puzzlebench list`
shows them and defaults are tried), then other distributions' backends. Where ``bench`` is
imported from a source checkout, the built-ins are read from its ``pyproject.toml`` rather than
from the installed metadata, which an editable install refreshes only on reinstalling. An
entry point naming a class is declared under that class's ``name`` (one spelling for
``--solver``, results and reports). A backend that fails to load, is declared under another
name, or clashes with a known name or kind, is logged and left out. The
backend modules import only the standard library at the top; a solver package is imported when
a backend is used, so listing the backends costs no solver import.

The harness's tables of solver facts are derived from the backends' declarations
(:class:`~bench.backends.base.Backend`): which solvers take a seed (:func:`seeded_solvers`),
the order ``check`` tries them in (:func:`check_preference`) and the effort counters a result
keeps (:func:`effort_columns`).

Solver facts the harness relies on:

* Interruptibility. CP-SAT (``max_time_in_seconds``), HiGHS (``time_limit``), GLPK
  (``--tmlim``), CBC (``-sec``), SCIP (``limits/time``) and clingo (its asynchronous search
  cancelled) stop themselves at the time limit; clingo's grounding is not interruptible. Each
  is given the whole time left, never less: a limit in whole seconds (glpsol's) is rounded up
  (:func:`~bench.backends.base.whole_seconds`) and the solver process killed at the deadline.
  python-sat can interrupt only some solvers (Glucose, MiniSat: a timer calls
  ``interrupt``); CaDiCaL, Kissat and Lingeling raise NotImplementedError on it, so
  they run uninterrupted and the runner's hard limit (killing the task process) stops them.
  ``SatBackend.interruptible`` records which; one declared interruptible on an engine python-sat
  cannot interrupt is unavailable, with that reason.
* One kind's packages per task. A task process imports only its kind's solver packages
  (``Backend.modules``) and the formulation loader only the task's kind's modules, so that a
  task's start-up and memory are its own solver's: a CP-SAT task never imports highspy, a
  Pyomo HiGHS task never imports OR-tools. Correctness does not depend on it: OR-tools and
  highspy each bundle their own HiGHS (OR-tools 9.15's linear solver HiGHS 1.12, highspy
  1.16), and one process with both loaded, in either order, solves right through highspy,
  Pyomo's APPSI HiGHS, CP-SAT, OR-tools' linear solver (HiGHS, SCIP) and CPMpy's HiGHS and
  OR-tools. The ``cpmpy`` kind's tasks load both: ``import cpmpy`` imports OR-tools and
  highspy.
* "No solution" per kind (``post_infeasible`` on the model, :mod:`bench.backends.kinds`): MIP
  gets a binary that must reach 2, since CBC and HiGHS report 'unknown' on Pyomo's
  ``Constraint.Infeasible``; CP-SAT an empty ``bool_or``; SAT the empty clause; ASP a
  constraint with an empty body.
* Status names: MIP and CP-SAT say "optimal"/"feasible" (their solvers' words); SAT and ASP
  (an answer set) say "sat".
* Seeds (each backend's ``seeding``): GLPK and clingo (no randomising option set) and CBC
  (whose seed options change no search) search deterministically and take no seed; HiGHS,
  SCIP and CP-SAT take the task's seed;
  python-sat solvers get a scrambled formula (:mod:`bench.backends.sat`).
* External solvers (kind ``external``, :mod:`bench.backends.external`): the formulation calls
  another package's solver itself; the one backend only runs that call in a session, so any
  package can plug its own solver in (an entry point ``<puzzle>.external.<name>``).
"""

from __future__ import annotations

import importlib
import logging
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.backends.base import (
    FOUND,
    UNSEEDED,
    Backend,
    Outcome,
    Seeding,
    Session,
    SolveOptions,
    Status,
    timed,
)
from bench.backends.kinds import KINDS, ModelKind
from bench.effort import Counter, known
from bench.entrypoints import entry_points as entry_points_of

if TYPE_CHECKING:
    import importlib.metadata

__all__ = ["FOUND", "GROUP", "UNSEEDED", "Backend", "Outcome", "Seeding", "Session",
           "SolveOptions", "Status", "all_backends", "backends_for", "check_preference",
           "effort_columns", "get_backend", "seeded_solvers", "timed"]

log = logging.getLogger(__name__)

#: the entry-point group backends register in
GROUP = "puzzlebench.backends"
#: the distribution whose entry points are the built-in backends
DISTRIBUTION = "puzzlebench"


_source: dict[str, str] | None = None


def _source_group() -> dict[str, str] | None:
    """The group's entry points (name: value) in the pyproject.toml of the source checkout
    ``bench`` is imported from (None outside one); read once."""
    global _source
    if _source is None:
        path = Path(__file__).resolve().parents[2] / "pyproject.toml"
        try:
            project = tomllib.loads(path.read_text(encoding="utf-8")).get("project", {})
        except (OSError, tomllib.TOMLDecodeError):
            return None
        group = project.get("entry-points", {}).get(GROUP)
        if project.get("name") != DISTRIBUTION or not isinstance(group, dict):
            return None
        _source = {name: str(value) for name, value in group.items()}
    return _source


def _source_entry_points() -> list[importlib.metadata.EntryPoint] | None:
    """The group's entry points in the pyproject.toml of the source checkout ``bench`` is
    imported from (None outside one)."""
    import importlib.metadata

    group = _source_group()
    if group is None:
        return None
    return [importlib.metadata.EntryPoint(name, value, GROUP) for name, value in group.items()]


#: distribution name per distribution object (reading it parses the distribution's METADATA;
#: an entry point's ``dist`` is shared by every entry point of that distribution)
_DIST_NAMES: dict[int, tuple[object, str]] = {}


def _distribution(ep: importlib.metadata.EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    if dist is None:
        return ""
    known = _DIST_NAMES.get(id(dist))
    if known is None or known[0] is not dist:
        known = _DIST_NAMES[id(dist)] = (dist, getattr(dist, "name", "") or "")
    return known[1]


def entry_points() -> list[tuple[importlib.metadata.EntryPoint, str]]:
    """Every backend entry point with its distribution: the built-ins in declared order, then
    the others by distribution and name."""
    installed = list(entry_points_of(GROUP))
    own = _source_entry_points()
    if own is None:
        own = [ep for ep in installed if _distribution(ep) == DISTRIBUTION]
    others = sorted((ep for ep in installed if _distribution(ep) != DISTRIBUTION),
                    key=lambda ep: (_distribution(ep), ep.name))
    return [(ep, DISTRIBUTION) for ep in own] + [(ep, _distribution(ep)) for ep in others]


def _load(ep: importlib.metadata.EntryPoint) -> list[Backend]:
    """The backends an entry point declares: a Backend subclass, or a function returning
    backends."""
    return _backends_of(ep.load(), ep.name, ep.value)


def _backends_of(obj: Any, entry: str, value: str) -> list[Backend]:
    """The backends of the entry point ``entry = value`` whose object is ``obj``. A class is
    one solver and must be declared under its own ``name`` (the name ``--solver``, results
    and reports use, and the one a source checkout looks up by entry point alone); a
    family's function names none of its solvers."""
    if isinstance(obj, type) and issubclass(obj, Backend):
        backend = obj()
        own = getattr(backend, "name", None)
        if isinstance(own, str) and own and own != entry:
            raise TypeError(f"the entry point is named {entry!r} but {obj.__qualname__}.name "
                            f"is {own!r}: name the entry point {own} (or the solver {entry})")
        return [backend]
    if callable(obj):
        found = list(obj())
        wrong = [b for b in found if not isinstance(b, Backend)]
        if wrong:
            raise TypeError(f"{value} returned {type(wrong[0]).__name__}, not a Backend")
        return found
    raise TypeError(f"{value} is neither a Backend subclass nor a function returning "
                    "backends")


def _problem(b: Backend, names: dict[str, Backend]) -> str:
    """Why a loaded backend cannot be registered ("" when it can)."""
    name = getattr(b, "name", "")
    if not isinstance(name, str) or not name:
        return "it has no name"
    if name in names:
        return f"the solver name {name!r} is taken"
    kinds = getattr(b, "kinds", ())
    if not kinds or any(k not in KINDS for k in kinds):
        return f"its kinds {tuple(kinds)} are not among {'/'.join(KINDS)}"
    if not isinstance(b.seeding, Seeding):
        return "its seeding is not a bench.backends.base.Seeding"
    if not all(isinstance(c, Counter) for c in b.effort):
        return "its effort is not a tuple of bench.effort.Counter"
    if b.check_rank is not None and not isinstance(b.check_rank, int):
        return f"its check_rank {b.check_rank!r} is not a whole number or None"
    return ""


#: backend name -> the distribution that registered it
_SOURCES: dict[str, str] = {}
#: entry-point name -> why it was left out (it failed to load), for :func:`get_backend`
_LEFT_OUT: dict[str, str] = {}
_BACKENDS: list[Backend] | None = None


def all_backends() -> list[Backend]:
    """Every registered backend, in the order `puzzlebench list` shows them and defaults are
    tried (loaded on first use)."""
    global _BACKENDS
    if _BACKENDS is None:
        names: dict[str, Backend] = {}
        for ep, dist in entry_points():
            try:
                loaded = _load(ep)
            except Exception as e:  # a broken third-party backend must not take the harness down
                log.error("solver backend %s = %s (%s) skipped: %s", ep.name, ep.value,
                          dist or "no distribution", e)
                _LEFT_OUT[ep.name] = f"{ep.value} ({dist or 'no distribution'}) was left out: {e}"
                continue
            for b in loaded:
                problem = _problem(b, names)
                if problem:
                    log.error("solver backend %s (%s) skipped: %s", ep.value, dist, problem)
                    continue
                unknown = [c.name for c in b.effort if not known(c.name)]
                if unknown:
                    log.warning("solver %s declares effort counters no result keeps: %s (the "
                                "results columns are bench.effort.COUNTERS)", b.name,
                                ", ".join(unknown))
                if dist == DISTRIBUTION and type(_BUILTIN.get(b.name)) is type(b):
                    b = _BUILTIN[b.name]  # the one get_backend handed out already
                names[b.name] = b
                _SOURCES[b.name] = dist
        _BACKENDS = list(names.values())
        if not _BACKENDS:
            log.error("no solver backend is registered in the entry-point group %s: reinstall "
                      "puzzlebench (pip install -e .)", GROUP)
    return list(_BACKENDS)


def source(name: str) -> str:
    """The distribution that registered a backend ("puzzlebench" for a built-in)."""
    all_backends()
    return _SOURCES.get(name, "")


def get_backend(name: str) -> Backend:
    """The backend of this solver name; KeyError if unknown. Before the table is loaded, a
    built-in name of a source checkout is found from its own entry point alone (built-ins come
    first, so it is the one :func:`all_backends` would keep), without reading the installed
    distributions' metadata."""
    if _BACKENDS is None:
        found = _builtin_backend(name)
        if found is not None:
            return found
    backends = all_backends()
    for b in backends:
        if b.name == name:
            return b
    if name in _LEFT_OUT:
        raise KeyError(f"unknown solver {name!r}: its entry point {_LEFT_OUT[name]}")
    known_names = ", ".join(b.name for b in backends)
    raise KeyError(f"unknown solver {name!r} (known: {known_names})")


_BUILTIN: dict[str, Backend] = {}


def _builtin_backend(name: str) -> Backend | None:
    """The built-in backend ``name`` from its own entry point in the source checkout's
    ``pyproject.toml`` (one class each, declared under its backend's name; a family's entry
    point such as ``cpmpy`` names none of its solvers), registered under the same checks as
    :func:`all_backends`; None when it is not one, or ``bench`` is not imported from a source
    checkout."""
    if name in _BUILTIN:
        return _BUILTIN[name]
    value = (_source_group() or {}).get(name)
    if value is None:
        return None
    module, _, attr = value.partition(":")
    try:  # what EntryPoint.load does, without importing importlib.metadata
        obj: Any = importlib.import_module(module.strip())
        for part in filter(None, attr.strip().split(".")):
            obj = getattr(obj, part)
        loaded = _backends_of(obj, name, value)
    except Exception:  # all_backends logs it
        return None
    if len(loaded) != 1 or loaded[0].name != name or _problem(loaded[0], {}):
        return None  # all_backends tells why
    _BUILTIN[name] = loaded[0]
    _SOURCES.setdefault(name, DISTRIBUTION)
    return loaded[0]


def backends_for(kind: ModelKind) -> list[Backend]:
    return [b for b in all_backends() if kind in b.kinds]


def seeded_solvers() -> frozenset[str]:
    """The solvers whose search another seed changes (their declared :class:`Seeding`)."""
    return frozenset(b.name for b in all_backends() if b.seeding.takes)


def check_preference() -> tuple[str, ...]:
    """The ranked solvers in the order `puzzlebench check` prefers them (per kind, the
    first available one is used): by declared rank, ties in listing order."""
    ranked = [(b.check_rank, i, b.name) for i, b in enumerate(all_backends())
              if b.check_rank is not None]
    return tuple(name for _, _, name in sorted(ranked))


def effort_columns() -> tuple[str, ...]:
    """The effort counters the backends declare that a result keeps as columns, in order of
    first declaration."""
    out: dict[str, None] = {}
    for b in all_backends():
        out.update((c.name, None) for c in b.effort if known(c.name))
    return tuple(out)
