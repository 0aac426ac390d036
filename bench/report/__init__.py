"""Reports from a run folder: ``index.html`` (a page to explore: interactive tables, figures,
every instance one click away), ``summary.md`` beside it with the same verdicts and tables,
``results.parquet`` and ``results.csv``, in one self-contained folder that works from
``file://`` with no network.

Building blocks: :mod:`.data` (reading a run robustly, PAR-2, SGM, families), :mod:`.tables`
(ranking, verdicts, status matrix, slopes), :mod:`.sections` (one puzzle's part),
:mod:`.figures`, :mod:`.pictures` (SVG solutions), :mod:`.instances` (the instance views'
data), :mod:`.columns` (headers and definitions), :mod:`.assets` (the inlined DataTables
bundle), :mod:`.compare` (two runs).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import logging
import shutil
from pathlib import Path
from typing import Any

import pandas as pd

from bench.labels import close_matches, normal_pair
from bench.report import (
    assets,
    defaults,
    growth,
    identities,
    machines,
    measured,
    overhead,
    peers,
    tables,
    untimed,
    verdicts,
)
from bench.report import instances as instance_views
from bench.report.data import (
    PAR_K,
    SGM_SHIFT_S,
    ReportError,
    Run,
    load_run,
    prepare,
    ran,
    sgm,
    unread_note,
)
from bench.report.render import Table, markdown_text
from bench.report.sections import section, views_markdown
from bench.report.units import duration
from bench.run.storage import load_environment

log = logging.getLogger(__name__)

__all__ = ["PAR_K", "SGM_SHIFT_S", "ReportError", "load_run", "prepare", "sgm", "write_report"]

#: the Environment table's rows: (label, key of the environment record)
#: the pages a report writes beside its copy of the run's table (a folder holding the table
#: without any of them is a committed run folder, :func:`run_folder_in_the_way`)
REPORT_PAGES = ("index.html", "summary.md", "results.csv", "results.csv.gz")
ENVIRONMENT_ROWS = [
    ("date", "recorded_at"), ("CPU", "cpu"), ("cores", "cores"), ("RAM [GB]", "memory_gb"),
    ("OS", "platform"), ("Python", "python"), ("git revision", "git"), ("suite", "suite"),
    ("suite version", "suite_version"),
    ("time limit [s] (last invocation that ran tasks; per tier: 'What was measured')",
     "time_limit"),
    ("memory limit [MB]", "memory_limit_mb"), ("jobs", "jobs"), ("solver threads", "threads"),
    ("seed (last invocation that ran tasks)", "seed"),
    ("seeds (last invocation that ran tasks)", "seeds"),
    ("repeat (last invocation that ran tasks)", "repeat"), ("task start", "start"),
    ("CPU shared by session first (Linux sched_autogroup)", "sched_autogroup"),
    ("executor", "executor"), ("Dask scheduler", "scheduler"),
    ("merged from (this record)", "merged_from")]

#: the Environment table's suite of a run without one (its record's suite is "", its version 0)
NO_SUITE = "none (instances named on the command line)"


def environment(records: list[dict[str, Any]], every: int) -> Table:
    """The Environment table of the run's invocations that ran tasks (``records``,
    :func:`bench.report.machines.measuring`; ``every``: how many invocations it recorded): the
    last one's machine, versions and limits, the first and last one's date, each one's
    calibration loop and the machine's state over all of them."""
    env = records[-1] if records else {}
    if len(records) > 1:
        env = {**env, "recorded_at": f"{records[0].get('recorded_at', '?')} to "
                                     f"{env.get('recorded_at', '?')}"}
    if "suite" in env and not env["suite"]:  # a run of instances named on the command line
        env = {k: v for k, v in env.items() if k != "suite_version"} | {"suite": NO_SUITE}
    rows = [[label, "unknown" if env[k] is None else str(env[k])] for label, k in
            ENVIRONMENT_ROWS if k in env]
    if every > len(records):
        rows.append(["invocations", f"{every}, {len(records)} of them ran tasks (one that ran "
                     "none is left out of this table and of the disturbed note)"])
    elif every > 1:
        rows.append(["invocations", str(every)])
    for rec in records:
        cal = rec.get("calibration")
        if isinstance(cal, dict) and cal.get("start_s") is not None:
            end = cal.get("end_s")
            rows.append(["calibration loop" + (f" (invocation started {machines.started(rec)})"
                                               if len(records) > 1 else ""),
                         f"{duration(cal['start_s'])} at the start, "
                         + (f"{duration(end)} at the end" if isinstance(end, int | float) else
                            "no end figure (the run was interrupted)")])
    rows += machines.state_rows(records)
    for group in ("solvers", "packages"):
        if isinstance(env.get(group), dict):
            rows += [[f"{group[:-1]} {k}", str(v)] for k, v in env[group].items()]
    rows.append(["report written", dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")])
    rows.append(["SGM shift", f"{SGM_SHIFT_S * 1000:g} ms (fixed setting of the report)"])
    return Table(["", "value"], rows, {"", "value"})


def write_report(run_dir: str | Path, out: str | Path | None = None,
                 instances: list[str] | None = None, scatter: list[str] | None = None) -> Path:
    """Write ``index.html`` and ``summary.md`` (and figures) for a run folder; raise
    :class:`ReportError` (writing nothing) when there is nothing to report or the folder
    ``out`` cannot be made."""
    run = load_run(run_dir)
    t, apart = identities.apart(prepare(run.df, run.folder))  # a pair of several identities: split
    run.warnings.extend([*apart, *unread_note(t), *untimed.note(t)])
    scatter = _scatter_pairs(scatter, t)
    _instance_patterns(instances, t)
    out = _make_folder(Path(out) if out else Path("reports") / run.folder.resolve().name,
                       run.folder)
    types = machines.machine_types(run.folder)
    t = t.join(machines.machine_of(t, types)) if len(t) else t
    several = len(t) > 0 and t["machine_id"].nunique() > 1
    if several:  # one ranking per machine type: times of different machines never mixed
        sections = [section(str(p), g, out, scatter, instances, (str(m), str(g.iloc[0][
            "machine_label"]))) for (p, m), g in t.groupby(["puzzle", "machine_id"], sort=True)]
    else:
        sections = [section(str(p), g, out, scatter, instances)
                    for p, g in t.groupby("puzzle", sort=True)] if len(t) else []
    ranks = {s.name: s.rank for s in sections}
    ov = tables.overview({s.name: s.verdict for s in sections}, ranks)
    bad = run.df[run.df["formulation"].fillna("-") == "-"][["instance", "status", "message"]]
    parquet = _copy_parquet(run, out)
    records = _copy_records(run, out)
    ovh = overhead.table(ran(t))
    hosts = machines.table(t, types) if len(t) else pd.DataFrame()
    run.warnings.extend(machines.mixed(t, types) if len(t) else [])
    env = _machine_state(run)
    # the verdict matrix per puzzle and machine type where a run spans several
    matrix, tier_lines = _verdicts(t.assign(puzzle=t["puzzle"] + " on " + t["machine_id"])
                                   if several else t)
    # defaults are judged on one machine type's times
    chosen, default_lines = defaults.table(t if not several else t.iloc[:0])
    ctx = {"overhead": Table.of(ovh) if len(ovh) else None,
           "defaults": Table.of(chosen) if len(chosen) else None,
           "default_lines": default_lines, "default_note": defaults.NOTE,
           "machines": Table.of(hosts) if len(hosts) else None,
           "overhead_lines": [overhead.NOTE, overhead.verdict(ovh)],
           "verdict_matrix": matrix, "tier_lines": tier_lines, "tier_note": verdicts.NOTE,
           "legend": tables.LEGEND,
           "design": Table.of(measured.design(t)) if len(t) else None,
           "design_note": measured.design_note(t),
           "assets": assets.load(),
           "csv": _write_csv(run, out), "instance_data": instance_views.write(t, out),
           "name": run.folder.resolve().name, "warnings": run.warnings,
           "provenance": machines.provenance(run.df, run.folder.resolve().name)
           + ([f"Results of {t['machine_id'].nunique()} machine types: each puzzle is ranked "
               "once per machine type (" + "; ".join(
                   f"{i}: {lab}" for i, lab in sorted(set(zip(
                       t["machine_id"], t["machine_label"], strict=True)))) + ")."]
              if several else []), "puzzles": sections,
           "overview": Table.of(ov) if len(ov) else Table([], []), "note": tables.SHIFT_NOTE,
           "peer_note": peers.NOTE, "growth_note": growth.NOTE,
           "unreadable": Table.of(bad) if len(bad) else None,
           "environment": env, "parquet": parquet, "records": records}
    _write_html(ctx, out / "index.html")
    (out / "summary.md").write_text(markdown_text(_markdown(ctx)), encoding="utf-8")
    return out


def _machine_state(run: Run) -> Table:
    """The Environment table of the run's invocations that ran tasks
    (:func:`bench.report.machines.measuring`); their disturbed note added to its warnings."""
    every = load_environment(run.folder) or ([run.env] if run.env else [])
    invoked = machines.measuring(every, run.df)
    run.warnings.extend(machines.disturbed(invoked))
    return environment(invoked, len(every))


def _instance_patterns(instances: list[str] | None, t: pd.DataFrame) -> None:
    """A :class:`ReportError` naming the first ``--instance`` pattern (shell-style,
    :func:`fnmatch.fnmatch`) that no instance name of the run matches."""
    from fnmatch import fnmatch

    names = set(t["instance"].astype(str)) if len(t) else set()
    for p in instances or []:
        if not any(fnmatch(n, p) for n in names):
            raise ReportError(f"--instance {p!r}: no instance of the run matches it (a "
                              f"shell-style pattern: *, ?, [...]){close_matches(p, names)}")


def run_folder_in_the_way(out: Path, run: Path) -> str:
    """Why writing the report into ``out`` would destroy a run's data ("" when it would not):
    ``out`` is the run ``run`` itself, or a run folder: it holds a run's ``journal.jsonl``,
    ``run-id`` or ``.lock``, or, a committed run, its ``results.parquet`` with none of the
    pages a report writes beside its copy of it (``index.html``, ``summary.md``,
    ``results.csv``): the report's ``results.parquet`` and ``environment.json`` would replace
    that run's, and a resume of it would then mix the two runs' results. A link to a folder is
    that folder."""
    from bench.run.lock import LOCK
    from bench.run.storage import JOURNAL, RUN_ID

    if out.resolve() == run.resolve():
        return (f"{out}: the run folder being reported on; writing the report there would "
                "destroy its results (name another folder)")
    held = [n for n in (JOURNAL, RUN_ID, LOCK) if (out / n).exists()]
    if not held and (out / "results.parquet").exists() and not any(
            (out / n).exists() for n in REPORT_PAGES):
        held = ["results.parquet and no report page"]
    if held:
        return (f"{out}: a run folder (it holds {held[0]}); writing the report there would "
                "destroy its results (name another folder)")
    return ""


def _make_folder(out: Path, run: Path) -> Path:
    """Make the report folder ``out`` of the run ``run``; one that is a run folder
    (:func:`run_folder_in_the_way`) or cannot be made (an existing file, a path under a file, a
    read-only parent) is a :class:`ReportError` naming it and the problem."""
    if why := run_folder_in_the_way(out, run):
        raise ReportError(why)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ReportError(f"cannot write {out}: {e.strerror or e}") from None
    return out


def _scatter_pairs(scatter: list[str] | None, t: pd.DataFrame) -> list[str] | None:
    """The ``--scatter`` pairs as the report names them (any spacing around ``/``); a pair
    the run does not have, or not exactly two, is a :class:`ReportError` naming close ones."""
    if not scatter:
        return scatter
    if len(scatter) != 2:
        raise ReportError(f"--scatter takes two pairs (give it twice), not {len(scatter)}")
    known = set(t["pair"]) if len(t) else set()
    pairs = [normal_pair(p) for p in scatter]
    for given, pair in zip(scatter, pairs, strict=True):
        if pair not in known:
            raise ReportError(f"--scatter {given!r}: the run has no pair {pair!r}"
                              f"{close_matches(pair, known)}")
    return pairs


#: the name of the run's journal copied into a report whose rows make no Parquet table: not
#: ``journal.jsonl``, which would make the report folder look like a run folder
JOURNAL_COPY = "results.jsonl"


def _copy_parquet(run: Run, out: Path) -> str:
    """``results.parquet`` of the run's rows in ``out``; where they do not make a Parquet
    table (a value no column type holds), the run's journal copied instead, as
    :data:`JOURNAL_COPY`."""
    target = out / "results.parquet"
    try:
        run.df.to_parquet(target, index=False)
    except (OSError, ValueError, TypeError, OverflowError):
        with contextlib.suppress(OSError):  # a half-written table is no copy of the results
            target.unlink(missing_ok=True)
        shutil.copyfile(run.folder / "journal.jsonl", out / JOURNAL_COPY)
        return JOURNAL_COPY
    return target.name


#: above this many tasks the CSV copy is written gzip-compressed (results.csv.gz)
CSV_GZIP_ROWS = 2_000


def _write_csv(run: Run, out: Path) -> str | None:
    """``results.csv`` beside the Parquet file: the same rows, solution grids as JSON text,
    floats to 6 significant digits; ``results.csv.gz`` for a run of more than CSV_GZIP_ROWS
    tasks (``pandas.read_csv`` reads either), so a large run's report stays small."""
    df = run.df.copy()
    for col in df.columns:
        if df[col].dtype == object:
            df[col] = [json.dumps(v) if isinstance(v, list | dict) else
                       (json.dumps(v.tolist()) if hasattr(v, "tolist") else v)
                       for v in df[col]]
    name = "results.csv.gz" if len(df) > CSV_GZIP_ROWS else "results.csv"
    try:
        df.to_csv(out / name, index=False, float_format="%.6g")
    except OSError as e:
        log.warning("%s: %s not written (%s)", out, name, e)
        return None
    return name


def _verdicts(t: pd.DataFrame) -> tuple[Table | None, list[str]]:
    """The puzzle x tier verdict matrix (:func:`bench.report.verdicts.matrix`), shown first,
    and its sentences; (None, []) for a run without results."""
    if not len(t):
        return None, []
    df, lines = verdicts.matrix(t)
    # the declined column starts hidden on the page where nothing was declined
    quiet = {"declined"} if len(df) and (df["declined"].astype(str).isin(["0", "–"])).all() \
        else set()
    return (Table.of(df, hidden=set(tables.VERDICT_MORE) | quiet) if len(df) else None), lines


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


def _extra(extra: dict[str, Any]) -> list[str]:
    """A section's extra table in Markdown: its title, its caption (where it has one), the
    table."""
    cap = [extra["caption"], ""] if extra.get("caption") else []
    return [f"### {extra['title']}", "", *cap, extra["table"].markdown(), ""]


def _markdown(ctx: dict[str, Any]) -> str:
    md = [f"# puzzlebench report: {ctx['name']}", ""]
    md += [f"Note: {w}" for w in ctx["warnings"]]
    md += ["", *ctx["provenance"], ""]
    md += ["## Overview", ""]
    if ctx["verdict_matrix"]:
        md += ["### Puzzle x tier", "", ctx["verdict_matrix"].markdown(), "",
               *[f"- {x}" for x in ctx["tier_lines"]], "", ctx["tier_note"], ""]
    if ctx["design"]:
        md += ["### What was measured, per puzzle and tier", "", ctx["design"].markdown(), "",
               ctx["design_note"], ""]
    if ctx["defaults"]:
        md += ["### Declared defaults against the robust choice", "",
               ctx["defaults"].markdown(), "", *[f"- {x}" for x in ctx["default_lines"]], "",
               ctx["default_note"], ""]
    if ctx["verdict_matrix"]:
        md += ["### Pooled over all tiers", ""]
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
            md += [f"Growth with size ({growth.NOTE}):", "",
                   s.slopes.markdown(), ""]
        if s.peers:
            md += ["Against the peer packages:", "", *[f"- {x}" for x in s.peer_lines], "",
                   s.peers.markdown(), "", peers.NOTE, ""]
        if s.problems_md:
            md += ["Wrong answers, disagreements, errors:", "", s.problems_md.markdown(), ""]
        md += ["Status per instance (S solved, I infeasible, T timeout, N not run (the "
               "suite's ladder rule; left out of every count and test), M memout, E error, "
               "K skipped (the formulation declined the instance: not applicable, left out "
               "like N), W wrong, D infeasible although an exact formulation solved it; problem "
               "instances first; columns: " + "; ".join(f"{k} {p}" for k, p in s.matrix_key)
               + "):", "", s.matrix_md.markdown(), ""]
        if s.matrix_more:
            md += [f"({s.matrix_more} more instances in the HTML report)", ""]
        if s.memory_line:
            md += [s.memory_line, ""]
        md += views_markdown(s)
        for extra in s.extra:
            md += _extra(extra)
    if ctx["unreadable"]:
        md += ["## Unreadable instances", "", ctx["unreadable"].markdown(), ""]
    if ctx["machines"]:
        md += ["## Machines", "", ctx["machines"].markdown(), ""]
    if ctx["overhead"]:
        md += ["## Time the harness adds to each task", "", *ctx["overhead_lines"], "",
               ctx["overhead"].markdown(), ""]
    md += ["## Environment", "", ctx["environment"].markdown(), "",
           f"Results: [{ctx['parquet']}]({ctx['parquet']})"
           + (f"; [{ctx['csv']}]({ctx['csv']})" if ctx["csv"] else "")
           + "".join(f"; [{n}]({n})" for n in ctx["records"]), ""]
    return "\n".join(md)
