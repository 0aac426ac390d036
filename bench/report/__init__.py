"""Reports from a run folder: ``index.html`` (figures, folded tables, solution pictures) and a
``summary.md`` beside it with the same verdicts and tables, in one self-contained folder.

Building blocks: :mod:`.data` (reading a run robustly, PAR-2, SGM, families), :mod:`.tables`
(ranking, verdicts, status matrix, slopes), :mod:`.figures`, :mod:`.pictures` (SVG solutions),
:mod:`.compare` (two runs).
"""

from __future__ import annotations

import datetime as dt
import shutil
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import pandas as pd

from bench.report import figures, machines, overhead, peers, pictures, tables, verdicts
from bench.report.data import (
    PAR_K,
    SGM_SHIFT_S,
    ReportError,
    Run,
    load_run,
    per_instance,
    prepare,
    sgm,
)
from bench.report.render import Table

__all__ = ["PAR_K", "SGM_SHIFT_S", "ReportError", "load_run", "prepare", "sgm", "write_report"]

MATRIX_ROWS = 30  # status-matrix rows shown before folding; at most MATRIX_MAX in all
MATRIX_MAX = 500
PROBLEM_ROWS = 15  # wrong answers, disagreements and errors shown before folding
PICTURES = 3  # solution pictures per puzzle
SCALING_PANELS = 9  # formulations in the scaling figure


@dataclass
class Section:
    name: str
    verdict: str
    folded: Table
    ranking: Table
    matrix: Table
    matrix_key: list[tuple[str, str]]
    matrix_rest: Table | None = None
    common: str = ""  # how many instances the common_* columns cover
    problems: Table | None = None
    problems_rest: Table | None = None
    slopes: Table | None = None
    figures: list[dict[str, str]] = field(default_factory=list)
    pictures: list[dict[str, str]] = field(default_factory=list)
    extra: list[dict[str, Any]] = field(default_factory=list)
    peers: Table | None = None  # our best pair against each peer package
    peer_lines: list[str] = field(default_factory=list)
    rank: pd.DataFrame = field(default_factory=pd.DataFrame)  # for the overview


def _marks(r: pd.DataFrame) -> list[str]:
    return ["best" if b else ("tie" if t else "") for b, t in zip(r["best"], r["tie"],
                                                                  strict=True)]


def _figures(puzzle: str, pi: pd.DataFrame, shown: list[str], rank: pd.DataFrame,
             scatter: list[str] | None, out: Path) -> list[dict[str, str]]:
    limit = float(pi["time_limit"].max())
    made = [
        (figures.cactus(pi, shown, limit, out / f"{puzzle}-cactus.png"),
         "Cactus plot: instances solved within a time, best variant per formulation; the "
         "grey band is the virtual best solver, the dotted line the time limit."),
        (figures.profile(pi, shown, out / f"{puzzle}-profile.png"),
         "Dolan-Moré performance profile: fraction of instances solved within tau times the "
         "fastest shown pair."),
        (figures.scaling(pi, shown[:SCALING_PANELS], limit, out / f"{puzzle}-scaling.png"),
         "Time against cells (log-log), marker per instance family; open triangles: no answer "
         f"within the limit (censored); the {SCALING_PANELS} best formulations at most."),
        (figures.memory(pi, shown, out / f"{puzzle}-memory.png"),
         "Peak memory above the forked template, and model size, against cells."),
    ]
    a, b = (scatter or [])[:2] if scatter and len(scatter) >= 2 else (None, None)
    if a is None and len(rank) >= 2:
        a, b = rank["pair"].iloc[0], rank["pair"].iloc[1]
    if a in set(pi["pair"]) and b in set(pi["pair"]):
        made.append((figures.scatter(pi, str(a), str(b), limit, out / f"{puzzle}-scatter.png"),
                     f"Per instance: {a} against {b}; below the diagonal the second is "
                     "faster; open squares were censored at the limit."))
    return [{"src": p.name, "alt": f"{puzzle}: {cap.split(':')[0]}", "caption": cap}
            for p, cap in made]


