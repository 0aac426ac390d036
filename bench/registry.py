"""The plugin table: formulations (per puzzle) and solver backends (per model kind).

Adding a formulation is one module with one decorated class::

    from bench.registry import Formulation, formulation

    @formulation
    class MyCover(Formulation):
        puzzle = "shikaku"
        name = "cpsat-mine"
        kind = "cpsat"
        description = "one line saying what it encodes"

        def build(self, inst): ...
        def decode(self, inst, model, value): ...

Built-in formulations live in the ``formulations`` package; out-of-tree packages register
through the ``puzzlebench.formulations`` entry-point group (the entry point names a module
whose import runs the decorators).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import itertools
import logging
import pkgutil
import re
from collections.abc import Iterable
from typing import Any, ClassVar

from bench.instance import Instance
from bench.models import KINDS, Model, ModelKind, Value
from bench.puzzles import SolutionGrid

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "puzzlebench.formulations"


class Formulation:
    """A model of one puzzle for one model kind. Subclass, set the class attributes, decorate.

    ``parameters`` is the grid of options worth comparing: ``{"card": ["seqcounter", ...]}``;
    the first value of each is the default, and a run expands the whole grid.
    """

    puzzle: ClassVar[str]
    name: ClassVar[str]
    kind: ClassVar[ModelKind]
    description: ClassVar[str]
    #: the class default; a parameter value may change it (override :meth:`is_exact`)
    exact: ClassVar[bool] = True
    parameters: ClassVar[dict[str, list[Any]]] = {}
    #: iterative formulations set this and implement :meth:`separate`; a parameter value may
    #: change it (override :meth:`is_lazy`)
    lazy: ClassVar[bool] = False
    #: old names kept resolving: ``{"sat-tree": {"wall": "tree"}}`` makes ``sat-tree`` the name
    #: and the result label of that variant
    aliases: ClassVar[dict[str, dict[str, Any]]] = {}

    def __init__(self, **params: Any) -> None:
        unknown = set(params) - set(self.parameters)
        if unknown:
            raise ValueError(f"{self.name}: unknown parameter(s) {sorted(unknown)}")
        self.params = {k: v[0] for k, v in self.parameters.items()} | params
        for k, v in self.params.items():
            if v not in self.parameters[k]:
                raise ValueError(f"{self.name}: {k}={v!r} not one of {self.parameters[k]}")

    @property
    def label(self) -> str:
        for alias, params in self.aliases.items():
            if self.params == {k: v[0] for k, v in self.parameters.items()} | params:
                return alias
        return variant_label(self.name, self.params)

    def is_exact(self) -> bool:
        """Whether this variant always finds a solution when one exists."""
        return self.exact

    def is_lazy(self) -> bool:
        """Whether this variant adds cuts after solves (:meth:`separate`)."""
        return self.lazy

    def build(self, inst: Instance) -> Model:
        """Construct the model (timed as ``build_s``)."""
        raise NotImplementedError

    def decode(self, inst: Instance, model: Model, value: Value) -> SolutionGrid:
        """The solution grid from solver values."""
        raise NotImplementedError

    def block(self, inst: Instance, model: Model, grid: SolutionGrid) -> bool:
        """Counting: add a constraint that excludes ``grid``, projected onto the puzzle's cell
        values (auxiliary variables must not multiply solutions). Return False if this
        formulation cannot count."""
        return False

    def separate(self, inst: Instance, model: Model, value: Value) -> int:
        """Lazy formulations: add cuts excluding the defects of the current solution to
        ``model`` and return how many were added; 0 accepts the solution."""
        return 0


def variant_label(name: str, params: dict[str, Any]) -> str:
    if not params:
        return name
    return name + "[" + ",".join(f"{k}={v}" for k, v in params.items()) + "]"


_LABEL = re.compile(r"^(?P<name>[^\[\]]+)(?:\[(?P<params>[^\[\]]*)\])?$")


def parse_label(label: str) -> tuple[str, dict[str, str]]:
    """``"sat-cover[card=ladder]"`` -> ``("sat-cover", {"card": "ladder"})``."""
    m = _LABEL.match(label.strip())
    if not m:
        raise ValueError(f"malformed formulation name {label!r}")
    params: dict[str, str] = {}
    for part in filter(None, (m["params"] or "").split(",")):
        k, sep, v = part.partition("=")
        if not sep:
            raise ValueError(f"malformed parameter {part!r} in {label!r} (expected key=value)")
        params[k.strip()] = v.strip()
    return m["name"], params


# --- formulations -----------------------------------------------------------------------------

_FORMULATIONS: dict[tuple[str, str], type[Formulation]] = {}


def formulation(cls: type[Formulation]) -> type[Formulation]:
    """Class decorator: register a formulation in the plugin table."""
    for attr in ("puzzle", "name", "kind", "description"):
        if not isinstance(getattr(cls, attr, None), str):
            raise TypeError(f"{cls.__qualname__}: formulation needs a str class attribute {attr!r}")
    if cls.kind not in KINDS:
        raise TypeError(f"{cls.__qualname__}: kind {cls.kind!r} not one of {KINDS}")
    for name in (cls.name, *cls.aliases):
        key = (cls.puzzle, name)
        if key in _FORMULATIONS and _FORMULATIONS[key] is not cls:
            raise ValueError(f"formulation {cls.puzzle}/{name} registered twice")
        _FORMULATIONS[key] = cls
    return cls


_loaded = False


def load_plugins() -> None:
    """Import the built-in formulations and every ``puzzlebench.formulations`` entry point."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import formulations

    for folder in pkgutil.iter_modules(formulations.__path__):
        if folder.ispkg:
            load_builtin(folder.name, KINDS)
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        if ep.value == "formulations":
            continue
        try:
            ep.load()
        except Exception as e:  # a broken third-party plugin must not take the harness down
            log.warning("formulation plugin %s (%s) failed to load: %s", ep.name, ep.value, e)


