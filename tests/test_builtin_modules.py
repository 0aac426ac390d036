"""Every built-in formulation module imports: one that raises at import is skipped at run time
(:mod:`bench.registry_load`), and its formulations would then just be missing from the tests
built from the registry (tests/test_conformance.py), so its skip fails here, with its reason.

Every kind is loaded: the optional dependencies of all of them (the ``cpmpy`` and ``peers``
extras) are installed wherever the test suite runs (``nox -s tests``)."""

from __future__ import annotations

from bench.models import KINDS
from bench.registry import BUILTIN, builtin_puzzles, load_builtin, skipped


def test_every_builtin_formulation_module_imports():
    for puzzle in builtin_puzzles():
        load_builtin(puzzle, KINDS)
    broken = [s.line() for s in skipped() if s.path.startswith(f"{BUILTIN}/")]
    assert broken == [], "built-in formulation modules failed to import:\n" + "\n".join(broken)
