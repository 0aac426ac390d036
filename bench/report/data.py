"""Reading a run folder for a report, robustly, and the per-task columns every table shares.

A report never tracebacks on a damaged run folder: an unusable ``results.parquet`` (corrupt, of
another schema, without rows, not a file) falls back to
the journal, table rows and journal lines that are not results (the result schema, checked
as ``merge`` checks them) are left out with a note, a corrupt
``environment.json`` gives an empty environment block; a folder with no results at all raises
:class:`ReportError` (and the caller writes nothing).
"""

from __future__ import annotations

import json
import logging
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import bench.report.located as located
from bench.records import NOT_RUN, OURS, Result, row_origin
from bench.report.invalid import out_of_fold
from bench.report.stopped import unfinished
from bench.report.untimed import kept, missing, settle
from bench.run.storage import (
    ENVIRONMENT,
    JOURNAL,
    TABLE,
    Journal,
    UnusableTable,
    every_sample,
    results_frame,
    table_current,
    table_results,
    unreadable_table_errors,
)

log = logging.getLogger(__name__)

#: shift of the shifted geometric mean, seconds: a fixed setting of the report (never derived
#: from the data, so two reports compare); 10 ms suits tasks that mostly take milliseconds
SGM_SHIFT_S = 0.01
#: PAR-k: an unsolved task counts k times the time limit
PAR_K = 2


#: the columns a results table cannot do without (another schema: read the journal instead)
REQUIRED = ("key", "puzzle", "instance", "formulation", "solver", "status")


class ReportError(Exception):
    """The folder cannot give a report (missing, or no results in it)."""


@dataclass
class Run:
    """A run folder's results (one row per task) and its latest environment record."""

    folder: Path
    df: pd.DataFrame
    env: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def _journal_frame(folder: Path, warnings: list[str]) -> pd.DataFrame:
    journal = Journal(folder)
    found = every_sample(journal)  # the run's own reader: lines split on "\n" only
    if journal.skipped:
        warnings.append(f"{journal.skipped} unreadable line(s) in {JOURNAL} skipped")
    return results_frame(found)


def _table(table: Path) -> tuple[pd.DataFrame | None, str]:
    """``results.parquet`` when it is a readable results table (a file, of the results
    schema, with rows) and "", else None and what is wrong with it."""
    why = ""
    try:
        df = pd.read_parquet(table) if table.is_file() else None
        if df is None:
            why = "not a file"
        elif missing := [c for c in REQUIRED if c not in df]:
            why = f"no {missing[0]!r} column"
        elif df.empty:
            why = "no rows"
    except Exception as e:  # pyarrow raises several types for damaged files
        log.debug("%s: %s", table, e)
        what = (str(e).splitlines() or [""])[0].split(". ")[0].replace(f" '{table}'", "")
        return None, f"{TABLE} unreadable ({type(e).__name__}: {what})"
    if why:
        return None, f"{TABLE} unusable ({why})"
    return df, ""


def _rows(folder: Path, table: pd.DataFrame, journal: bool
          ) -> tuple[pd.DataFrame | None, str, str]:
    """The usable ``table``'s results as ``merge`` and ``run --reuse`` read them
    (:func:`bench.run.storage.table_results`), as a frame; why the table is unusable ("" if not;
    so too with unreadable rows beside a ``journal``, or no others); the skipped-rows note."""
    problems: list[str] = []
    try:
        found, bad = table_results(folder, problems, table)
    except UnusableTable as e:  # no time limits, or different copies of one sample
        return None, f"{TABLE} unusable ({e})", ""
    except unreadable_table_errors() as e:
        log.debug("%s: %s", folder / TABLE, e)
        return None, f"{TABLE} unreadable ({type(e).__name__})", ""
    if not bad:
        return results_frame(found), "", ""
    why = f"{bad} unreadable row(s), the first: {problems[0]}"
    if journal or not found:
        return None, f"{TABLE} unusable ({why})", ""
    return results_frame(found), "", f"{bad} unreadable row(s) in {TABLE} skipped " \
        f"(the first: {problems[0]})"


