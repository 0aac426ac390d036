"""Suites: named, versioned instance lists in ``instances/suites.toml``.

A suite names its instances by globs, either as one list (``instances``) or in named tiers
(``[NAME.tiers.TIER]`` tables, each with ``instances`` and optional ``repeats`` and
``time_limit``, which replaces the suite's for the tier's tasks); a task's
result row carries the tier of its instance. A suite may also restrict what runs when no
``--formulation``/``--solver`` is given: ``formulations`` (labels, as ``--formulation``
takes them), ``variants = "default"`` (each formulation's default variant: the first value of
every parameter) and ``solvers``.

``repeats`` is the suite's declaration of where timing noise matters: each task of the tier
runs that many times, as solver seeds for the solvers that take one (each backend declares how
it uses a seed: ``Backend.seeding``) and as plain repetitions with the same seed for the
deterministic ones; with ``repeat_under`` only where the first run
answered in under that many seconds.

``seeds`` is the tier's declaration that solver variance is part of its design: every solver
whose search varies with its seed runs seeds ``seed .. seed+n-1`` on every task, whatever its
first run took (never gated), and a deterministic solver runs each task once (its further
seeds would repeat the same search). A tier declares ``repeats`` or ``seeds``, not both.

``cap`` and ``capped``: the pairs (``PUZZLE:FORMULATION/SOLVER``) the suite's pilot showed
hopeless on the tier run only on its first ``cap`` instances of their puzzle (in the suite's
order), with their lowest seed; each other instance's task is recorded as not run (never
scored), so the report shows the pair as "k of n run". ``python -m bench.run.tiers --pilot``
derives the list from a pilot run.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def project_root() -> Path:
    """The folder holding ``instances/``: $PUZZLEBENCH_ROOT, the source checkout, or the cwd."""
    env = os.environ.get("PUZZLEBENCH_ROOT")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent.parent
    return here if (here / "instances").is_dir() else Path.cwd()


def instances_dir() -> Path:
    return project_root() / "instances"


def locate(path: str) -> Path:
    """An instance path of a run: as recorded when it exists from here, else under the
    project root (:func:`project_root`), where a run's relative paths start."""
    p = Path(path)
    if p.exists() or p.is_absolute():
        return p
    return project_root() / p


@dataclass(frozen=True)
class Tier:
    """A named part of a suite: its instance globs and how often each task runs."""

    name: str
    patterns: tuple[str, ...]
    repeats: int = 1
    #: this tier's time limit (None: the suite's)
    time_limit: float | None = None
    #: solver seeds every seeded solver runs on each task (deterministic solvers: once)
    seeds: int = 1
    #: the pairs (``PUZZLE:FORMULATION/SOLVER``) that run only on the first ``cap`` instances
    #: of their puzzle in this tier
    capped: tuple[str, ...] = ()
    cap: int = 0


@dataclass(frozen=True)
class Suite:
    name: str
    version: int
    description: str
    time_limit: float
    patterns: tuple[str, ...]
    #: the formulation selection a run of this suite uses when `--formulation` is not given
    #: (names or labels, as `--formulation` takes them); empty: every variant
    formulations: tuple[str, ...] = ()
    tiers: tuple[Tier, ...] = ()
    #: "default": only each formulation's default variant (when `--formulation` is not given)
    variants: str = "all"
    #: the solvers a run of this suite uses when `--solver` is not given; empty: every solver
    solvers: tuple[str, ...] = ()
    #: > 0: a tier's further repetitions run only where the first run answered in under
    #: this many seconds (noise matters there; a slow or unanswered task is not repeated)
    repeat_under: float = 0.0
    #: a pair that timed out on a generated instance is not run on the instances after it in
    #: its family and tier (larger, or the same size with a later seed), each recorded as a
    #: not-run timeout (:mod:`bench.run.ladder`)
    ladder_rule: bool = False
    #: the tiers the ladder rule holds in (empty: every tier); ``ladder_rule = ["ladder"]``
    ladder_tiers: tuple[str, ...] = ()
    #: earlier run folders (relative to the project root) a dry run estimates the time from
    #: when not given ``--estimate``
    estimate: tuple[str, ...] = ()

    def instances(self) -> list[str]:
        """Instance paths, relative to the cwd when inside it, in a stable order."""
        return list(self.tier_of())

    def tier_of(self) -> dict[str, str]:
        """Every instance path (as :meth:`instances`) -> its tier ("" in a suite without
        tiers); an instance in two tiers belongs to the first."""
        base = instances_dir()
        out: dict[str, str] = {}
        groups = [(t.name, t.patterns) for t in self.tiers] or [("", self.patterns)]
        for tier, patterns in groups:
            for pattern in patterns:
                matches = sorted(base.glob(pattern))
                if not matches:
                    raise FileNotFoundError(f"suite {self.name}: no instance matches {pattern!r}")
                for p in matches:
                    out.setdefault(_display(p), tier)
        return out

    def repeats_of(self) -> dict[str, int]:
        """Tier name -> how many times each of its tasks runs."""
        return {t.name: t.repeats for t in self.tiers}

    def seeds_of(self) -> dict[str, int]:
        """Tier name -> the solver seeds each seeded solver runs, for tiers that declare them."""
        return {t.name: t.seeds for t in self.tiers if t.seeds > 1}

    def caps_of(self) -> dict[str, tuple[int, frozenset[str]]]:
        """Tier name -> (cap, the capped pairs), for the tiers that cap some pair."""
        return {t.name: (t.cap, frozenset(t.capped)) for t in self.tiers if t.capped}

    def estimate_folders(self) -> tuple[str, ...]:
        """The suite's ``estimate`` run folders that exist here (absolute paths)."""
        root = project_root()
        return tuple(str(root / f) for f in self.estimate if (root / f).is_dir())

    def ladder_in(self) -> bool | frozenset[str]:
        """Where the ladder rule holds: False (nowhere), True (every tier) or those tiers."""
        if not self.ladder_rule:
            return False
        return frozenset(self.ladder_tiers) if self.ladder_tiers else True

    def limits_of(self) -> dict[str, float]:
        """Tier name -> its own time limit, for the tiers that set one."""
        return {t.name: t.time_limit for t in self.tiers if t.time_limit is not None}


