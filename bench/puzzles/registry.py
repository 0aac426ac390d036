"""The puzzle registry: one folder per puzzle under ``bench/puzzles/``.

A folder ``bench/puzzles/<puzzle>/`` is a puzzle. Its ``rules.py`` registers the
:class:`~bench.puzzles.base.Puzzle` subclass (:func:`register_puzzle`); its ``codec.py``
declares the puzz.link and janko.at formats (:func:`get_codec`); its generator, if any, is
``bench/generate/<puzzle>.py`` (read by :mod:`bench.generate`). Every module is imported on
first use, never at import time, so this module depends only on :mod:`bench.puzzles.base`.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from pathlib import Path
from types import ModuleType
from typing import Any

from bench.puzzles.base import Puzzle

PACKAGE = "bench.puzzles"
FOLDER = Path(__file__).resolve().parent

_PUZZLES: dict[str, Puzzle] = {}
_modules: dict[str, ModuleType | None] = {}


def register_puzzle(cls: type[Puzzle]) -> type[Puzzle]:
    """Class decorator: register a puzzle's rules; its name defaults to its folder's."""
    parts = cls.__module__.split(".")
    if not isinstance(getattr(cls, "name", None), str):
        if parts[:2] != PACKAGE.split(".") or len(parts) != 4:
            raise TypeError(f"{cls.__qualname__}: a puzzle outside bench/puzzles/<name>/ "
                            "needs a name")
        cls.name = parts[2]
    _PUZZLES[cls.name] = cls()
    return cls


def folders() -> list[str]:
    """The puzzle folders (each a puzzle), sorted."""
    return sorted(m.name for m in pkgutil.iter_modules([str(FOLDER)]) if m.ispkg)


def load_all(part: str) -> list[ModuleType]:
    """Import ``bench.puzzles.<folder>.<part>`` of every folder that has one, once."""
    out = []
    for name in folders():
        mod = load(name, part)
        if mod is not None:
            out.append(mod)
    return out


def load(folder: str, part: str) -> ModuleType | None:
    """``bench.puzzles.<folder>.<part>`` if that module exists, else None."""
    full = f"{PACKAGE}.{folder}.{part}"
    if full not in _modules:
        found = importlib.util.find_spec(full) is not None
        _modules[full] = importlib.import_module(full) if found else None
    return _modules[full]


def get_puzzle(name: str) -> Puzzle:
    """The rules of a puzzle by name; KeyError if unknown."""
    load_all("rules")
    return _PUZZLES[name]


def puzzle_names() -> list[str]:
    load_all("rules")
    return sorted(_PUZZLES)


def declared(part: str, attribute: str) -> list[Any]:
    """The ``attribute`` of every folder's ``part`` module that declares it (e.g. each
    ``codec.py``'s ``CODEC``), in folder order."""
    return [getattr(m, attribute) for m in load_all(part) if hasattr(m, attribute)]