def load_run(folder: str | Path) -> Run:
    """The run's results: ``results.parquet`` when usable and current, else the journal.

    A journal that is not a regular file (a directory, a FIFO) or cannot be read, and a result
    naming a puzzle that is not one of the known puzzles, are a :class:`ReportError` naming the
    file: every name in a run folder is data, never a path, and a report is of known puzzles."""
    folder = Path(folder)
    if not folder.is_dir():
        raise ReportError(f"{folder}: not a run folder (a file: name the folder that holds "
                          "it)" if folder.exists() else f"{folder}: no such run folder")
    warnings: list[str] = []
    table, journal = folder / TABLE, folder / JOURNAL
    if journal.exists() and not stat.S_ISREG(journal.stat().st_mode):
        raise ReportError(f"{journal}: not a regular file")
    df: pd.DataFrame | None = None
    source, unusable = table, ""
    if table.exists() and table_current(folder):
        df, unusable = _table(table)
        if df is not None:
            df, unusable, skipped = _rows(folder, df, journal.is_file())
            if skipped:
                log.warning("%s: %s", folder, skipped)
                warnings.append(skipped)
    if df is None:
        source = journal
        try:
            df = _journal_frame(folder, warnings)
        except OSError as e:
            raise ReportError(f"{journal}: {e.strerror or e}") from None
    if df.empty or "status" not in df:
        said = [*filter(None, [unusable]), *warnings]
        if said and not journal.exists():
            said.append(f"no {JOURNAL}")
        why = f" ({'; '.join(said)})" if said else ""
        raise ReportError(f"{folder}: no results ({TABLE} or {JOURNAL}) to report on{why}")
    if unusable:
        warnings.insert(0, f"{unusable}; read {JOURNAL} instead")
    for col in Result.__dataclass_fields__:
        if col not in df:
            df[col] = None
    _known_puzzles(df, source)
    records = _environment(folder, warnings)
    if partial := unfinished(folder, records, df):
        log.warning("%s: %s", folder, partial)
        warnings.insert(0, partial)
    return Run(folder, df, records[-1] if records else {}, warnings)


def _known_puzzles(df: pd.DataFrame, source: Path) -> None:
    """Raise :class:`ReportError` naming ``source`` when a row's puzzle is not a known puzzle
    ("" is the row of an instance that could not be read)."""
    from bench.puzzles import puzzle_names

    known = set(puzzle_names())
    found = df["puzzle"].fillna("").astype(str)
    bad = sorted(set(found) - known - {""})
    if bad:
        shown = bad[0] if len(bad[0]) <= 80 else bad[0][:77] + "..."
        raise ReportError(f"{source}: puzzle {shown!r} is not a known puzzle "
                          f"(one of {', '.join(sorted(known))})"
                          + (f"; {len(bad) - 1} more unknown" if len(bad) > 1 else ""))


def _environment(folder: Path, warnings: list[str]) -> list[dict[str, Any]]:
    """The folder's environment records (the objects among them), oldest first; none when
    the file is missing or cannot be read (said in ``warnings``)."""
    path = folder / ENVIRONMENT
    if not path.exists():
        return []
    try:
        records = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        warnings.append(f"{ENVIRONMENT} unreadable ({e.__class__.__name__})")
        return []
    if isinstance(records, dict):
        records = [records]
    if not isinstance(records, list):
        warnings.append(f"{ENVIRONMENT} is not a list of records")
        return []
    return [r for r in records if isinstance(r, dict)]


_GEN = re.compile(r"^gen-[a-z]+-(\d+x\d+)")


def family(name: str, path: str | None = None) -> str:
    """The instance family: ``seed``, ``generated`` (of several sizes: the scaling axis) or
    ``real (puz.link)`` / ``real (janko)``, from the file name and the ``source:`` header."""
    if name.startswith("seed-"):
        return "seed"
    source = _source(path) if path else ""
    if _GEN.match(name) or "generated" in source:
        return "generated"
    if "janko" in source:
        return "real (janko)"
    if "puzz.link" in source or "pzprjs" in source:
        return "real (puzz.link)"
    return "other"


