"""sat-propagate's CaDiCaL presets (``cadical=...``), a lever measured on the few-clue Nurikabe:
each solves small instances to their .sol files with a unique count, and hands its options to
the propagator, which sets them on the solver it connects to."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from bench.backends import get_backend
from bench.instance import Instance, read_instance
from bench.models import SatModel
from bench.registry import get_formulation
from bench.solve import Solved, solve
from formulations.nurikabe.sat_propagate import SatPropagate

ROOT = Path(__file__).resolve().parents[2]
NURIKABE = ROOT / "instances" / "nurikabe"
SMALL = [NURIKABE / "gen-nurikabe-5x5-s1-0.txt", NURIKABE / "gen-nurikabe-7x7-s1-0.txt",
         NURIKABE / "seed-p02.txt", *sorted((NURIKABE / "two").glob("*8x8*.txt"))[:1]]
PRESETS = ("phase0", "forcephase0", "stable", "focused")


def solution(path: Path) -> list[list[str]]:
    return list(json.loads(path.with_suffix(".sol").read_text()))


def run(inst: Instance, label: str) -> Solved:
    form = get_formulation("nurikabe", label, ["sat"])
    return solve(inst, form, get_backend("cadical195"), time.perf_counter() + 60, count=2)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.stem)
def test_a_preset_solves_small_instances_uniquely(path: Path, preset: str) -> None:
    res = run(read_instance(path), f"sat-propagate[cadical={preset}]")
    assert res.status == "solved", res.message
    assert res.grid == solution(path)
    assert res.count == 1
    assert res.stats.effort["propagator_calls"] > 0


@pytest.mark.parametrize("preset", ("default", *PRESETS))
def test_the_preset_options_reach_the_propagator(preset: str) -> None:
    form = get_formulation("nurikabe", f"sat-propagate[cadical={preset}]", ["sat"])
    model = form.build(read_instance(SMALL[0]))
    assert isinstance(model, SatModel) and model.propagator is not None
    assert model.propagator.options == SatPropagate.presets[preset]
    assert bool(model.propagator.options) == (preset != "default")
