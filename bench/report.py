"""Reports from a run folder: a Markdown summary and an HTML page with figures.

The building blocks are separate so richer reports can reuse them: :func:`task_times` (one
row per task with the time a report compares), :func:`summary` (formulation x solver per
puzzle), :func:`scaling` (log-log growth of time with cells) and :func:`figures`.
"""

from __future__ import annotations

import html
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from bench.storage import load_environment, load_results

#: shift of the shifted geometric mean, in seconds (as in Mittelmann's benchmarks, scaled down:
#: the tasks here take milliseconds to a minute)
SGM_SHIFT_S = 1.0
SOLVED = ("solved", "infeasible")  # a correct answer either way


def task_times(df: pd.DataFrame) -> pd.DataFrame:
    """Add ``time_s``: build + solve for tasks that answered, the time limit otherwise (PAR1)."""
    out = df.copy()
    answered = out["status"].isin(SOLVED)
    own = out["build_s"].fillna(0) + out["solve_s"].fillna(0)
    out["time_s"] = np.where(answered, own, out["time_limit"])
    out["cells"] = out["rows"] * out["cols"]
    return out


def sgm(values: pd.Series, shift: float = SGM_SHIFT_S) -> float:
    v = values.dropna().astype(float)
    if v.empty:
        return math.nan
    return float(np.exp(np.mean(np.log(v + shift))) - shift)


def summary(df: pd.DataFrame) -> pd.DataFrame:
    """Per puzzle, formulation and solver: outcomes, median and SGM time, peak memory."""
    t = task_times(df[df["formulation"] != "-"])
    rows = []
    for (puzzle, form, solver), g in t.groupby(["puzzle", "formulation", "solver"], sort=True):
        counts = g["status"].value_counts()
        rows.append({
            "puzzle": puzzle,
            "formulation": form,
            "solver": solver,
            "tasks": len(g),
            "solved": int(counts.get("solved", 0)),
            "infeasible": int(counts.get("infeasible", 0)),
            "timeout": int(counts.get("timeout", 0)) + int(counts.get("memout", 0)),
            "wrong": int(counts.get("wrong", 0)),
            "error": int(counts.get("error", 0)),
            "median_s": float(g["time_s"].median()),
            "sgm_s": sgm(g["time_s"]),
            "max_s": float(g["time_s"].max()),
            "build_median_s": float(g["build_s"].median()),
            "wall_median_s": float(g["wall_s"].median()),
            "peak_rss_mb": float(g["peak_rss_mb"].max()),
        })
    s = pd.DataFrame(rows)
    if s.empty:
        return s
    best = s.groupby("puzzle")["sgm_s"].transform("min")
    s["x_best"] = s["sgm_s"] / best.where(best > 0)
    return s.sort_values(["puzzle", "sgm_s"]).reset_index(drop=True)


def leaders(s: pd.DataFrame) -> pd.DataFrame:
    """Per puzzle and formulation (all variants), its best variant x solver by SGM time: the
    short answer to "which formulation wins, and by how much"."""
    if s.empty:
        return s
    t = s.assign(family=s["formulation"].str.split("[").str[0])
    best = t.loc[t.groupby(["puzzle", "family"])["sgm_s"].idxmin()]
    cols = ["puzzle", "formulation", "solver", "tasks", "solved", "timeout", "sgm_s", "median_s",
            "max_s", "x_best"]
    return best.sort_values(["puzzle", "sgm_s"])[cols].reset_index(drop=True)


def overhead(df: pd.DataFrame) -> pd.DataFrame:
    """Per model kind: the task process's cost beyond build + solve (interpreter start,
    imports, the solver's import, writing the result), median and max over answered tasks."""
    t = df[df["status"].isin(SOLVED)]
    extra = t["wall_s"] - t["build_s"].fillna(0) - t["solve_s"].fillna(0)
    g = extra.groupby(t["kind"])
    return pd.DataFrame({"kind": list(g.groups), "median_s": g.median().values,
                         "max_s": g.max().values, "tasks": g.size().values})


