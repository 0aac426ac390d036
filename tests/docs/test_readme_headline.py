"""The README's headline table says what the report says: each row (puzzle, tier, instances
and tasks not run, best pair, answered, its shifted geometric mean and interval, the
runner-up's factor, interval and label, the separable factor) is recomputed from the
committed run folder the README names, by the same code as `puzzlebench report`
(:func:`bench.report.verdicts.matrix`), and must agree to the README's rounding."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bench.report import identities, verdicts
from bench.report.data import load_run, prepare
from tests.docs._blocks import ROOT

RUN = "default-20261129-045741"  # run B, the table's run
HEADER = "| puzzle | tier (instances, not run) | best |"
PUZZLES = {"Nurikabe": "nurikabe", "Shakashaka": "shakashaka", "Shikaku": "shikaku",
           "Yin-Yang": "yinyang", "Fillomino": "fillomino"}
SOLVERS = {"CaDiCaL": "cadical195", "CP-SAT": "cpsat", "clingo": "clingo"}
# "asp-reach / clingo ≥ 3.48x [0.58–20.8], inconclusive", "cpsat-tree / CP-SAT answers 0 of 6,
# ≥ 12.1x, separated"; the report's: "≥ 3.48x [0.582–20.8] inconclusive: asp-reach[...] / clingo"
LEAD = re.compile(r"(?P<pair>.+?) (?:answers \d+ of \d+, )?(?P<ge>≥ )?(?P<numbers>\d.*), "
                  r"(?P<label>\w+)$")
COMPUTED_LEAD = re.compile(r"(?P<ge>≥ )?(?P<numbers>\d.*?) (?P<label>\w+): (?P<pair>.+)$")
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?")


def table() -> list[list[str]]:
    """The headline table's rows as cells, the puzzle filled down."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith(HEADER))
    rows, puzzle = [], ""
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        puzzle = cells[0] or puzzle
        rows.append([puzzle, *cells[1:]])
    return rows


def numbers(text: str) -> list[float]:
    return [float(x.replace(",", "")) for x in NUMBER.findall(text)]


def close(said: list[float], computed: list[float]) -> bool:
    """Equal to the README's rounding: three significant digits or fewer, so within 1 %."""
    return len(said) == len(computed) and all(
        abs(a - b) <= 0.01 * abs(b) for a, b in zip(said, computed, strict=True))


def pair_of(text: str) -> tuple[str, str | None]:
    """("formulation", "solver" or None) of a README pair: ``sat-lazy / CaDiCaL``,
    ``puzzlekit (the peer)``, ``puzzlekit``."""
    name, _, solver = text.partition(" / ")
    return name.split()[0], SOLVERS[solver.split()[0]] if solver else None


def same_pair(readme: str, computed: str) -> bool:
    name, solver = pair_of(readme)
    formulation, _, computed_solver = computed.partition(" / ")
    return formulation.split("[")[0] == name and solver in (None, computed_solver.strip())


@pytest.fixture(scope="module")
def computed() -> dict[Any, dict[Any, Any]]:
    t, _ = identities.apart(prepare(load_run(ROOT / "results" / RUN).df))
    df, _ = verdicts.matrix(t)
    return df.set_index(["puzzle", "tier"]).to_dict("index")


def test_the_table_names_its_run() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"results/{RUN}/" in text and len(table()) == 13


@pytest.mark.parametrize("row", table(), ids=lambda r: f"{r[0]}-{r[1].split()[0]}")
def test_a_row_is_what_the_report_computes(row: list[str],
                                           computed: dict[Any, dict[Any, Any]]) -> None:
    puzzle, tier_cell, best, answered, sgm, lead, separable = row
    tier, counts = tier_cell.split(" ", 1)
    got = computed[(PUZZLES[puzzle], tier)]
    assert numbers(counts) == [got["instances"], got["not run"]]
    assert same_pair(best, got["best"]), (best, got["best"])
    assert answered == got["answered"]
    assert close(numbers(sgm), numbers(got["sgm"])), (sgm, got["sgm"])
    assert sgm.split()[1] == got["sgm"].split()[1], (sgm, got["sgm"])  # the unit
    said = LEAD.match(lead)
    full = COMPUTED_LEAD.match(got["lead"])
    assert said and full, (lead, got["lead"])
    assert same_pair(said["pair"], full["pair"]), (lead, got["lead"])
    assert said["label"] == full["label"] and said["ge"] == full["ge"], (lead, got["lead"])
    factor = numbers(said["numbers"])
    assert factor and close(factor, numbers(full["numbers"])[:len(factor)]), (lead, got["lead"])
    assert close(numbers(separable), numbers(got["separable"])), (separable, got["separable"])
    assert (separable == verdicts.NONE_SEPARABLE) == (got["separable"] == verdicts.NONE_SEPARABLE)