def _display(p: Path) -> str:
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p.resolve())


def _tier(suite: str, name: str, v: dict[str, Any]) -> Tier:
    if "repeats" in v and "seeds" in v:
        raise ValueError(f"suite {suite}, tier {name}: declare `repeats` or `seeds`, not both")
    capped = tuple(str(p) for p in v.get("capped", ()))
    cap = int(v.get("cap", 0))
    bad = [p for p in capped if ":" not in p or "/" not in p]
    if bad:
        raise ValueError(f"suite {suite}, tier {name}: capped pair {bad[0]!r} is not "
                         "PUZZLE:FORMULATION/SOLVER")
    if capped and cap < 1:
        raise ValueError(f"suite {suite}, tier {name}: `capped` needs a `cap` of 1 or more")
    return Tier(name, tuple(v["instances"]), int(v.get("repeats", 1)),
                float(v["time_limit"]) if "time_limit" in v else None,
                int(v.get("seeds", 1)), capped, cap)


def _suite(name: str, s: dict[str, Any]) -> Suite:
    tiers = tuple(_tier(name, str(t), dict(v)) for t, v in dict(s.get("tiers", {})).items())
    rule = s.get("ladder_rule", False)
    ladder_tiers = tuple(str(t) for t in rule) if isinstance(rule, list) else ()
    unknown = set(ladder_tiers) - {t.name for t in tiers}
    if unknown:
        raise ValueError(f"suite {name}: ladder_rule names no tier {sorted(unknown)[0]!r}")
    patterns = tuple(s.get("instances", ())) or tuple(p for t in tiers for p in t.patterns)
    if not patterns:
        raise ValueError(f"suite {name}: no instances (an `instances` list or tiers)")
    variants = str(s.get("variants", "all"))
    if variants not in ("all", "default"):
        raise ValueError(f"suite {name}: variants must be 'all' or 'default', not {variants!r}")
    return Suite(name=name, version=int(s.get("version", 1)),
                 description=str(s.get("description", "")),
                 time_limit=float(s.get("time_limit", 60)), patterns=patterns,
                 formulations=tuple(s.get("formulations", ())), tiers=tiers,
                 variants=variants, solvers=tuple(s.get("solvers", ())),
                 repeat_under=float(s.get("repeat_under", 0.0)),
                 ladder_rule=bool(rule), ladder_tiers=ladder_tiers,
                 estimate=tuple(str(f) for f in s.get("estimate", ())))


def load_suites(path: Path | None = None) -> dict[str, Suite]:
    path = path or instances_dir() / "suites.toml"
    data = tomllib.loads(path.read_text())
    return {name: _suite(name, s) for name, s in data.items()}


def get_suite(name: str) -> Suite:
    suites = load_suites()
    if name not in suites:
        raise KeyError(f"unknown suite {name!r} (known: {', '.join(suites)})")
    return suites[name]


_SIZE = re.compile(r"-(\d+)x(\d+)-s(\d+)")


def family(path: str) -> tuple[str, tuple[int, int]] | None:
    """(family, rung) of a generated instance's path (``gen-...-RxC-sN...``: the files of one
    folder whose names differ only in size and seed; the ladder rule's unit), the rung being
    (cell count, seed): the instance's place in the family, smallest first and, within a size,
    by seed. None for any other file."""
    p = Path(path)
    m = _SIZE.search(p.name)
    if not p.name.startswith("gen-") or m is None:
        return None
    name = p.name[:m.start()] + "-*" + p.name[m.end():]
    return f"{p.parent.resolve()}/{name}", (int(m.group(1)) * int(m.group(2)), int(m.group(3)))