def per_instance(df: pd.DataFrame, patterns: list[str]) -> pd.DataFrame:
    """Formulation x solver against the instances whose name matches one of ``patterns``
    (fnmatch): build + solve seconds where solved, the status otherwise."""
    from fnmatch import fnmatch

    t = task_times(df[df["instance"].map(lambda n: any(fnmatch(n, p) for p in patterns))])
    if t.empty:
        return pd.DataFrame()
    t["cell"] = [f"{v:.4f}" if st == "solved" else st for v, st in zip(t["time_s"], t["status"],
                                                                     strict=True)]
    table = t.pivot_table(index=["puzzle", "formulation", "solver"], columns="instance",
                          values="cell", aggfunc="first").reset_index()
    table.columns.name = None
    return table


def scaling(df: pd.DataFrame) -> pd.DataFrame:
    """Per puzzle and formulation x solver: slope of log(time) against log(cells), over solved
    tasks on at least two instance sizes (a slope of 1 is linear growth in cells)."""
    t = task_times(df[df["status"] == "solved"])
    rows = []
    for (puzzle, form, solver), g in t.groupby(["puzzle", "formulation", "solver"]):
        g = g[g["time_s"] > 0]
        if g["cells"].nunique() < 2:
            continue
        slope = float(np.polyfit(np.log(g["cells"]), np.log(g["time_s"]), 1)[0])
        rows.append({"puzzle": puzzle, "formulation": form, "solver": solver,
                     "sizes": int(g["cells"].nunique()), "slope": slope})
    return pd.DataFrame(rows)


