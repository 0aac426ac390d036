"""Finding and importing the built-in formulation modules, ``formulations/<puzzle>/<kind>_*.py``.

A module is imported on its own: one that raises at import (a missing optional dependency, a
syntax error, any exception) is logged in one line and skipped, the formulations it registered
before raising are removed from the table, and every other module loads as before. The line
names the exception and where it was raised (``file:line``); its full traceback is logged at
INFO level (``puzzlebench -v``). The :class:`Skipped` record keeps the reason and the
formulation names the module would have defined, read from its source with :mod:`ast` (never
by importing it), so that naming one of them says why it is unavailable (:func:`skip_reason`).

A module of a puzzle folder whose name starts with no model kind (``<kind>_``) nor ``_`` (a
private helper) is never imported: that is logged once per process, naming the file and the
allowed prefixes. This module names no registry: the table is handed in by
:mod:`bench.registry`, which re-exports what plugins and commands call.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import functools
import importlib
import importlib.util
import json
import logging
import pkgutil
import sys
import traceback
from collections.abc import Iterable, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.models import KINDS

log = logging.getLogger(__name__)

#: the package of the built-in formulations, declared by the group's ``builtin`` entry point and
#: loaded by folder and kind (the only place the harness names it)
BUILTIN = "formulations"


@dataclass(frozen=True)
class Skipped:
    """A formulation module that raised at import, and was left out."""

    #: a built-in module's file, relative to the project (``formulations/shikaku/sat_mine.py``);
    #: a plugin's module name
    path: str
    puzzle: str
    #: the formulation names (and aliases) it would have registered, read from its source
    names: tuple[str, ...]
    #: the exception, ``Type: message (FILE:LINE)``: where it was raised (:func:`where`)
    reason: str

    def line(self) -> str:
        return f"{self.path}: skipped ({self.reason})"


#: the modules that raised at import in this process, by module name (a plugin's: by module
#: and puzzle): each logged once
_skipped: dict[str, Skipped] = {}


def record_skip(skipped: Skipped) -> None:
    """Keep the record of a plugin module that failed to import (its loader logged it), the
    names of one puzzle's formulations it declares gathered in one record."""
    key = f"{skipped.path}:{skipped.puzzle}"
    if key in _skipped:
        names = tuple(dict.fromkeys(_skipped[key].names + skipped.names))
        skipped = dataclasses.replace(skipped, names=names)
    _skipped[key] = skipped


def skipped_state() -> str:
    """The records of the modules skipped so far in this process, as JSON, for a process it
    starts to take (:func:`adopt_skipped`); "" when there are none."""
    return json.dumps({k: dataclasses.asdict(s) for k, s in _skipped.items()}) if _skipped else ""


def adopt_skipped(state: str) -> None:
    """Take the records of the modules another process skipped and logged
    (:func:`skipped_state`): here they are neither imported nor logged again, and naming one of
    their formulations gives the same reason."""
    for key, record in json.loads(state).items():
        _skipped.setdefault(key, Skipped(**{**record, "names": tuple(record["names"])}))


def module_path(module: str) -> str:
    """``formulations.shikaku.sat_cover`` -> ``formulations/shikaku/sat_cover.py``."""
    return module.replace(".", "/") + ".py"


@functools.cache
def builtin_puzzles() -> list[str]:
    """The puzzle folders of the built-in formulations (``formulations/<puzzle>/``); read once
    per process (a forked task inherits its template's listing)."""
    package = importlib.import_module(BUILTIN)
    return [folder.name for folder in pkgutil.iter_modules(package.__path__) if folder.ispkg]


def kind_of(name: str) -> str | None:
    """The model kind a module name ``<kind>_<approach>`` starts with; None for any other."""
    return next((kind for kind in KINDS if name.startswith(kind + "_")), None)


@functools.cache
def builtin_module_names(puzzle: str) -> tuple[str, ...]:
    """The ``<kind>_*`` module names in ``formulations/<puzzle>/``, read once per process; any
    other module but a private ``_*`` helper is logged once (it would never be loaded)."""
    try:
        package = importlib.import_module(f"{BUILTIN}.{puzzle}")
    except ModuleNotFoundError:
        return ()
    names = [mod.name for mod in pkgutil.iter_modules(package.__path__)]
    for name in names:
        if kind_of(name) is None and not name.startswith("_"):
            log.warning("%s: never loaded: a formulation module's name starts with its model "
                        "kind (%s) or _ for a helper", module_path(f"{BUILTIN}.{puzzle}.{name}"),
                        ", ".join(f"{kind}_" for kind in KINDS))
    return tuple(name for name in names if kind_of(name) is not None)


def builtin_modules(puzzle: str, kinds: Iterable[str]) -> list[str]:
    """The built-in modules ``formulations/<puzzle>/<kind>_*.py`` of these kinds, not imported
    (their puzzle's package is), but those that failed to import in this process already (a
    fork-server template is not asked to import them again)."""
    kinds = set(kinds)
    return [module for name in builtin_module_names(puzzle) if kind_of(name) in kinds
            and (module := f"{BUILTIN}.{puzzle}.{name}") not in _skipped]


