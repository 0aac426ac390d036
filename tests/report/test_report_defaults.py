"""The report's defaults section, end to end: a run folder read as any run is (its journal),
Nurikabe's declared selector with its real rule and fallback pair, and the written summary.
The section must see the declined tasks (they tell where ``solve`` runs the fallback pair),
not only the tasks that ran."""

from __future__ import annotations

from pathlib import Path

from bench.records import Result, instance_digest
from bench.report import write_report
from bench.run.storage import Journal
from bench.select.auto import choose
from bench.select.features import of_file
from bench.select.rules import FALLBACK, ROBUST

LIMIT = 10.0
LOW, HIGH = ROBUST["nurikabe"].low, ROBUST["nurikabe"].high


def grid(size: int, clues: dict[tuple[int, int], int]) -> str:
    """A Nurikabe file of a ``size`` x ``size`` grid with the given clues."""
    cells = [[str(clues.get((r, c), ".")) for c in range(size)] for r in range(size)]
    return "puzzle: nurikabe\n\n" + "".join(" ".join(row) + "\n" for row in cells)


def result(path: Path, pair: str, outcome: str | float) -> Result:
    """One task's record on the file ``path`` (keyed by its content digest): a time in seconds
    (solved and checked), "timeout" or "skipped" (declined by its formulation)."""
    form, solver = pair.split(" / ")
    solved = not isinstance(outcome, str)
    seconds = float(outcome) if solved else (LIMIT if outcome == "timeout" else 0.0)
    status = "solved" if solved else str(outcome)
    return Result(key=f"{instance_digest(path)}|{pair}", puzzle="nurikabe", instance=path.stem,
                  instance_path=str(path), rows=12, cols=12, formulation=form,
                  kind="external" if solver == "external" else "sat", solver=solver,
                  solver_version="1", status=status,  # type: ignore[arg-type]
                  message="more than 3 clues" if status == "skipped" else "",
                  build_s=0.0, solve_s=seconds, wall_s=seconds + 0.2, start="fork",
                  host="here", exact=True, checked=True if solved else None,
                  time_limit=LIMIT, tier="hard", sample_id=f"{path.stem}-{form}")


def test_the_summary_counts_a_declined_pick_by_its_fallback_row(tmp_path: Path) -> None:
    assert FALLBACK["nurikabe"] == HIGH  # the rule's dense side is the fallback pair
    files = tmp_path / "hard"
    files.mkdir()
    two = files / "two.txt"  # 2 clues on 144 cells: picked low, which takes it
    two.write_text(grid(12, {(3, 3): 60, (8, 8): 40}))
    four = files / "four.txt"  # 4 clues on 144 cells: picked low, which declines it
    four.write_text(grid(12, {(1, 1): 30, (1, 10): 30, (10, 1): 30, (10, 10): 30}))
    dense = files / "dense.txt"  # 10 clues: picked high
    dense.write_text(grid(12, {(r, 1): 2 for r in range(0, 12, 2)}
                          | {(r, 10): 2 for r in range(0, 8, 2)}))
    rule = ROBUST["nurikabe"]
    picks = {p.stem: choose(rule, of_file(p)).pair for p in (two, four, dense)}
    assert picks == {"two": LOW, "four": LOW, "dense": HIGH}, picks
    run = tmp_path / "run"
    run.mkdir()
    Journal(run).extend([
        result(two, LOW, 1.0), result(four, LOW, "skipped"),
        result(two, HIGH, "timeout"), result(four, HIGH, 2.0), result(dense, HIGH, 3.0),
    ])
    write_report(run, tmp_path / "report")
    summary = (tmp_path / "report" / "summary.md").read_text()
    section = summary.split("### Declared defaults against the robust choice", 1)[1]
    line = next(x for x in section.splitlines() if x.startswith("- nurikabe:"))
    assert "the selector robust" in line, line
    # the pick answered all three: two by itself, four by the fallback's row, dense by HIGH
    assert f"1 instances' picks declined them and the fallback pair {HIGH}'s row" in line, line
    row = next(x for x in section.splitlines() if x.startswith("| nurikabe"))
    assert "3/3" in row, row