def figures(df: pd.DataFrame, out: Path) -> list[Path]:
    """One figure per puzzle: time per instance for every formulation x solver (log scale)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import seaborn as sns

    t = task_times(df[df["formulation"] != "-"])
    t["pair"] = t["formulation"] + " / " + t["solver"]
    paths = []
    for puzzle, g in t.groupby("puzzle"):
        order = g.groupby("pair")["time_s"].median().sort_values().index
        height = max(3.0, 0.28 * len(order) + 1.5)
        fig, ax = plt.subplots(figsize=(9, height))
        sns.stripplot(data=g, y="pair", x="time_s", hue="instance", order=order, ax=ax,
                      size=6, jitter=False, orient="h")
        ax.set_xscale("log")
        ax.set_xlabel("build + solve time [s] (time limit for unsolved)")
        ax.set_ylabel("")
        ax.set_title(f"{puzzle}: time per instance")
        ax.grid(axis="x", which="both", alpha=0.3)
        ax.legend(title="instance", fontsize=8, loc="lower right")
        fig.tight_layout()
        path = out / f"{puzzle}-times.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)
    return paths


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        if math.isnan(v):
            return "–"
        return f"{v:.3g}" if abs(v) < 1000 else f"{v:.0f}"
    return str(v)


def markdown_table(df: pd.DataFrame) -> str:
    cols = list(df.columns)
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for _, row in df.iterrows():
        lines.append("| " + " | ".join(_fmt(row[c]) for c in cols) + " |")
    return "\n".join(lines)


SUMMARY_COLUMNS = ["formulation", "solver", "tasks", "solved", "infeasible", "timeout", "wrong",
                   "error", "median_s", "sgm_s", "x_best", "build_median_s", "wall_median_s",
                   "peak_rss_mb"]


def write_report(run_dir: str | Path, out: str | Path | None = None,
                 instances: list[str] | None = None) -> Path:
    run_dir = Path(run_dir)
    out = Path(out) if out else Path("reports") / run_dir.resolve().name
    out.mkdir(parents=True, exist_ok=True)
    df = load_results(run_dir)
    env = load_environment(run_dir)
    s = summary(df)
    sc = scaling(df)
    if not df.empty:
        figures(df, out)
    differs = df["known"].eq(False) if "known" in df else False
    problems = df[df["status"].isin(["error", "wrong"]) | differs][
        ["puzzle", "instance", "formulation", "solver", "status", "message"]]

    md = [f"# puzzlebench report: {run_dir.resolve().name}", ""]
    if env:
        e = env[-1]
        md += [f"Machine: {e.get('cpu')}, {e.get('cores')} cores, Python {e.get('python')}; "
               f"git {e.get('git')}; time limit {e.get('time_limit')} s; "
               f"{e.get('jobs')} task(s) at a time; solver threads {e.get('threads')}.", ""]
    md += ["Times are build + solve seconds inside the task process (unsolved tasks count the "
           f"time limit); `sgm_s` is the shifted geometric mean (shift {SGM_SHIFT_S:g} s), "
           "`x_best` its ratio to the best pair of the puzzle; `wall_median_s` is the whole task "
           "process from outside; `peak_rss_mb` the largest peak of the process tree.", ""]
    lead = leaders(s)
    if not lead.empty:
        md += ["## Best variant x solver per formulation", "", markdown_table(lead), ""]
    oh = overhead(df)
    if not oh.empty:
        md += ["## Harness overhead per task (wall_s - build_s - solve_s)", "",
               markdown_table(oh), ""]
    for puzzle, g in s.groupby("puzzle") if not s.empty else []:
        md += [f"## {puzzle}", "", markdown_table(g[SUMMARY_COLUMNS]), ""]
        fig = out / f"{puzzle}-times.png"
        if fig.exists():
            md += [f"![{puzzle} times]({fig.name})", ""]
    if not sc.empty:
        md += ["## Growth with size (log-log slope of time against cells)", "",
               markdown_table(sc), ""]
    chosen = per_instance(df, instances) if instances else pd.DataFrame()
    for puzzle, g in chosen.groupby("puzzle") if not chosen.empty else []:
        g = g.dropna(axis=1, how="all").drop(columns="puzzle")
        md += [f"## {puzzle} per instance ({', '.join(instances or [])}): build + solve s", "",
               markdown_table(g.fillna("–")), ""]
    if not problems.empty:
        md += ["## Errors, wrong answers and disagreements with known solutions", "",
               markdown_table(problems), ""]
    (out / "summary.md").write_text("\n".join(md) + "\n")

    parts = [f"<h1>puzzlebench report: {html.escape(run_dir.resolve().name)}</h1>"]
    if env:
        parts.append("<p>" + html.escape(md[2]) + "</p>")
    parts.append("<p>" + html.escape(md[4 if env else 2]) + "</p>")
    if not lead.empty:
        parts += ["<h2>Best variant x solver per formulation</h2>",
                  lead.to_html(index=False, float_format=_fmt, border=0)]
    if not oh.empty:
        parts += ["<h2>Harness overhead per task</h2>",
                  oh.to_html(index=False, float_format=_fmt, border=0)]
    for puzzle, g in s.groupby("puzzle") if not s.empty else []:
        parts.append(f"<h2>{html.escape(str(puzzle))}</h2>")
        parts.append(g[SUMMARY_COLUMNS].to_html(index=False, float_format=_fmt, border=0))
        if (out / f"{puzzle}-times.png").exists():
            parts.append(f'<img src="{puzzle}-times.png" alt="{puzzle} times">')
    if not sc.empty:
        parts += ["<h2>Growth with size</h2>", sc.to_html(index=False, float_format=_fmt)]
    for puzzle, g in chosen.groupby("puzzle") if not chosen.empty else []:
        g = g.dropna(axis=1, how="all").drop(columns="puzzle")
        parts += [f"<h2>{html.escape(str(puzzle))} per instance: build + solve seconds</h2>",
                  g.to_html(index=False, na_rep="–")]
    if not problems.empty:
        parts += ["<h2>Errors and wrong answers</h2>", problems.to_html(index=False)]
    style = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto}"
             "table{border-collapse:collapse;font-size:13px}td,th{padding:2px 8px;"
             "border-bottom:1px solid #ddd;text-align:right}img{max-width:100%}")
    (out / "index.html").write_text(
        f"<!doctype html><html><head><meta charset='utf-8'><title>puzzlebench</title>"
        f"<style>{style}</style></head><body>{''.join(parts)}</body></html>\n")
    return out
