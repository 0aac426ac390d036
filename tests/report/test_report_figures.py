"""Figures that read: plain-number log ticks without minor labels, no log axis without positive
data, at most MAX_LINES coloured lines, the memory figure only where the peaks differ, and a
report where every task ran out of memory still renders its figures."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from bench.records import Result
from bench.report import figures, write_report
from bench.run.storage import Journal, consolidate


def _labels(ax, which: str) -> list[str]:
    fig = ax.figure
    fig.canvas.draw()
    axis = ax.xaxis if which == "x" else ax.yaxis
    lo, hi = (ax.get_xlim() if which == "x" else ax.get_ylim())
    major = [t.get_text() for t in axis.get_ticklabels() if t.get_text()
             and lo <= t.get_position()[0 if which == "x" else 1] <= hi]
    minor = [t.get_text() for t in axis.get_ticklabels(minor=True) if t.get_text()]
    return major + (["MINOR"] if minor else [])


def test_log_ticks_are_plain_numbers_and_never_minor_labels():
    plt = figures._plt()
    fig, ax = plt.subplots()
    ax.plot([1, 2], [3, 40])
    assert figures.log_axis(ax, "y", [3, 40])
    labels = _labels(ax, "y")
    assert "MINOR" not in labels and {"5", "10", "20"} <= set(labels)
    assert all("$" not in s and "×" not in s for s in labels)
    fig2, ax2 = plt.subplots()
    ax2.plot([1, 2], [1e-3, 30])
    figures.log_axis(ax2, "y", [1e-3, 30])
    assert set(_labels(ax2, "y")) >= {"0.001", "0.01", "0.1", "1", "10"}
    plt.close(fig)
    plt.close(fig2)


def test_no_log_axis_without_a_positive_value():
    plt = figures._plt()
    fig, ax = plt.subplots()
    assert not figures.log_axis(ax, "y", [float("nan"), 0.0])
    assert ax.get_yscale() == "linear"
    plt.close(fig)


def test_drawn_styles_never_repeat_a_colour():
    st = figures.styles(figures.MAX_LINES)
    assert len({s["color"] for s in st}) == figures.MAX_LINES
    assert len({s["marker"] for s in st}) == figures.MAX_LINES


def _tasks(pairs: dict[str, list[float]]) -> pd.DataFrame:
    rows = []
    for pair, peaks in pairs.items():
        rows += [{"pair": pair, "instance": f"i{i}", "peak_rss_mb": p}
                 for i, p in enumerate(peaks)]
    return pd.DataFrame(rows)


def test_the_memory_figure_only_where_the_peaks_differ(tmp_path: Path):
    same = _tasks({"a / x": [30, 31, 32], "b / y": [31, 33, 32]})
    assert figures.memory(same, ["a / x", "b / y"], tmp_path / "m.png") is None
    assert "no figure" in figures.memory_line(figures.memory_peaks(same, ["a / x", "b / y"]))
    differ = _tasks({"a / x": [30, 31, 32], "b / y": [300, 330, 320]})
    out = figures.memory(differ, ["a / x", "b / y"], tmp_path / "m.png")
    assert out is not None and out.stat().st_size > 5000
    line = figures.memory_line(figures.memory_peaks(differ, ["a / x", "b / y"]))
    assert "30 to 330 MB" in line and "no figure" not in line


def test_a_run_where_every_task_ran_out_of_memory_renders(tmp_path: Path):
    folder = tmp_path / "run"
    folder.mkdir()
    with open(Journal(folder).path, "w") as f:
        for i, (form, solver) in enumerate([("sat-a", "cadical195"), ("mip-a", "highs")] * 3):
            r = Result(key=f"nurikabe/x{i}.txt|{form}|{solver}|seed=0", puzzle="nurikabe",
                       instance=f"x{i // 2}", instance_path=f"x{i // 2}.txt", rows=5 + i,
                       cols=5 + i, formulation=form, kind=form.split("-")[0], solver=solver,
                       solver_version="1", status="memout", time_limit=10.0,
                       peak_rss_mb=None, base_rss_mb=None)
            f.write(json.dumps(r.to_dict()) + "\n")
    consolidate(folder)
    out = write_report(folder, tmp_path / "rep")
    for fig in ("cactus", "profile", "scaling", "scatter"):
        assert (out / f"nurikabe-{fig}.png").stat().st_size > 3000
    md = (out / "summary.md").read_text()
    assert "no best pair" in md and "No task recorded its peak memory." in md


@pytest.mark.parametrize("n", [3, 12])
def test_the_cactus_draws_at_most_max_lines_coloured(tmp_path: Path, n: int):
    rows = [{"pair": f"f{j} / s", "instance": f"i{i}", "ok": True, "time_s": 0.01 * (i + j + 1)}
            for j in range(n) for i in range(5)]
    path = figures.cactus(pd.DataFrame(rows), [f"f{j} / s" for j in range(n)], 10.0,
                          tmp_path / "c.png")
    assert path.stat().st_size > 5000
    fig = figures.cactus_figure(pd.DataFrame(rows), [f"f{j} / s" for j in range(n)], 10.0)
    ax = fig.axes[0]
    coloured = {ln.get_color() for ln in ax.get_lines()} - {figures.OTHERS, "0.4", "black"}
    assert len(coloured) == min(n, figures.MAX_LINES)
    ticks = [t for t in ax.get_xticks() if t >= 0]
    assert ticks and all(float(t).is_integer() for t in ticks)
    figures._plt().close(fig)


def test_a_pooled_cactus_draws_each_tiers_time_limit():
    rows = [{"pair": "f / s", "instance": f"i{i}", "ok": True, "time_s": 0.01 * (i + 1),
             "time_limit": 3.0 if i < 3 else 10.0, "tier": "ladder" if i < 3 else "hard"}
            for i in range(5)]
    fig = figures.cactus_figure(pd.DataFrame(rows), ["f / s"], 10.0)
    labels = [ln.get_label() for ln in fig.axes[0].get_lines() if ln.get_color() == "black"]
    assert labels == ["time limit 3 s (ladder)", "time limit 10 s (hard)"]
    figures._plt().close(fig)


def test_the_memory_line_says_which_pairs_its_range_covers():
    """The line's range is over the pairs shown (one best variant per formulation); the
    puzzle's other pairs (a second solver of the same model) are named with their own range,
    and one pair shown is not 'no pair differs'."""
    t = _tasks({"m / ortools": [85, 87, 92], "m / scip": [97, 161, 178]})
    line = figures.memory_line(figures.memory_peaks(t, ["m / ortools"]),
                               figures.memory_peaks(t, ["m / ortools", "m / scip"]))
    assert "m / ortools (the one pair shown): 85 to 92 MB, median 87 MB" in line
    assert "no pair differs" not in line
    assert "Over all 2 pairs: 85 to 178 MB, the pairs' medians 87 to 161 MB." in line
    both = figures.memory_line(figures.memory_peaks(t, ["m / ortools", "m / scip"]),
                               figures.memory_peaks(t, ["m / ortools", "m / scip"]))
    assert "85 to 178 MB" in both and "Over all" not in both
    # a third pair within the shown ones' numbers adds nothing
    t3 = _tasks({"m / ortools": [85, 87, 92], "m / scip": [97, 161, 178], "n / x": [90, 91]})
    same = figures.memory_line(figures.memory_peaks(t3, ["m / ortools", "m / scip"]),
                               figures.memory_peaks(t3, ["m / ortools", "m / scip", "n / x"]))
    assert "Over all" not in same