def _pictures(puzzle: str, t: pd.DataFrame, out: Path) -> list[dict[str, str]]:
    ok = t[(t["status"] == "solved") & t["ok"] & t["grid"].notna()]
    ok = ok.sort_values("cells", ascending=False).drop_duplicates("family")
    ok = ok.drop_duplicates("instance").head(PICTURES)
    pics = []
    for _, row in ok.iterrows():
        name = f"{puzzle}-{row['instance']}.svg"
        title = f"{row['instance']} solved by {row['pair']}"
        (out / name).write_text(pictures.svg(puzzle, row["grid"], row["instance_path"], title),
                                encoding="utf-8")
        pics.append({"src": name, "alt": title, "caption": f"{title} ({row['family']})"})
    return pics


def _matrix(t: pd.DataFrame, rank: pd.DataFrame) -> tuple[Table, Table | None, list]:
    m = tables.status_matrix(t)
    order = [p for p in rank["pair"] if p in m.columns]
    key = [(str(i + 1), p) for i, p in enumerate(order)]
    m = m[["instance", "family", *order]].rename(columns={p: k for k, p in key})
    head = Table.of(m.head(MATRIX_ROWS))
    rest = m.iloc[MATRIX_ROWS:]
    return head, (Table.of(rest, limit=MATRIX_MAX) if len(rest) else None), key


def section(puzzle: str, t: pd.DataFrame, out: Path, scatter: list[str] | None,
            instances: list[str] | None) -> Section:
    pi = per_instance(t)
    rank = tables.ranking(t)
    fold = tables.folded(rank)
    shown = list(fold["pair"])
    head, rest, key = _matrix(t, rank)
    cols = tables.rank_columns(rank)
    sec = Section(puzzle, tables.verdict(puzzle, t, rank),
                  Table.of(fold, cols, marks=_marks(fold)),
                  Table.of(rank, cols, marks=_marks(rank)), head, key, rest,
                  common=tables.common_note(rank))
    probs = tables.problems(t)  # wrong and disagreeing first; beyond PROBLEM_ROWS folded
    if len(probs):
        sec.problems = Table.of(probs.head(PROBLEM_ROWS))
        if len(probs) > PROBLEM_ROWS:
            sec.problems_rest = Table.of(probs.iloc[PROBLEM_ROWS:], limit=MATRIX_MAX)
    fam = tables.by_family(pi, shown)
    if fam["family"].nunique() > 1:
        sec.extra.append({"title": "Per instance family (best variant per formulation)",
                          "table": Table.of(fam)})
    eff, eff_lines = verdicts.effort(t)
    if len(eff):
        sec.extra.append({"title": f"{puzzle}: effort against time among the pairs of one "
                          "solver (" + (" ".join(eff_lines) or "the two orders agree") + ")",
                          "table": Table.of(eff)})
    sl = tables.slopes(pi, shown)
    sec.slopes = Table.of(sl) if len(sl) else None
    sec.rank = rank
    sec.figures = _figures(puzzle, pi, shown, rank, scatter, out)
    sec.pictures = _pictures(puzzle, t, out)
    vs = peers.versus(pi, rank)
    if len(vs):
        sec.peers, sec.peer_lines = Table.of(vs, peers.COLUMNS), peers.verdict(vs)
        sec.figures.append({"src": peers.figure(pi, vs, out / f"{puzzle}-peers.png").name,
                            "alt": f"{puzzle}: ratio against the peers",
                            "caption": "Per-instance time ratio peer / ours (empirical CDF "
                                       "over the instances both answered); right of the "
                                       "dotted line ours is faster."})
    if instances:
        sel = t[t["instance"].map(lambda n: any(fnmatch(n, p) for p in instances))]
        if len(sel):
            cell = [f"{v:.4f}" if ok else st for v, ok, st in
                    zip(sel["time_s"], sel["ok"], sel["status"], strict=True)]
            tab = sel.assign(cell=cell).pivot_table(
                index=["formulation", "solver"], columns="instance", values="cell",
                aggfunc="first").reset_index()
            tab.columns.name = None
            sec.extra.append({"title": f"{puzzle} per instance ({', '.join(instances)}): "
                                       "build + solve s", "table": Table.of(tab.fillna("–"))})
    return sec