def import_builtin(module: str, table: MutableMapping[Any, Any],
                   fatal: tuple[type[Exception], ...] = ()) -> Skipped | None:
    """Import the built-in formulation module ``module`` (once; a module skipped before is not
    tried again). When it raises, the formulations it registered are removed from ``table``
    (the registry's, keyed by (puzzle, name), values the classes), one line is logged and the
    record returned; None when it imported. An exception of a ``fatal`` type (a formulation
    registered from the wrong file) is raised on, after the removal."""
    if module in _skipped:
        return _skipped[module]
    if module in sys.modules:
        return None
    before = set(table)
    try:
        importlib.import_module(module)
    except Exception as e:  # one broken module must not take its puzzle's others down
        # what the failed import registered: classes of modules that are not imported now
        # (the module itself, or one it imported that failed too), not a sibling it imported
        for key in [k for k in table if k not in before
                    and getattr(table[k], "__module__", module) not in sys.modules]:
            del table[key]
        sys.modules.pop(module, None)
        if isinstance(e, fatal):
            raise
        parts = module.split(".")
        skipped = Skipped(module_path(module), parts[1] if len(parts) > 2 else "",
                          declared_names(module), f"{type(e).__name__}: {e}{where(e, module)}")
        _skipped[module] = skipped
        log.warning("%s", skipped.line())
        log.info("%s failed to import:", skipped.path, exc_info=e)
        return skipped
    return None


def _origin(module: str) -> str | None:
    """The file of ``module`` (not imported), None when it has none or cannot be found."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    return spec.origin if spec else None


def where(e: BaseException, module: str) -> str:
    """Where the import of ``module`` raised ``e``, `` (FILE:LINE)``: the innermost frame of
    the traceback in the module's own file (named as :func:`module_path` does), else the
    innermost frame outside the import machinery (named relative to the working folder when
    under it); "" for a syntax error (its message names its file and line) or no frame."""
    if isinstance(e, SyntaxError):
        return ""
    frames = [f for f in traceback.extract_tb(e.__traceback__)
              if not f.filename.startswith("<frozen ")]
    origin = _origin(module)
    own = [f for f in frames if origin and f.filename == origin]
    if own:
        return f" ({module_path(module)}:{own[-1].lineno})"
    if not frames:
        return ""
    path = Path(frames[-1].filename)
    with contextlib.suppress(ValueError):
        path = path.relative_to(Path.cwd())
    return f" ({path}:{frames[-1].lineno})"


def declared_names(module: str) -> tuple[str, ...]:
    """The formulation names a module's source declares, without importing it: the string
    ``name`` and the keys of ``aliases`` of its classes (the ``@formulation``-decorated ones
    when it has any), else the name its file suggests (``sat_mine`` -> ``sat-mine``)."""
    stem = module.rsplit(".", 1)[-1]
    origin = _origin(module)
    try:
        tree = ast.parse(Path(origin).read_text()) if origin else None
    except (ValueError, OSError, SyntaxError):
        tree = None
    classes = [node for node in (tree.body if tree else []) if isinstance(node, ast.ClassDef)]
    decorated = [c for c in classes if any(_is_formulation(d) for d in c.decorator_list)]
    names: list[str] = []
    for cls in decorated or classes:
        for target, value in _assignments(cls):
            if target == "name" and isinstance(value, ast.Constant) and \
                    isinstance(value.value, str):
                names.append(value.value)
            elif target == "aliases" and isinstance(value, ast.Dict):
                names += [k.value for k in value.keys
                          if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    return tuple(dict.fromkeys(names)) or (stem.replace("_", "-"),)


def _is_formulation(decorator: ast.expr) -> bool:
    return (isinstance(decorator, ast.Name) and decorator.id == "formulation") or (
        isinstance(decorator, ast.Attribute) and decorator.attr == "formulation")


def _assignments(cls: ast.ClassDef) -> list[tuple[str, ast.expr]]:
    """The class body's ``target = value`` (annotated or not) with a plain name target."""
    out: list[tuple[str, ast.expr]] = []
    for node in cls.body:
        if isinstance(node, ast.Assign):
            out += [(t.id, node.value) for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and \
                node.value is not None:
            out.append((node.target.id, node.value))
    return out


def skipped(puzzle: str | None = None) -> list[Skipped]:
    """The modules skipped so far in this process, built-in and plugin (of ``puzzle``; None:
    of any)."""
    return [s for s in _skipped.values() if puzzle in (None, s.puzzle)]


def skip_reason_of(puzzle: str | None, name: str) -> str:
    """Why the formulation ``name`` of ``puzzle`` (None: of any puzzle) is unavailable when a
    skipped module would have defined it: ``'NAME' is unavailable: PATH failed to import
    (REASON)``; "" when no skipped module names it (this asks no module to load)."""
    for s in skipped(puzzle):
        if name in s.names or (s.path.endswith(".py") and name == Path(s.path).stem):
            return f"{name!r} is unavailable: {s.path} failed to import ({s.reason})"
    return ""