def formulations(puzzle: str | None = None) -> list[type[Formulation]]:
    load_plugins()
    return [c for (p, n), c in sorted(_FORMULATIONS.items())
            if puzzle in (None, p) and n == c.name]


def load_builtin(puzzle: str, kinds: Iterable[str]) -> None:
    """Import just the built-in modules ``formulations/<puzzle>/<kind>_*.py`` (the naming the
    built-in plugins follow), so a task process carries only its own modelling layer (a SAT
    task does not import Pyomo): less start-up time and a truer peak memory."""
    try:
        package = importlib.import_module(f"formulations.{puzzle}")
    except ModuleNotFoundError:
        return
    for mod in pkgutil.iter_modules(package.__path__):
        if mod.name.split("_", 1)[0] in kinds:
            importlib.import_module(f"formulations.{puzzle}.{mod.name}")


def get_formulation(puzzle: str, label: str, kinds: Iterable[str] = ()) -> Formulation:
    """A configured formulation from ``name`` or ``name[key=value,...]``; KeyError/ValueError.
    With ``kinds`` (the solver's), built-in modules of those kinds are tried first."""
    name, _ = parse_label(label)
    if kinds:
        load_builtin(puzzle, kinds)
    if (puzzle, name) not in _FORMULATIONS:
        load_plugins()
    name, raw = parse_label(label)
    try:
        cls = _FORMULATIONS[(puzzle, name)]
    except KeyError:
        known = ", ".join(c.name for c in formulations(puzzle)) or "none"
        raise KeyError(f"no formulation {name!r} for {puzzle} (known: {known})") from None
    params: dict[str, Any] = dict(cls.aliases.get(name, {}))
    for k, v in raw.items():
        choices = cls.parameters.get(k, [])
        params[k] = next((c for c in choices if str(c) == v), v)
    return cls(**params)


def variants(cls: type[Formulation]) -> list[Formulation]:
    """Every point of a formulation's parameter grid."""
    keys = list(cls.parameters)
    return [cls(**dict(zip(keys, vals, strict=True)))
            for vals in itertools.product(*(cls.parameters[k] for k in keys))]


# --- fastest known pair per puzzle, used by `solve` without --formulation/--solver --------------
# Chosen from `nox -s bench` (see README, "Results"); update when a faster formulation lands.
# Shikaku: sat-cover and cpsat-cover are within 11 % on build + solve, but a SAT task process
# needs 0.08 s in all against 0.3 s for CP-SAT (importing OR-tools), so `solve` is faster so.
FASTEST: dict[str, tuple[str, str]] = {
    "shikaku": ("sat-cover", "cadical195"),
    "nurikabe": ("sat-lazy", "cadical195"),
}


def default_choice(puzzle: str) -> tuple[str, str]:
    load_plugins()
    if puzzle in FASTEST:
        return FASTEST[puzzle]
    from bench.backends import backends_for

    for cls in formulations(puzzle):
        for b in backends_for(cls.kind):
            if b.available() is None:
                return cls.name, b.name
    raise KeyError(f"no formulation registered for {puzzle}")
