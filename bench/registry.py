"""The plugin table of formulations (per puzzle); solver backends are :mod:`bench.backends`.

Adding a formulation is one module with one decorated class::

    from bench.models import CpsatModel
    from bench.registry import Formulation, formulation

    @formulation
    class MyCover(Formulation[CpsatModel]):
        puzzle = "shikaku"
        name = "cpsat-mine"
        kind = "cpsat"
        description = "one line saying what it encodes"

        def build(self, inst: Instance) -> CpsatModel: ...
        def decode(self, inst: Instance, model: CpsatModel, value: Value) -> SolutionGrid: ...

Built-in formulations live in ``formulations/<puzzle>/<kind>_<approach>.py``; a task imports
only the modules of its solver's kind, and a formulation defined anywhere else in the package is
an error at registration. Out-of-tree packages register through the ``puzzlebench.formulations``
entry-point group, one entry point per formulation: the NAME declares
``<puzzle>.<kind>.<formulation-name>`` and the value is the module whose import registers it, so
a task imports only the plugin module of its own formulation (`list` imports them all). A module
that registers something its entry points do not declare is logged and skipped.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar, cast

from bench.entrypoints import entry_points
from bench.instance import Instance
from bench.labels import (  # noqa: F401  (re-exported: the names plugins import)
    EVERY,
    close_matches,
    normal_label,
    normal_pair,
    parse_label,
    variant_label,
)
from bench.models import KINDS, Model, ModelKind, Value
from bench.puzzles import SolutionGrid
from bench.registry_load import (  # noqa: F401  (re-exported)
    BUILTIN,
    Skipped,
    builtin_modules,
    builtin_puzzles,
    import_builtin,
    record_skip,
    skip_reason_of,
    skipped,
)

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "puzzlebench.formulations"


M = TypeVar("M", bound=Model)


class Formulation(Generic[M]):
    """A model of one puzzle for one model kind. Subclass, set the class attributes, decorate.

    Parametrise the base with the kind's model class (``Formulation[CpsatModel]``) and ``build``,
    ``decode``, ``block`` and ``separate`` are typed for it: no ``isinstance`` asserts needed.

    ``parameters`` are the valid values of each option: ``{"card": ["seqcounter", ...]}``; the
    first value of each is the default. ``sweep`` is the part of that grid worth comparing: a
    run that names the formulation (or names none) expands it, ``NAME[*]`` (or ``run
    --all-variants``) the whole grid. ``sweep = None`` (the default) is the whole grid;
    ``{}`` the default variant alone; ``{"card": ["seqcounter", "totalizer"]}`` those values
    with every other parameter at its default.
    """

    puzzle: ClassVar[str]
    name: ClassVar[str]
    kind: ClassVar[ModelKind]
    description: ClassVar[str]
    #: the class default; a parameter value may change it (override :meth:`is_exact`)
    exact: ClassVar[bool] = True
    parameters: ClassVar[dict[str, list[Any]]] = {}
    sweep: ClassVar[dict[str, list[Any]] | None] = None
    #: iterative formulations set this and implement :meth:`separate`; a parameter value may
    #: change it (override :meth:`is_lazy`)
    lazy: ClassVar[bool] = False
    #: old names kept resolving: ``{"sat-tree": {"wall": "tree"}}`` makes ``sat-tree`` the name
    #: and the result label of that variant
    aliases: ClassVar[dict[str, dict[str, Any]]] = {}
    #: modules this formulation needs beyond the harness (external solvers: the peer package),
    #: imported lazily by it; when one cannot be imported it is listed as unavailable
    requires: ClassVar[tuple[str, ...]] = ()
    #: how to get them, shown with the reason (e.g. "pip install 'puzzlebench[peers]'")
    install_hint: ClassVar[str] = ""
    #: the distribution of the peer package whose solver it calls (another project's, which
    #: the report compares our best pair against; its version is the result's solver version
    #: and the result's ``origin``); None for our own formulation, whatever its kind
    peer: ClassVar[str | None] = None
    #: the solvers it runs on, when only some of its kind's can (a solver interface beyond
    #: the kind's, such as an IPASIR-UP propagator); empty: every solver of its kind
    solvers: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def available(cls) -> str | None:
        """None when usable here, else why not (`puzzlebench list` shows it, runs skip it)."""
        import importlib.util

        for module in cls.requires:
            try:
                found = importlib.util.find_spec(module) is not None
            except (ImportError, ValueError):
                found = False
            if not found:
                hint = f" ({cls.install_hint})" if cls.install_hint else ""
                return f"{module} is not installed{hint}"
        return None

    def setup(self) -> float | None:
        """One-time set-up of the solver in this process, before the time limit starts (an
        external package's warm-up solve); returns the seconds it took (the result's
        ``setup_s``, kept apart from build and solve), None when there is none."""
        return None

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

    def refuses(self, solver: str) -> str | None:
        """Why this variant does not run on ``solver`` (its tasks on it are ``skipped`` with
        this reason), None when it does: by default, a solver outside :attr:`solvers`."""
        if self.solvers and solver not in self.solvers:
            return f"runs only on {', '.join(self.solvers)}, not {solver}"
        return None

    def skip(self, inst: Instance) -> str | None:
        """Why this variant does not take ``inst`` at all (a task of it is then ``skipped``
        with this reason, not an error), None when it does. Called before :meth:`build`."""
        return None

    def predicted_size(self, inst: Instance) -> dict[str, int] | None:
        """The model's ``variables`` and ``constraints`` counted from the grid without building
        it, or None; recorded before the build so a task killed while building keeps them."""
        return None

    def build(self, inst: Instance) -> M:
        """Construct the model (timed as ``build_s``)."""
        raise NotImplementedError

    def decode(self, inst: Instance, model: M, value: Value) -> SolutionGrid:
        """The solution grid from solver values."""
        raise NotImplementedError

    def block(self, inst: Instance, model: M, grid: SolutionGrid) -> bool:
        """Counting: add a constraint that excludes ``grid``, projected onto the puzzle's cell
        values (auxiliary variables must not multiply solutions). Return False if this
        formulation cannot count (the default: counting then says to implement this)."""
        return False

    def separate(self, inst: Instance, model: M, value: Value) -> int:
        """Lazy formulations: add cuts excluding the defects of the current solution to
        ``model`` and return how many were added; 0 accepts the solution."""
        return 0


# --- formulations -----------------------------------------------------------------------------

_FORMULATIONS: dict[tuple[str, str], type[Formulation]] = {}
#: set while plugin modules are imported: every formulation registered then must be declared
_loading = False


class Unsupported(ValueError):
    """Raised by ``build`` when a variant cannot take this instance at all: the task is
    ``skipped`` with this message, as when :meth:`Formulation.skip` gives a reason (prefer
    ``skip``: it is asked before the build, and by ``puzzlebench check``)."""


class PluginError(TypeError):
    """A formulation registered from the wrong place (file name or entry point)."""


def formulation(cls: type[Formulation]) -> type[Formulation]:
    """Class decorator: register a formulation in the plugin table. A built-in formulation's
    ``puzzle`` and ``kind`` default to its place, ``formulations/<puzzle>/<kind>_*.py``, and its
    ``description`` to the first line of its docstring."""
    _fill_defaults(cls)
    for attr in ("puzzle", "name", "kind", "description"):
        if not isinstance(getattr(cls, attr, None), str):
            raise TypeError(f"{cls.__qualname__}: formulation needs a str class attribute {attr!r}")
    if cls.kind not in KINDS:
        raise TypeError(f"{cls.__qualname__}: kind {cls.kind!r} not one of {KINDS}")
    for k, values in (cls.sweep or {}).items():
        bad = [v for v in values if v not in cls.parameters.get(k, [])]
        if bad:
            raise TypeError(f"{cls.__qualname__}: sweep {k}={bad} not among its parameters "
                            f"{cls.parameters.get(k, [])}")
    _check_placement(cls)
    for name in (cls.name, *cls.aliases):
        key = (cls.puzzle, name)
        if key in _FORMULATIONS and _FORMULATIONS[key] is not cls:
            raise ValueError(f"formulation {cls.puzzle}/{name} registered twice")
        _FORMULATIONS[key] = cls
    return cls


def _fill_defaults(cls: type[Formulation]) -> None:
    parts = cls.__module__.split(".")
    if parts[0] == BUILTIN and len(parts) == 3:
        if not isinstance(getattr(cls, "puzzle", None), str):
            cls.puzzle = parts[1]
        if not isinstance(getattr(cls, "kind", None), str):
            cls.kind = cast(ModelKind, parts[2].split("_", 1)[0])
    if not isinstance(getattr(cls, "description", None), str) and cls.__doc__:
        cls.description = cls.__doc__.strip().splitlines()[0].strip()


def _check_placement(cls: type[Formulation]) -> None:
    """A built-in formulation lives in ``formulations/<puzzle>/<kind>_*.py`` and a plugin's is
    declared by its entry point: otherwise a task of it would not find it without importing
    every module (Pyomo included). Modules outside both (tests, scripts) may register freely."""
    parts = cls.__module__.split(".")
    if parts[0] == BUILTIN:
        if len(parts) != 3 or parts[1] != cls.puzzle or not parts[2].startswith(cls.kind + "_"):
            raise PluginError(
                f"{cls.__qualname__} ({cls.puzzle}, {cls.kind}) is defined in {cls.__module__};"
                f" a built-in formulation must be in formulations/{cls.puzzle}/{cls.kind}_*.py")
        return
    declared = {(p.puzzle, p.kind, p.name) for p in plugins() if p.module == cls.__module__}
    if (_loading or declared) and (cls.puzzle, cls.kind, cls.name) not in declared:
        names = ", ".join(".".join(d) for d in sorted(declared)) or "nothing"
        raise PluginError(f"{cls.__module__} registers {cls.puzzle}.{cls.kind}.{cls.name}, "
                          f"but its entry points declare {names}")


@dataclass(frozen=True)
class Plugin:
    """One ``puzzlebench.formulations`` entry point: ``<puzzle>.<kind>.<name> = module``."""

    puzzle: str
    kind: str
    name: str
    module: str
    #: the installed distribution that declares it ("" when unknown)
    distribution: str = ""


_plugins: list[Plugin] | None = None
_imported: set[str] = set()  # plugin modules imported (or given up on)


def plugins() -> list[Plugin]:
    """The declared out-of-tree formulations (entry points), without importing any of them."""
    global _plugins
    if _plugins is None:
        _plugins = []
        for ep in entry_points(ENTRY_POINT_GROUP):
            if ep.value == BUILTIN:  # the built-in package, loaded by folder and kind
                continue
            parts = ep.name.split(".", 2)
            if len(parts) != 3 or parts[1] not in KINDS or not all(parts):
                log.error("formulation plugin %s = %s skipped: the entry point name must be "
                          "<puzzle>.<kind>.<formulation-name>, kind one of %s",
                          ep.name, ep.value, "/".join(KINDS))
                continue
            dist = getattr(getattr(ep, "dist", None), "name", "") or ""
            _plugins.append(Plugin(parts[0], parts[1], parts[2], ep.value, dist))
    return _plugins


@contextmanager
def _loading_plugins() -> Iterator[None]:
    global _loading
    _loading = True
    try:
        yield
    finally:
        _loading = False


def load_entry_points(puzzle: str | None = None, kinds: Iterable[str] | None = None,
                      name: str | None = None) -> None:
    """Import the plugin modules whose entry points match; a failing or mismatching plugin is
    logged once and its registrations undone, and the harness goes on. Each entry point is
    judged on its own, a module declaring several included: it must register its
    formulation, for a puzzle that is registered."""
    wanted = None if kinds is None else set(kinds)
    for p in plugins():
        if (puzzle not in (None, p.puzzle) or name not in (None, p.name)
                or (wanted is not None and p.kind not in wanted)):
            continue
        if p.module not in _imported:
            _imported.add(p.module)
            before = dict(_FORMULATIONS)
            try:
                with _loading_plugins():
                    importlib.import_module(p.module)
            except Exception as e:  # a broken third-party plugin must not take the harness down
                _FORMULATIONS.clear()
                _FORMULATIONS.update(before)
                _judged.add(p.module)
                log.error("formulation plugin %s.%s.%s (%s) skipped: %s",
                          p.puzzle, p.kind, p.name, p.module, e)
                for q in plugins():  # what naming its formulations says
                    if q.module == p.module:
                        record_skip(Skipped(q.module, q.puzzle, (q.name,),
                                            f"{type(e).__name__}: {e}"))
                continue
        if p.module in _judged or p in _judged:
            continue
        _judged.add(p)
        _judge(p)


#: plugin entry points judged (and modules given up on) in this process: each logged once
_judged: set[Plugin | str] = set()


def _judge(p: Plugin) -> None:
    """Log why the imported plugin ``p`` registered nothing usable: no formulation under its
    name, or one for a puzzle no one registered (undone: no task could read its puzzle)."""
    from bench.puzzles import puzzle_names

    if _FORMULATIONS.get((p.puzzle, p.name)) is None:
        log.error("formulation plugin %s (%s) registered no formulation %s for %s",
                  p.module, p.kind, p.name, p.puzzle)
    elif p.puzzle not in puzzle_names():
        for key in [k for k, c in _FORMULATIONS.items()
                    if k[0] == p.puzzle and c.__module__ == p.module]:
            del _FORMULATIONS[key]
        log.error("formulation plugin %s.%s.%s (%s) skipped: no puzzle %r is registered "
                  "(known: %s)", p.puzzle, p.kind, p.name, p.module, p.puzzle,
                  ", ".join(puzzle_names()))


_all_loaded = False


def load_plugins() -> None:
    """Import every built-in formulation module and every plugin module (for `list`, runs)."""
    global _all_loaded
    if _all_loaded:
        return
    _all_loaded = True
    for puzzle in builtin_puzzles():
        load_builtin(puzzle, KINDS)
    load_entry_points()


def formulations(puzzle: str | None = None) -> list[type[Formulation]]:
    load_plugins()
    return [c for (p, n), c in sorted(_FORMULATIONS.items())
            if puzzle in (None, p) and n == c.name]


def registered() -> list[type[Formulation]]:
    """The formulations registered so far in this process (none loaded for the asking)."""
    return list(_FORMULATIONS.values())


def load_builtin(puzzle: str, kinds: Iterable[str]) -> None:
    """Import just the built-in modules ``formulations/<puzzle>/<kind>_*.py``, so a task
    process carries only its own modelling layer (a SAT task does not import Pyomo): less
    start-up time and a truer peak memory. A module that raises at import is logged once and
    skipped, its registrations undone (:mod:`bench.registry_load`); a formulation registered
    from the wrong file is an error."""
    for module in builtin_modules(puzzle, kinds):
        import_builtin(module, _FORMULATIONS, fatal=(PluginError,))


def skip_reason(puzzle: str | None, name: str) -> str:
    """Why the formulation ``name`` of ``puzzle`` (None: of any puzzle) is unavailable when its
    built-in module, or a plugin module tried already, failed to import (the module and the
    exception); "" otherwise. Every built-in module of the puzzle is tried first."""
    for p in [puzzle] if puzzle else builtin_puzzles():
        load_builtin(p, KINDS)
    return skip_reason_of(puzzle, name) or misdeclared(puzzle, name)


def misdeclared(puzzle: str | None, name: str) -> str:
    """Why the plugin formulation ``name`` is not one of ``puzzle``'s when an entry point
    declares it under a puzzle that is not known (``mine.sat.sat-direct`` for the puzzle
    ``mines``): the entry point, its distribution and the fix; "" otherwise. Such an entry
    point is never loaded for ``puzzle``, so nothing else would say why."""
    from bench.puzzles import puzzle_names

    if not puzzle:
        return ""
    known = set(puzzle_names())
    for p in plugins():
        if p.name == name and p.puzzle != puzzle and p.puzzle not in known:
            dist = f" (distribution {p.distribution})" if p.distribution else ""
            return (f"{name!r} is declared for no known puzzle: the entry point "
                    f"{p.puzzle}.{p.kind}.{p.name} = {p.module}{dist} names the puzzle "
                    f"{p.puzzle!r}, not {puzzle!r}; correct it in the plugin's pyproject.toml "
                    "and install it again (pip install -e .)")
    return ""


#: kinds tried one at a time when a formulation is named without a solver: cheapest import first
_LOAD_ORDER: tuple[ModelKind, ...] = ("sat", "asp", "cpsat", "mip", "external", "cpmpy")


def find_formulation(puzzle: str, name: str, kinds: Iterable[str] = ()) -> type[Formulation]:
    """The class registered as ``name`` (or an alias) for ``puzzle``, importing as little as
    possible: the given kinds' modules, else one kind at a time, else everything. A built-in
    formulation is found without reading the plugins' entry points (a plugin declaring the
    same name would be refused at registration)."""
    kinds = tuple(kinds)
    groups = ([list(kinds)] if kinds else []) + [[k] for k in _LOAD_ORDER if k not in kinds]
    for group in groups:
        try:
            load_builtin(puzzle, group)
            if (puzzle, name) in _FORMULATIONS:
                return _FORMULATIONS[(puzzle, name)]
            load_entry_points(puzzle, group, name)
        except ImportError as e:  # a kind whose solver cannot load into this process (OR-tools
            log.debug("not looking in %s formulations here: %s", group, e)  # beside highspy)
            continue
        if (puzzle, name) in _FORMULATIONS:
            return _FORMULATIONS[(puzzle, name)]
    try:
        load_plugins()  # an alias of a plugin formulation is known only once its module is loaded
    except ImportError as e:
        log.debug("not every plugin loads into this process: %s", e)
    try:
        return _FORMULATIONS[(puzzle, name)]
    except KeyError:
        if why := skip_reason(puzzle, name):
            raise KeyError(why) from None
        names = [n for (p, n) in _FORMULATIONS if p == puzzle]
        hint = close_matches(name, names)
        if not hint:
            elsewhere = sorted(p for (p, n) in _FORMULATIONS if n == name)
            hint = f" (it is a formulation of {', '.join(elsewhere)})" if elsewhere else ""
        known = ", ".join(c.name for c in formulations(puzzle)) or "none"
        raise KeyError(f"no formulation {name!r} for {puzzle}{hint}; known: {known}") from None


def get_formulation(puzzle: str, label: str, kinds: Iterable[str] = ()) -> Formulation:
    """A configured formulation from ``name`` or ``name[key=value,...]``; KeyError/ValueError.
    With ``kinds`` (the solver's), only modules of those kinds are imported if they suffice."""
    name, raw = parse_label(label)
    if raw == {EVERY: EVERY}:
        raise ValueError(f"{label!r} names every variant of {name}; name one "
                         f"(e.g. {name} for its default)")
    cls = find_formulation(puzzle, name, kinds)
    params: dict[str, Any] = dict(cls.aliases.get(name, {}))
    for k, v in raw.items():
        if k not in cls.parameters:
            raise ValueError(f"{cls.name}: no parameter {k!r}{close_matches(k, cls.parameters)}"
                             f"; its parameters: {', '.join(cls.parameters) or 'none'}")
        choices = cls.parameters[k]
        value = next((c for c in choices if str(c) == v), None)
        if value is None:
            hint = close_matches(v, map(str, choices))
            raise ValueError(f"{cls.name}: {k}={v!r} not one of "
                             f"{', '.join(map(str, choices))}{hint}")
        params[k] = value
    return cls(**params)


def plugin_of(cls: type[Formulation]) -> Plugin | None:
    """The entry point that declared ``cls`` (None for a built-in or test formulation)."""
    return next((p for p in plugins()
                 if p.module == cls.__module__ and (p.puzzle, p.name) == (cls.puzzle, cls.name)),
                None)