def families(t: pd.DataFrame, folder: str | Path | None
             ) -> tuple[pd.Series, pd.Series, pd.Series]:
    """Per row, its instance's file ("" where none is found), its family, and what the
    lookup found (:data:`bench.report.located.FOUND`, ``MISSING`` or ``CHANGED``), one per
    puzzle and instance name whatever the working folder: the file is looked for from the run
    folder (:func:`bench.report.located.files`, never from the working folder) and accepted
    only with the content digest the run recorded (the start of the task key), and where an
    instance's rows recorded several paths (a merge of runs made in different folders) the
    first found, in the paths' order, serves them all. A ``run_folder`` column (rows of
    several runs prepared together) gives each row its own run folder instead of ``folder``."""
    paths = t["instance_path"].fillna("").astype(str)
    where = (t["run_folder"].fillna("").astype(str) if "run_folder" in t
             else pd.Series(str(folder or ""), index=t.index))
    asked = list(zip(paths, content_digests(t), where, strict=True))
    found: dict[Any, tuple[str | None, str]] = {}
    for w in sorted(set(where)):
        mine = sorted({(p, d) for p, d, x in asked if x == w})
        found.update({(*k, w): v for k, v in located.states(mine, w or None).items()})
    keys = list(zip(t["puzzle"], t["instance"], strict=True))
    first: dict[tuple[Any, Any], tuple[str, str]] = {}
    for key, pd_ in sorted(zip(keys, asked, strict=True), key=lambda kp: kp[1]):
        f, state = found[pd_]
        if key not in first or (not first[key][0] and (f or state == located.CHANGED)):
            first[key] = (f or "", state)
    fams = {key: family(str(key[1]), f or None) for key, (f, _) in first.items()}
    return (pd.Series([first[k][0] for k in keys], index=t.index, dtype=object),
            pd.Series([fams[k] for k in keys], index=t.index, dtype=object),
            pd.Series([first[k][1] for k in keys], index=t.index, dtype=object))


def unread_note(t: pd.DataFrame) -> list[str]:
    """The report's one warning on instances whose files were found nowhere or only changed
    since the run (:func:`families`), counted once per puzzle and instance; none where every
    file was read."""
    if "instance_state" not in t or t.empty:
        return []
    per = t.drop_duplicates(["puzzle", "instance"])["instance_state"]
    note = located.unmatched_note(int((per == located.MISSING).sum()),
                                  int((per == located.CHANGED).sum()))
    return [note] if note else []


def found_paths(t: pd.DataFrame) -> pd.Series:
    """Per row, its instance's file as :func:`prepare` found it from the run folder, else the
    path as recorded."""
    recorded = t["instance_path"].fillna("").astype(str)
    if "instance_file" not in t:
        return recorded
    found = t["instance_file"].fillna("").astype(str)
    return found.where(found != "", recorded)


