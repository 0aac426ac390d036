"""A SAT model read into its assignment: plain Python for a small model (no numpy import),
numpy for a large one or once numpy is loaded; both give the same bytes."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from bench.backends import kinds
from bench.backends.kinds import SatAssignment
from tests.conftest import ROOT


def numpy_bits(model: list[int]) -> bytes:
    import numpy as np

    lits = np.fromiter(model, dtype=np.int64)
    truth = np.zeros(int(np.abs(lits).max(initial=0)) + 1, dtype=np.uint8)
    truth[lits[lits > 0]] = 1
    return truth.tobytes()


@pytest.mark.parametrize("n", [0, 1, 7, 1000, kinds.NUMPY_FROM + 5])
def test_both_readings_give_the_same_bytes(n, monkeypatch):
    rng = random.Random(n)
    model = [v if rng.random() < 0.5 else -v for v in range(1, n + 1)]
    rng.shuffle(model)
    want = numpy_bits(model)
    assert SatAssignment.of_model(model).bits == want
    monkeypatch.setattr(kinds, "NUMPY_FROM", 10**9)
    monkeypatch.delitem(sys.modules, "numpy")  # the plain-Python reading
    try:
        assert SatAssignment.of_model(iter(model)).bits == want
    finally:
        monkeypatch.undo()
    a = SatAssignment.of_model(model)
    assert all(a(lit) == 1.0 and a(-lit) == 0.0 for lit in model)  # each literal holds


def test_a_small_model_is_read_without_importing_numpy():
    code = ("import sys\nfrom bench.backends.kinds import SatAssignment\n"
            "a = SatAssignment.of_model([1, -2, 3, -5])\n"
            "print(a.bits.hex(), 'numpy' in sys.modules)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert p.stdout.split() == ["000100010000", "False"], p.stdout + p.stderr
