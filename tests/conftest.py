from __future__ import annotations

import os
import sys
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = ROOT / "instances"
SHIKAKU_SEEDS = sorted((INSTANCES / "shikaku").glob("seed-*.txt"))


def plugin_package(root: Path, name: str, version: str, modules: dict[str, str],
                   entry_points: dict[str, str],
                   group: str = "puzzlebench.formulations") -> dict[str, str]:
    """An out-of-tree plugin distribution under ``root``, laid out as pip leaves one: the
    package (``name`` with underscores) holding ``modules`` (module name -> source) and its
    ``.dist-info`` with METADATA and the entry points of ``group`` (entry name -> object
    reference). Returns an environment with ``root`` and this project on PYTHONPATH."""
    pkg = name.replace("-", "_")
    (root / pkg).mkdir()
    (root / pkg / "__init__.py").write_text("")
    for module, text in modules.items():
        (root / pkg / f"{module}.py").write_text(text)
    dist = root / f"{pkg}-{version}.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (dist / "entry_points.txt").write_text(
        f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in entry_points.items()))
    return {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(root), str(ROOT), os.environ.get("PYTHONPATH", "")])}


def formulation_source(cls: str, name: str, build: str, *, kind: str = "sat",
                       description: str = "a test plugin") -> str:
    """The source of a plugin module defining one Shikaku formulation: class ``cls``
    registered as ``name`` of ``kind`` (``"sat"`` or ``"cpsat"``), whose ``build(self, inst)``
    body is ``build`` (its lines, unindented)."""
    model = {"sat": "SatModel", "cpsat": "CpsatModel"}[kind]
    body = "".join(f"        {line}\n" for line in build.strip().splitlines())
    return (f"from bench.models import {model}\n"
            "from bench.registry import Formulation, formulation\n\n\n"
            f"@formulation\nclass {cls}(Formulation[{model}]):\n"
            f'    puzzle = "shikaku"\n    name = "{name}"\n    kind = "{kind}"\n'
            f"    description = {description!r}\n\n"
            f"    def build(self, inst):\n{body}")


def _restore(table: MutableMapping[Any, Any], saved: dict[Any, Any], builtin: str,
             loaded: Any) -> None:
    """Put ``table`` back to ``saved`` in place (the same dict: modules that imported it keep
    seeing it), keeping what a loader registered meanwhile: an entry whose value's class comes
    from a module of the ``builtin`` package still imported, or from a module in ``loaded``
    (the modules the registry imported itself). Such a module is cached in ``sys.modules`` and
    in the loaders' flags, so a later load would not register it again: its first load stays."""
    for key, value in list(table.items()):
        if key in saved:
            continue
        module = (value if isinstance(value, type) else type(value)).__module__
        if not ((module.startswith(builtin + ".") and module in sys.modules)
                or module in loaded):
            del table[key]
    table.update(saved)


@pytest.fixture(autouse=True)
def clean_registries() -> Iterator[None]:
    """Every test leaves the formulation and puzzle registries as it found them: a class it
    registered (a throwaway, a plugin module it imported itself) is unregistered afterwards,
    and one it unregistered is put back. What the registries' own loaders registered during the
    test (a built-in module loaded on first use, a plugin they imported) stays, as do their
    loaded flags and caches, which therefore still describe the table. Registrations made at a
    test module's import or by a module- or session-scoped fixture precede this snapshot and
    stay too (such a fixture removes its own). The copies are shallow: a few hundred entries."""
    import bench.registry as formulations_registry
    from bench.puzzles import registry as puzzle_registry

    tables = [(formulations_registry._FORMULATIONS, formulations_registry.BUILTIN,
               lambda: formulations_registry._imported),
              (puzzle_registry._PUZZLES, puzzle_registry.PACKAGE,
               lambda: {k for k, v in puzzle_registry._modules.items() if v is not None})]
    saved = [dict(table) for table, _, _ in tables]
    yield
    for (table, builtin, loaded), before in zip(tables, saved, strict=True):
        _restore(table, before, builtin, loaded())


def assert_malformed(path: Path, line: int | None, needle: str) -> None:
    """Reading ``path`` fails with one line naming the file, the line (if any) and the
    problem, which contains ``needle``."""
    from bench.instance import InstanceError, read_instance

    with pytest.raises(InstanceError) as e:
        read_instance(path)
    msg = str(e.value)
    assert "\n" not in msg
    assert msg.startswith(f"{path}:{line}:" if line else f"{path}")
    assert needle in msg


@pytest.fixture
def write(tmp_path: Path):
    """Write a file under tmp_path and return its path."""

    def _write(name: str, content: str | bytes) -> Path:
        p = tmp_path / name
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content)
        return p

    return _write


def builtin_formulations(puzzle: str) -> list:
    """The puzzle's formulations from the ``formulations`` package only: the conformance test
    registers the README example (tests/examples) in the test process, and a task process would
    not find it."""
    from bench.registry import formulations

    return [c for c in formulations(puzzle) if c.__module__.startswith("formulations.")]


def usable_backends(kind: str) -> list:
    """The backends of a model kind that can run here (a solver whose package is missing, such
    as an optional CPMpy back-end, is left out, as ``puzzlebench check`` leaves it out)."""
    from bench.backends import backends_for

    return [b for b in backends_for(kind) if b.available() is None]