def _source(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if not line.strip():
                    break
                if line.lower().startswith(("source:", "licence:")):
                    return line.lower()
    except OSError:
        pass
    return ""


def prepare(df: pd.DataFrame, folder: str | Path | None = None) -> pd.DataFrame:
    """Task rows (not unreadable-instance rows) with the columns the report compares:

    - ``pair`` "formulation / solver", ``form`` the formulation without its variant;
    - ``ok``: a correct answer: solved, or infeasible where no exact formulation solved the
      instance; an inexact formulation's infeasible (``exact`` False: it may miss solutions)
      only where an exact formulation also answered infeasible on the instance, else it is
      unanswered (not wrong: "none found" is no claim of infeasibility);
      ``disagree``: infeasible although another exact formulation solved the instance;
    - ``time_s`` build + solve where ok and both were measured, NaN otherwise; ``par2_s`` the
      same with unsolved at PAR_K x the time limit (every unanswered status alike: timeout,
      memout, error, wrong), NaN for a task its formulation declined (:func:`was_declined`: no
      time, never a failure); ``untimed`` an ok row whose build or solve time is missing: no
      measurement, its ``time_s`` and ``par2_s`` NaN, never 0 s (:mod:`bench.report.untimed`);
      ``cells``; ``family`` (:func:`families`); ``instance_file`` the instance's file as
      found from the run folder ``folder`` (:mod:`bench.report.located`; without one, under
      the project root only) with the content the run recorded, "" where none is found;
      ``instance_state`` what that lookup found (:func:`families`); ``mem_mb`` the task's
      own peak RSS;
    - ``tier``: the row's suite tier, else one from its family (:func:`tier_of_family`);
    - ``origin``: ``ours`` or the peer package the formulation calls, one per pair
      (:func:`origins`).
    """
    t = df[df["formulation"].fillna("-") != "-"].copy()
    if t.empty:
        return t
    t["instance"] = distinct_names(t)
    t["pair"] = t["formulation"] + " / " + t["solver"]
    t["form"] = t["formulation"].str.split("[").str[0]
    t["origin"] = origins(t)
    solved_by_exact = t[(t["status"] == "solved") & t["exact"].fillna(True).astype(bool)
                        & (t["checked"].fillna(True).astype(bool))].groupby("instance").size()
    t["disagree"] = (t["status"] == "infeasible") & t["instance"].isin(solved_by_exact.index)
    wrong = (t["status"] == "wrong") | t["known"].eq(False) | t["checked"].eq(False)
    t["wrong"] = wrong
    exact = t["exact"].fillna(True).astype(bool)
    infeasible = t["status"] == "infeasible"
    by_exact = t[infeasible & exact].groupby("instance").size()
    unproven = infeasible & ~exact & ~t["instance"].isin(by_exact.index)
    t["ok"] = t["status"].isin(("solved", "infeasible")) & ~t["disagree"] & ~wrong & ~unproven
    own = t["build_s"].astype(float) + t["solve_s"].astype(float)  # NaN: a part not measured
    t["untimed"] = missing(t, t["ok"])
    limit = t["time_limit"].astype(float)
    t["time_s"] = np.where(t["ok"], own, np.nan)
    t["par2_s"] = np.where(t["ok"], own, np.where(was_declined(t), np.nan, PAR_K * limit))
    t["cells"] = t["rows"].astype(float) * t["cols"].astype(float)
    t["instance_file"], t["family"], t["instance_state"] = families(t, folder)
    base = t["base_rss_mb"].astype(float).fillna(0)
    t["mem_mb"] = t["peak_rss_mb"].astype(float) - base
    tier = t["tier"].fillna("").astype(str) if "tier" in t else pd.Series("", index=t.index)
    t["tier"] = tier.where(tier != "", t["family"].map(tier_of_family))
    return t


def origins(t: pd.DataFrame) -> pd.Series:
    """Each row's origin: ``ours`` or the peer package its formulation calls. One origin per
    puzzle, formulation and solver: the one its rows recorded, which also holds for its rows
    written before origins were recorded; a pair with no recorded origin follows
    :func:`bench.records.row_origin`'s rule for such rows (as does a frame without the
    column). Where its rows give several, a peer before ``ours``, then by name: the answer
    never depends on the rows' order, and reading a prepared frame again changes nothing."""
    none = pd.Series(None, index=t.index, dtype=object)
    keys = list(zip(t.get("puzzle", none), t.get("formulation", none), t.get("solver", none),
                    strict=True))
    recorded: dict[tuple[Any, Any, Any], str] = {}
    older: dict[tuple[Any, Any, Any], str] = {}
    for key, o, k, f in zip(keys, t.get("origin", none), t.get("kind", none),
                            t.get("formulation", none), strict=True):
        into, value = (recorded, o) if isinstance(o, str) and o else (older, row_origin(o, k, f))
        prev = into.get(key)
        into[key] = value if prev is None else min(prev, value, key=lambda x: (x == OURS, x))
    return pd.Series([recorded.get(key) or older[key] for key in keys], index=t.index,
                     dtype=object)


def content_digests(t: pd.DataFrame) -> pd.Series:
    """Each row's instance content digest, the start of its task key ("" for a row without
    a key)."""
    if "key" not in t:
        return pd.Series("", index=t.index, dtype=object)
    return t["key"].fillna("").astype(str).str.split("|").str[0]


def distinct_names(t: pd.DataFrame) -> pd.Series:
    """Instance names that tell instances apart: where one puzzle's name belongs to files of
    different content (a generator's name in two folders), each such name gets its folder,
    ``"gen-nurikabe-20x20-s1-0 (sparse)"``; where one file held different contents (it
    changed between the runs that measured it), every content but the latest measured (the
    least digest among equally late ones) also gets 8 hex digits of its digest,
    ``"x@5f97a0c1"``: never pooled. An instance is known by
    the content digest that starts its task key (the path for keys without one)."""
    path = t["instance_path"].fillna("").astype(str)
    ident = content_digests(t)
    ident = ident.where(ident.str.startswith("sha256:"), path)
    shared = ident.groupby([t["puzzle"], t["instance"]]).transform("nunique") > 1
    folder = path.map(lambda p: Path(p).parent.name)
    folders = folder.groupby([t["puzzle"], t["instance"]]).transform("nunique") > 1
    names = t["instance"].where(~(shared & folders), t["instance"] + " (" + folder + ")")
    when = t["finished"].fillna("").astype(str) if "finished" in t else pd.Series("", t.index)
    rows = pd.DataFrame({"p": t["puzzle"], "n": names, "i": ident, "w": when})
    contents = rows.groupby(["p", "n", "i"])["w"].max().reset_index()
    newest = contents.sort_values(["w", "i"], ascending=[False, True]).drop_duplicates(["p", "n"])
    kept = set(zip(newest["p"], newest["n"], newest["i"], strict=True))
    older = pd.Series([k not in kept for k in zip(rows["p"], rows["n"], rows["i"], strict=True)],
                      index=t.index) & ident.str.startswith("sha256:")
    return names.where(~older, names + "@" + ident.str.removeprefix("sha256:").str[:8])


def tier_of_family(fam: str) -> str:
    """The tier of a row run outside a tiered suite (or before rows carried one): ``seeds``,
    ``real``, ``generated`` or ``other``, from its family."""
    return {"seed": "seeds", "generated": "generated"}.get(
        fam, "real" if fam.startswith("real") else "other")


def sgm(values: pd.Series | np.ndarray, shift: float = SGM_SHIFT_S) -> float:
    """Shifted geometric mean: exp(mean(log(v + shift))) - shift."""
    v = pd.Series(values, dtype=float).dropna()
    if v.empty:
        return float("nan")
    return float(np.exp(np.mean(np.log(v + shift))) - shift)


def did_not_run(t: pd.DataFrame) -> pd.Series:
    """Per task row: True where the task did not run: a timeout recorded by a suite's ladder
    rule (message starting :data:`bench.records.NOT_RUN`), or an error recorded without a
    process (no wall time and no start: a variant that cannot run here)."""
    msg = t["message"].fillna("").astype(str) if "message" in t else pd.Series("", index=t.index)
    ladder = msg.str.startswith(NOT_RUN)
    if "wall_s" not in t or "start" not in t:
        return ladder
    unstarted = t["status"].eq("error") & t["wall_s"].isna() & t["start"].fillna("").eq("")
    return ladder | unstarted


def ran(t: pd.DataFrame) -> pd.DataFrame:
    """The task rows that ran (:func:`did_not_run` dropped), declined ones included."""
    return t[~did_not_run(t)] if len(t) else t


def was_declined(t: pd.DataFrame) -> pd.Series:
    """Per task row: True where the formulation declined the instance (status ``skipped``:
    :meth:`bench.registry.Formulation.skip`; ASlib's run status ``not_applicable``, "this
    algorithm can't be run on this instance", a status apart from timeout, memout and crash)
    and the task ran (a row :func:`did_not_run` is not run, whatever its status)."""
    if not len(t):
        return pd.Series(False, index=t.index, dtype=bool)
    return t["status"].eq("skipped") & ~did_not_run(t)


def attempted(t: pd.DataFrame, timed: bool = True) -> pd.DataFrame:
    """The task rows every time, count and test is computed from: the tasks that ran, whose
    formulation attempted the instance and (``timed``) that are timed (:func:`did_not_run`,
    :func:`was_declined` and :func:`bench.report.untimed.kept` dropped; the untimed answers
    counted for :func:`per_instance`). A declined instance and an answer without its time
    are no measurement of the pair: neither a time nor a failure, so two pairs are compared
    only on the instances both were measured on."""
    t = t[~did_not_run(t) & ~was_declined(t)] if len(t) else t
    return kept(t, [k for k in KEYS if k in t]) if timed and len(t) else t


def declines(t: pd.DataFrame) -> pd.Series:
    """Per pair: the instances it declined among the rows ``t`` (none: no entry)."""
    d = t[was_declined(t)]
    return d.groupby("pair")["instance"].nunique() if len(d) else pd.Series(dtype=int)


#: the columns of a pair's instance, which :func:`per_instance` folds the samples of
KEYS = ["puzzle", "form", "formulation", "solver", "kind", "origin", "pair", "instance",
        "family", "tier", "cells"]


def per_instance(t: pd.DataFrame) -> pd.DataFrame:
    """One row per (puzzle, pair, instance): repeats and seeds folded to the median PAR-2 time,
    ``ok`` when a strict majority of the repeats answered correctly (exactly half is
    unanswered: the median of such an even count lies between an answer and a failure, above
    the limit), ``spread`` max/min time, ``wrong`` the wrong or disagreeing answers,
    ``timeouts``/``memouts``/``errors`` the repetitions that ended so, ``n`` every timed one.
    An error is no measurement: where an instance has other repetitions its errors are left
    out of the fold (time, ``ok``), and one whose every repetition errored (``errors == n``)
    is missing from the verdicts' comparisons (:mod:`bench.report.invalid`), while a timeout
    or memout is a time censored at the limit there. An untimed answer is a sample but no
    measurement: the status counts every sample that answered, timed or not
    (``untimed_beside`` the untimed ones), the time only the timed samples; where every
    answering sample is untimed the instance is untimed for the pair, with no row (the rule
    in full: :func:`bench.report.untimed.settle`)."""
    st = t["status"]
    t = t.assign(_wrong=t["wrong"] | t["disagree"], _to=st.eq("timeout"), _mo=st.eq("memout"),
                 _er=st.eq("error"), _sk=st.eq("skipped"))
    by = [k for k in KEYS if k in t]
    t = kept(t, by)
    if len(t):  # an error beside other repetitions of its instance: out of the fold
        t = out_of_fold(t, by)[0]
    t = t.assign(_ans=t["par2_s"].where(t["ok"].eq(True)), _nu=t.get("untimed_beside", 0))
    g = t.groupby(by, sort=False, dropna=False)
    out = g.agg(par2_s=("par2_s", "median"), ok_sum=("ok", "sum"), ok_n=("ok", "count"),
                n=("ok", "size"), untimed_beside=("_nu", "max"), ans_s=("_ans", "median"),
                lo=("par2_s", "min"), hi=("par2_s", "max"), time_limit=("time_limit", "max"),
                mem_mb=("mem_mb", "max"), constraints=("constraints", "max"),
                variables=("variables", "max"), wrong=("_wrong", "sum"),
                timeouts=("_to", "sum"), memouts=("_mo", "sum"),
                errors=("_er", "sum"), skipped=("_sk", "sum")).reset_index()
    out = settle(out)
    out["time_s"] = out["par2_s"].where(out["ok"])
    out["spread"] = out["hi"] / out["lo"].where(out["lo"] > 0)
    return out


def performance(t: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Instance x pair matrices of one puzzle's tier: PAR-2 seconds (NaN: not run or
    declined) and answered (bool; NaN: not run or declined)."""
    pi = per_instance(attempted(t)).assign(ok=lambda x: x["ok"].astype(float))
    par2, ok = (pi.pivot_table(index="instance", columns="pair", values=v, aggfunc="first")
                for v in ("par2_s", "ok"))
    par2.columns.name = ok.columns.name = None
    return par2, ok.reindex_like(par2)
