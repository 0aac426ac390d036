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

Every problem of the file (not UTF-8, not TOML, an unknown field, a value of the wrong type or
out of its range, an unsupported glob) is a :class:`SuitesFileError` (a ``ValueError``) whose
one line names the file as read, the suite (and tier), the field, what it must be and what it
is; the checks are the tables :data:`SUITE_FIELDS` and :data:`TIER_FIELDS`, applied where the
file is read (:func:`load_suites`). A missing file is a ``FileNotFoundError`` naming it.
"""

from __future__ import annotations

import math
import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

from bench.bounds import MAX_INT64, MAX_RUNS


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
    #: the suites file this suite was read from, as read ("" when not read from a file)
    source: str = field(default="", repr=False, compare=False)

    def instances(self) -> list[str]:
        """Instance paths, relative to the cwd when inside it, in a stable order."""
        return list(self.tier_of())

    def tier_of(self) -> dict[str, str]:
        """Every instance path (as :meth:`instances`) -> its tier ("" in a suite without
        tiers); an instance in two tiers belongs to the first."""
        base = instances_dir()
        out: dict[str, str] = {}
        groups = [(t.name, t.patterns) for t in self.tiers] or [("", self.patterns)]
        where = f"{self.source}: suite {self.name}" if self.source else f"suite {self.name}"
        for tier, patterns in groups:
            for pattern in patterns:
                try:
                    matches = sorted(base.glob(pattern))
                except (ValueError, NotImplementedError) as e:  # a glob the checks let through
                    raise SuitesFileError(f"{where}: instances glob {pattern!r} is not "
                                          f"supported: {e}") from None
                if not matches:
                    raise FileNotFoundError(f"{where}: no instance matches {pattern!r}")
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


class SuitesFileError(ValueError):
    """A problem of the suites file, in one line: the file as read, the suite (and tier), the
    field, what it must be and what it is."""


#: a field's check: (what it must be, the types its value may have, the range the value must
#: lie in (None: any), the type of every item of a list or table value (None: no check))
Field = tuple[str, tuple[type, ...], Callable[[Any], bool] | None, type | None]

_GLOBS: Field = ("a non-empty list of glob strings", (list,), lambda v: len(v) > 0, str)
_SECONDS: Field = ("a positive finite number of seconds", (int, float),
                   lambda v: 0 < v < math.inf, None)
#: a suite's ``version`` and a tier's ``cap`` are written into the run's environment record:
#: they are held to the integers the project records (:data:`bench.bounds.MAX_INT64`, a
#: results table's signed 64-bit int), so every reader of the record takes them as one int
_VERSION: Field = (f"an integer, 1 .. {MAX_INT64}", (int,), lambda v: 1 <= v <= MAX_INT64, None)
_CAP: Field = (f"an integer, 0 .. {MAX_INT64}", (int,), lambda v: 0 <= v <= MAX_INT64, None)
#: the runs of each task of a tier (:data:`bench.bounds.MAX_RUNS`, as ``run --repeat`` and
#: ``--seeds`` take them)
_RUNS: Field = (f"an integer, 1 .. {MAX_RUNS} (every run of every task is planned before any "
                "starts)", (int,), lambda v: 1 <= v <= MAX_RUNS, None)

#: the fields of a suite (``[NAME]``), the ranges as the CLI's options take them
SUITE_FIELDS: dict[str, Field] = {
    "version": _VERSION,
    "description": ("a string", (str,), None, None),
    "time_limit": _SECONDS,
    "instances": _GLOBS,
    "tiers": ("a table of tier tables ([SUITE.tiers.TIER])", (dict,), None, dict),
    "formulations": ("a list of formulation labels (strings)", (list,), None, str),
    "variants": ("'all' or 'default'", (str,), lambda v: v in ("all", "default"), None),
    "solvers": ("a list of solver names (strings)", (list,), None, str),
    "repeat_under": ("a finite number of seconds, 0 or more (0: no gate)", (int, float),
                     lambda v: 0 <= v < math.inf, None),
    "ladder_rule": ("true, false or a list of tier names", (bool, list), None, str),
    "estimate": ("a list of run folders (strings)", (list,), None, str),
}
#: the fields of a tier (``[SUITE.tiers.TIER]``)
TIER_FIELDS: dict[str, Field] = {
    "instances": _GLOBS,
    "time_limit": _SECONDS,
    "repeats": _RUNS,
    "seeds": _RUNS,
    "cap": _CAP,
    "capped": ("a list of PUZZLE:FORMULATION/SOLVER strings", (list,), None, str),
}


def _kind(v: Any) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a float", str: "a string",
             list: "a list", dict: "a table"}
    return names.get(type(v), f"a {type(v).__name__}")


def _value(v: Any) -> str:
    """``v`` as the file writes it, shortened."""
    text = ("true" if v else "false") if isinstance(v, bool) else repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def _found(v: Any) -> str:
    return _kind(v) if isinstance(v, dict) else f"{_kind(v)}: {_value(v)}"


def _checked(where: str, table: dict[str, Any], fields: dict[str, Field]) -> dict[str, Any]:
    """``table`` when every key is one of ``fields`` and every value passes its check; else a
    :class:`SuitesFileError` naming ``where`` and the first bad field."""
    for key, v in table.items():
        if key not in fields:
            raise SuitesFileError(f"{where}: unknown field {key!r} (known: {', '.join(fields)})")
        expected, types, ok, items = fields[key]
        if not isinstance(v, types) or (isinstance(v, bool) and bool not in types):
            raise SuitesFileError(f"{where}: {key} must be {expected}, not {_found(v)}")
        if items is not None and isinstance(v, list | dict):
            bad = [x for x in (v.values() if isinstance(v, dict) else v)
                   if not isinstance(x, items)]
            if bad:
                raise SuitesFileError(f"{where}: {key} must be {expected}, not "
                                      f"{_kind(v)} holding {_found(bad[0])}")
        if ok is not None and not ok(v):
            raise SuitesFileError(f"{where}: {key} must be {expected}, not {_value(v)}")
    for pattern in table.get("instances", ()):
        if why := _unsupported(pattern):
            raise SuitesFileError(f"{where}: instances glob {pattern!r} {why}")
    return table


def _unsupported(pattern: str) -> str:
    """Why ``pattern`` is no glob under the instances folder ("" when it is one)."""
    if not pattern:
        return "is empty"
    if PurePosixPath(pattern).is_absolute() or PureWindowsPath(pattern).anchor:
        return "is absolute: globs are relative to the instances folder"
    if any("**" in part and part != "**" for part in pattern.split("/")):
        return "is not supported: '**' must be a whole path component"
    if ".." in pattern.replace("\\", "/").split("/"):
        return "leaves the instances folder ('..'): globs are relative to it"
    return ""


def _tier(suite: str, name: str, v: dict[str, Any]) -> Tier:
    where = f"{suite}, tier {name}"
    v = _checked(where, v, TIER_FIELDS)
    if "instances" not in v:
        raise SuitesFileError(f"{where}: instances is missing ({_GLOBS[0]})")
    if "repeats" in v and "seeds" in v:
        raise SuitesFileError(f"{where}: declare `repeats` or `seeds`, not both")
    capped = tuple(v.get("capped", ()))
    cap = v.get("cap", 0)
    bad = [p for p in capped if ":" not in p or "/" not in p]
    if bad:
        raise SuitesFileError(f"{where}: capped pair {bad[0]!r} is not PUZZLE:FORMULATION/SOLVER")
    if capped and cap < 1:
        raise SuitesFileError(f"{where}: `capped` needs a `cap` of 1 or more")
    return Tier(name, tuple(v["instances"]), v.get("repeats", 1),
                float(v["time_limit"]) if "time_limit" in v else None,
                v.get("seeds", 1), capped, cap)


def _suite(source: str, name: str, s: Any) -> Suite:
    where = f"{source}: suite {name}"
    if not isinstance(s, dict):
        raise SuitesFileError(f"{where} must be a table ([{name}] and its fields), not "
                              f"{_found(s)}")
    s = _checked(where, s, SUITE_FIELDS)
    tiers = tuple(_tier(where, str(t), v) for t, v in s.get("tiers", {}).items())
    if "instances" in s and tiers:
        raise SuitesFileError(f"{where}: declare `instances` or `tiers`, not both (a tiered "
                              "suite's instances are its tiers')")
    rule = s.get("ladder_rule", False)
    ladder_tiers = tuple(rule) if isinstance(rule, list) else ()
    unknown = set(ladder_tiers) - {t.name for t in tiers}
    if unknown:
        raise SuitesFileError(f"{where}: ladder_rule names no tier {sorted(unknown)[0]!r}")
    patterns = tuple(s.get("instances", ())) or tuple(p for t in tiers for p in t.patterns)
    if not patterns:
        raise SuitesFileError(f"{where}: no instances (an `instances` list or tiers)")
    return Suite(name=name, version=s.get("version", 1), description=s.get("description", ""),
                 time_limit=float(s.get("time_limit", 60)), patterns=patterns,
                 formulations=tuple(s.get("formulations", ())), tiers=tiers,
                 variants=s.get("variants", "all"), solvers=tuple(s.get("solvers", ())),
                 repeat_under=float(s.get("repeat_under", 0.0)),
                 ladder_rule=bool(rule), ladder_tiers=ladder_tiers,
                 estimate=tuple(s.get("estimate", ())), source=source)


def load_suites(path: Path | None = None) -> dict[str, Suite]:
    """The suites of ``path`` (default: the project's ``instances/suites.toml``) by name;
    raises :class:`SuitesFileError` for any problem of the file, ``FileNotFoundError`` (naming
    it) when there is none."""
    path = path or instances_dir() / "suites.toml"
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise FileNotFoundError(f"no suites file: {path} not found") from None
    except OSError as e:
        raise SuitesFileError(f"{path}: cannot read the file: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise SuitesFileError(f"{path}: not UTF-8 text (byte 0x{e.object[e.start]:02x} at "
                              f"offset {e.start})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SuitesFileError(f"{path}: not valid TOML: {str(e).splitlines()[0]}") from None
    return {name: _suite(str(path), name, s) for name, s in data.items()}


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