def environment(env: dict[str, Any]) -> Table:
    keys = [("date", "recorded_at"), ("CPU", "cpu"), ("cores", "cores"),
            ("RAM [GB]", "memory_gb"), ("OS", "platform"), ("Python", "python"),
            ("git revision", "git"), ("suite", "suite"), ("suite version", "suite_version"),
            ("time limit [s]", "time_limit"), ("memory limit [MB]", "memory_limit_mb"),
            ("jobs", "jobs"), ("solver threads", "threads"), ("seed", "seed"),
            ("seeds", "seeds"), ("repeat", "repeat"), ("task start", "start"),
            ("executor", "executor"), ("Dask scheduler", "scheduler")]
    rows = [[label, str(env[k])] for label, k in keys if k in env]
    cal = env.get("calibration")
    if isinstance(cal, dict) and cal.get("start_s") is not None:
        end = cal.get("end_s")
        rows.append(["calibration loop [s]", f"{cal['start_s']:.3f} at the start, "
                     + (f"{end:.3f} at the end" if isinstance(end, int | float) else
                        "no end figure (the run was interrupted)")])
    for group in ("solvers", "packages"):
        if isinstance(env.get(group), dict):
            rows += [[f"{group[:-1]} {k}", str(v)] for k, v in env[group].items()]
    rows.append(["report written", dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")])
    rows.append(["SGM shift", f"{SGM_SHIFT_S * 1000:g} ms (fixed setting of the report)"])
    return Table(["", "value"], rows, {"", "value"})


def write_report(run_dir: str | Path, out: str | Path | None = None,
                 instances: list[str] | None = None, scatter: list[str] | None = None) -> Path:
    """Write ``index.html`` and ``summary.md`` (and figures) for a run folder; raise
    :class:`ReportError` (writing nothing) when there is nothing to report."""
    run = load_run(run_dir)
    out = Path(out) if out else Path("reports") / run.folder.resolve().name
    out.mkdir(parents=True, exist_ok=True)
    t = prepare(run.df)
    sections = [section(str(p), g, out, scatter, instances)
                for p, g in t.groupby("puzzle", sort=True)] if len(t) else []
    ranks = {s.name: s.rank for s in sections}
    ov = tables.overview({s.name: s.verdict for s in sections}, ranks)
    tier_matrix, tier_lines = verdicts.matrix(t) if len(t) else (pd.DataFrame(), [])
    bad = run.df[run.df["formulation"].fillna("-") == "-"][["instance", "status", "message"]]
    parquet = _copy_parquet(run, out)
    records = _copy_records(run, out)
    ovh = overhead.table(t)
    types = machines.machine_types(run.folder)
    hosts = machines.table(t, types) if len(t) else pd.DataFrame()
    run.warnings.extend(machines.mixed(t, types) if len(t) else [])
    ctx = {"overhead": Table.of(ovh) if len(ovh) else None,
           "machines": Table.of(hosts) if len(hosts) else None,
           "overhead_lines": [overhead.verdict(ovh), overhead.NOTE],
           "name": run.folder.resolve().name, "warnings": run.warnings, "puzzles": sections,
           "overview": Table.of(ov) if len(ov) else Table([], []), "note": tables.SHIFT_NOTE,
           "tier_matrix": Table.of(tier_matrix) if len(tier_matrix) else None,
           "tier_lines": tier_lines, "tier_note": verdicts.NOTE,
           "peer_note": peers.NOTE,
           "unreadable": Table.of(bad) if len(bad) else None,
           "environment": environment(run.env), "parquet": parquet, "records": records}
    _write_html(ctx, out / "index.html")
    (out / "summary.md").write_text(_markdown(ctx), encoding="utf-8")
    return out


def _copy_parquet(run: Run, out: Path) -> str:
    target = out / "results.parquet"
    try:
        run.df.to_parquet(target, index=False)
    except (OSError, ValueError, TypeError):
        shutil.copyfile(run.folder / "journal.jsonl", out / "journal.jsonl")
        return "journal.jsonl"
    return target.name


def _copy_records(run: Run, out: Path) -> list[str]:
    """The run's ``environment.json`` (every invocation's machine, versions, limits and
    calibration) and ``constraints.txt`` (``pip install -c constraints.txt`` reinstalls the
    versions behind the report), copied beside it when the run has them."""
    names = []
    for name in ("environment.json", "constraints.txt"):
        src = run.folder / name
        if src.is_file() and src.resolve() != (out / name).resolve():
            try:
                shutil.copyfile(src, out / name)
            except OSError:
                continue
            names.append(name)
    return names


def _write_html(ctx: dict[str, Any], path: Path) -> None:
    import jinja2

    env = jinja2.Environment(loader=jinja2.PackageLoader("bench.report", "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined)
    path.write_text(env.get_template("report.html.j2").render(**ctx), encoding="utf-8")


def _markdown(ctx: dict[str, Any]) -> str:
    md = [f"# puzzlebench report: {ctx['name']}", ""]
    md += [f"Note: {w}" for w in ctx["warnings"]]
    md += ["## Overview", ""]
    if ctx["tier_matrix"]:
        md += ["### Puzzle x tier", "", ctx["tier_matrix"].markdown(), "",
               *[f"- {x}" for x in ctx["tier_lines"]], "", ctx["tier_note"], "",
               "### Pooled over all tiers", ""]
    md += [*[f"- {s.verdict}" for s in ctx["puzzles"]], ""]
    if ctx["overview"].columns:
        md += [ctx["overview"].markdown(), ""]
    md += [ctx["note"], ""]
    for s in ctx["puzzles"]:
        md += [f"## {s.name}", "", s.verdict, "", "Best variant x solver per formulation:", "",
               s.folded.markdown(), "", s.common, ""]
        md += [f"All {len(s.ranking.rows) + s.ranking.more} formulation variant x solver pairs:",
               "", s.ranking.markdown(), ""]
        md += [f"![{f['alt']}]({f['src']})" for f in s.figures] + [""]
        if s.slopes:
            md += ["Growth with size (log-log slope of time against cells):", "",
                   s.slopes.markdown(), ""]
        if s.peers:
            md += ["Against the peer packages:", "", *[f"- {x}" for x in s.peer_lines], "",
                   s.peers.markdown(), "", peers.NOTE, ""]
        if s.problems:
            md += ["Wrong answers, disagreements, errors:", "", s.problems.markdown(), ""]
            if s.problems_rest:
                md += [f"({len(s.problems_rest.rows) + s.problems_rest.more} more in the HTML "
                       "report and results.parquet)", ""]
        md += ["Status per instance (S solved, I infeasible, T timeout, M memout, E error, "
               "W wrong, D infeasible although an exact formulation solved it; problem "
               "instances first; columns: " + "; ".join(f"{k} {p}" for k, p in s.matrix_key)
               + "):", "", s.matrix.markdown(), ""]
        if s.matrix_rest:
            md += [f"({len(s.matrix_rest.rows) + s.matrix_rest.more} more instances in the "
                   "HTML report)", ""]
        for extra in s.extra:
            md += [f"## {extra['title']}", "", extra["table"].markdown(), ""]
    if ctx["unreadable"]:
        md += ["## Unreadable instances", "", ctx["unreadable"].markdown(), ""]
    if ctx["machines"]:
        md += ["## Machines", "", ctx["machines"].markdown(), ""]
    if ctx["overhead"]:
        md += ["## Harness overhead", "", *ctx["overhead_lines"], "",
               ctx["overhead"].markdown(), ""]
    md += ["## Environment", "", ctx["environment"].markdown(), "",
           f"Results: [{ctx['parquet']}]({ctx['parquet']})"
           + "".join(f"; [{n}]({n})" for n in ctx["records"]), ""]
    return "\n".join(md)
