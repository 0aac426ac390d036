"""The puzzle registry: a puzzle is one package, found through an entry point.

Every puzzle is a Python package (a folder) declared in the entry-point group
``puzzlebench.puzzles``, one entry point per puzzle: the NAME is the puzzle's name and the value
its package (``mypuzzle = "my_package"``). The five built-in puzzles are the folders of
``bench/puzzles/`` and are declared there too; they are also found by folder, so an install
whose metadata predates the group still has them. The package's ``rules.py`` registers the
:class:`~bench.puzzles.base.Puzzle` subclass (:func:`register_puzzle`); the rest of the folder
(codec, picture, tiny boards, generator, check instances) is reached through the puzzle's hooks
(:meth:`~bench.puzzles.base.Puzzle.part` and friends). Every module is imported on first use,
never at import time, so this module depends only on :mod:`bench.puzzles.base`. A plugin whose
entry point is malformed, whose ``rules`` fails to import, or which registers another name is
logged and skipped: the harness goes on.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import pkgutil
from pathlib import Path
from types import ModuleType
from typing import Any

from bench.entrypoints import entry_points
from bench.puzzles.base import Puzzle

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "puzzlebench.puzzles"
PACKAGE = "bench.puzzles"
FOLDER = Path(__file__).resolve().parent

_PUZZLES: dict[str, Puzzle] = {}
_modules: dict[str, ModuleType | None] = {}
_packages: dict[str, str] | None = None


def register_puzzle(cls: type[Puzzle]) -> type[Puzzle]:
    """Class decorator: register a puzzle's rules. Its ``package`` is that of its module; a
    built-in puzzle's name defaults to its folder's, a plugin's must be set."""
    parts = cls.__module__.split(".")
    if not isinstance(getattr(cls, "name", None), str):
        if parts[:2] != PACKAGE.split(".") or len(parts) != 4:
            raise TypeError(f"{cls.__qualname__}: a puzzle outside bench/puzzles/<name>/ "
                            "needs a name")
        cls.name = parts[2]
    cls.package = ".".join(parts[:-1])
    _PUZZLES[cls.name] = cls()
    return cls


def folders() -> list[str]:
    """The built-in puzzle folders of ``bench/puzzles/`` (each a puzzle), sorted."""
    return sorted(m.name for m in pkgutil.iter_modules([str(FOLDER)]) if m.ispkg)


def packages() -> dict[str, str]:
    """Every puzzle's name and package: the built-in folders, then the entry points of
    :data:`ENTRY_POINT_GROUP` (one naming a taken puzzle with another package is skipped)."""
    global _packages
    if _packages is None:
        found = {name: f"{PACKAGE}.{name}" for name in folders()}
        for ep in entry_points(ENTRY_POINT_GROUP):
            if not ep.name.isidentifier() or not all(ep.value.split(".")):
                log.error("puzzle plugin %s = %s skipped: the name must be the puzzle's (an "
                          "identifier) and the value its package", ep.name, ep.value)
            elif found.setdefault(ep.name, ep.value) != ep.value:
                log.error("puzzle plugin %s = %s skipped: %s is already the puzzle of %s",
                          ep.name, ep.value, ep.name, found[ep.name])
        _packages = dict(sorted(found.items()))
    return _packages


def _package(name: str) -> str | None:
    """The package of puzzle ``name``: a built-in folder's without reading the entry points
    (a plugin naming a built-in puzzle is skipped by :func:`packages` anyway), else the
    plugin's."""
    if _packages is None and (FOLDER / name / "__init__.py").is_file() and name.isidentifier():
        return f"{PACKAGE}.{name}"
    return packages().get(name)


def load(name: str, part: str) -> ModuleType | None:
    """The module ``<package of puzzle name>.<part>`` if it exists, else None; a plugin's
    module that fails to import is logged and counts as absent."""
    package = _package(name)
    if package is None:
        return None
    full = f"{package}.{part}"
    if full not in _modules:
        _modules[full] = None
        try:
            if importlib.util.find_spec(full) is not None:
                _modules[full] = importlib.import_module(full)
        except Exception as e:
            if package.startswith(PACKAGE + "."):
                raise
            log.error("puzzle plugin %s: %s skipped: %s", name, full, e)
    return _modules[full]


def load_all(part: str) -> list[ModuleType]:
    """Import ``<package>.<part>`` of every puzzle that has one, once."""
    out = []
    for name in packages():
        mod = load(name, part)
        if mod is not None:
            out.append(mod)
    return out


def _load_rules() -> None:
    for name, package in packages().items():
        if name not in _PUZZLES and f"{package}.rules" not in _modules:
            before = set(_PUZZLES)
            load(name, "rules")
            for other in set(_PUZZLES) - before - {name}:
                log.error("puzzle plugin %s: %s.rules registered %s, not declared: skipped",
                          name, package, other)
                del _PUZZLES[other]
            if name not in _PUZZLES:
                log.error("puzzle plugin %s: %s.rules registered no puzzle named %s", name,
                          package, name)


def get_puzzle(name: str) -> Puzzle:
    """The rules of a puzzle by name; KeyError if unknown. A built-in puzzle's rules are
    loaded alone (no other puzzle's rules, no entry points read)."""
    if name not in _PUZZLES and _packages is None and name in folders():
        load(name, "rules")
    if name not in _PUZZLES:
        _load_rules()
    return _PUZZLES[name]


def puzzle_names() -> list[str]:
    _load_rules()
    return sorted(_PUZZLES)


def declared(part: str, attribute: str) -> list[Any]:
    """The ``attribute`` of every puzzle's ``part`` module that declares it (e.g. each
    ``codec.py``'s ``CODEC``), in name order."""
    return [getattr(m, attribute) for m in load_all(part) if hasattr(m, attribute)]
