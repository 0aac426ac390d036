"""Every CPMpy formulation variant passes `puzzlebench check` (solve, the unsatisfiable
instance, brute force on the tiny instances, counting, lazy rounds) on cpmpy:ortools, and is
registered with its rules' exactness; formulation modules import no cpmpy."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

from bench.backends import get_backend
from bench.check import check_variant
from bench.registry import formulations
from bench.variants import variants
from tests.conftest import ROOT

pytestmark = pytest.mark.skipif(importlib.util.find_spec("cpmpy") is None,
                                reason="cpmpy is not installed (the cpmpy extra)")

PUZZLES = ("fillomino", "nurikabe", "shakashaka", "shikaku", "yinyang")
CPMPY = [pytest.param(form, id=f"{cls.puzzle}/{form.label}")
         for cls in formulations() if cls.kind == "cpmpy" for form in variants(cls)]


def test_every_puzzle_has_an_exact_cpmpy_formulation():
    have = {cls.puzzle for cls in formulations() if cls.kind == "cpmpy" and cls.exact}
    assert have == set(PUZZLES)


@pytest.mark.parametrize("form", CPMPY)
def test_the_cpmpy_formulation_passes_check_on_ortools(form):
    results = list(check_variant(form, get_backend("cpmpy:ortools")))
    failed = [c.line() for c in results if c.status == "fail"]
    assert not failed, "\n".join(failed)
    assert any(c.status == "pass" for c in results)


def test_importing_the_cpmpy_formulations_imports_no_cpmpy():
    code = ("import sys\n"
            "from bench.registry import load_builtin\n"
            f"for p in {PUZZLES!r}:\n"
            "    load_builtin(p, ['cpmpy'])\n"
            "print('cpmpy' in sys.modules)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120, check=True)
    assert p.stdout.strip() == "False"


def test_every_cpmpy_formulation_takes_its_header_from_the_one_mixin():
    """Each CPMpy formulation needs ``cpmpy`` and names the extra through
    formulations._cpmpy.NeedsCpmpy, stating neither itself."""
    from formulations._cpmpy import INSTALL_HINT, NeedsCpmpy

    found = [cls for cls in formulations() if cls.kind == "cpmpy"]
    assert {cls.puzzle for cls in found} == set(PUZZLES)
    for cls in found:
        assert issubclass(cls, NeedsCpmpy), cls
        assert (cls.requires, cls.install_hint) == (("cpmpy",), INSTALL_HINT)
        assert "requires" not in vars(cls) and "install_hint" not in vars(cls), cls


def test_without_cpmpy_the_formulations_are_unavailable_with_the_install_hint():
    code = ("import sys\n"
            "sys.modules['cpmpy'] = None  # import cpmpy fails in this process\n"
            "from bench.registry import formulations\n"
            "for c in formulations():\n"
            "    if c.kind == 'cpmpy':\n"
            "        print(c.puzzle, c.available())\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120, check=True)
    lines = p.stdout.strip().splitlines()
    assert len(lines) == len(PUZZLES), p.stdout
    for line in lines:
        assert line.endswith("cpmpy is not installed (pip install 'puzzlebench[cpmpy]')"), line
