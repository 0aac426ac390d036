"""One puzzle's part of the report: its verdict, rankings, figures with one-line captions, the
status matrix (pair names as headers, failing pairs first), problems, peers and pictures.

Every table here is built for the page's interactive tables (:mod:`.render`): all rows, with
the instance cells linking to the instance's view; Markdown keeps the short forms.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import pandas as pd

import bench.report.efforts as efforts
import bench.report.figures as figures
import bench.report.peers as peers
import bench.report.pictures as pictures
import bench.report.tables as tables
import bench.report.vbs as vbs
import bench.report.verdicts as verdicts
import bench.report.views as views
from bench.report.data import attempted, per_instance, ran
from bench.report.files import file_name
from bench.report.render import Table
from bench.report.units import duration

MATRIX_ROWS = 30  # status-matrix rows in summary.md
PAGE_MAX = 5000  # rows of one table on the page; beyond it the results table (said so)
PROBLEM_ROWS = 15  # wrong answers, disagreements and errors in summary.md
PICTURES = 3  # example solution pictures per puzzle on the page
SCALING_PANELS = 9  # formulations in the scaling figure
#: cactus plots of the same-model view per puzzle (the models run on the most solvers first)
VIEW_FIGURES = 8
#: ranking columns a reader shows with the Columns button (the rest fit 1400 px)
RANK_HIDDEN = {"instances", "common_par2_s", "common_sgm_s", "common_median_s"}
PEER_HIDDEN = {"ours_par2_s", "peer_par2_s", "ratio_p10", "ratio_p90", "ratio_geomean"}


@dataclass
class Section:
    name: str
    verdict: str
    folded: Table
    ranking: Table
    matrix: Table  # the page's: every instance, pair names as headers
    matrix_md: Table  # summary.md's: the first MATRIX_ROWS rows, numbered columns
    matrix_key: list[tuple[str, str]]
    matrix_more: int = 0
    common: str = ""  # how many instances the common_* columns cover
    problems: Table | None = None
    problems_md: Table | None = None
    slopes: Table | None = None
    puzzle: str = ""  # the puzzle (name: puzzle-machine where a run spans machine types)
    figures: list[dict[str, str]] = field(default_factory=list)
    memory_line: str = ""
    pictures: list[dict[str, str]] = field(default_factory=list)
    extra: list[dict[str, Any]] = field(default_factory=list)
    peers: Table | None = None  # our best pair against each peer package
    peer_lines: list[str] = field(default_factory=list)
    rank: pd.DataFrame = field(default_factory=pd.DataFrame)  # for the overview
    #: the views (:mod:`.views`): per group its title, sentence, table and cactus figure
    same_model: list[dict[str, Any]] = field(default_factory=list)
    same_solver: list[dict[str, Any]] = field(default_factory=list)
    layer: Table | None = None  # each layered pair against the best native one
    layer_lines: list[str] = field(default_factory=list)
    model_lines: list[str] = field(default_factory=list)  # about the same-model view
    views_note: str = views.NOTE

    def parts(self) -> list[tuple[str, str]]:
        """(anchor, title) of the sub-sections, for the contents."""
        out = [(f"{self.name}-ranking", "ranking"), (f"{self.name}-figures", "figures")]
        if self.peers:
            out.append((f"{self.name}-peers", "peers"))
        if self.problems:
            out.append((f"{self.name}-problems", "problems"))
        out.append((f"{self.name}-status", "status per instance"))
        if self.same_model or self.same_solver:
            out.append((f"{self.name}-views", "same model / same solver"))
        if self.slopes or self.extra:
            out.append((f"{self.name}-more", "by family and size"))
        if self.pictures:
            out.append((f"{self.name}-pictures", "solutions"))
        return out


def _marks(r: pd.DataFrame) -> list[str]:
    return ["best" if b else ("tie" if t else "") for b, t in zip(r["best"], r["tie"],
                                                                  strict=True)]


def _figures(puzzle: str, t: pd.DataFrame, pi: pd.DataFrame, shown: list[str],
             rank: pd.DataFrame, scatter: list[str] | None,
             out: Path) -> tuple[list[dict[str, str]], str]:
    def png(kind: str) -> Path:
        return out / file_name(puzzle, kind, suffix=".png")

    limit = float(pi["time_limit"].max())
    many = (f"; the {figures.MAX_LINES} best formulations drawn, the other "
            f"{len(shown) - figures.MAX_LINES} in grey" if len(shown) > figures.MAX_LINES
            else "")
    made: list[tuple[Path, str]] = [
        (figures.cactus(pi, shown, limit, png("cactus")),
         "Cactus: the further right and lower a line, the more instances a formulation solves "
         f"and the faster (best variant per formulation; grey band: the virtual best{many})."),
        (figures.profile(pi, shown, png("profile")),
         "Performance profile: the higher a line at tau, the more instances it solves within "
         "tau times the fastest shown formulation's time."),
        (figures.scaling(pi, shown[:SCALING_PANELS], limit, png("scaling")),
         "Growth: time against cells per formulation (log-log); a steeper cloud grows faster "
         "with size; open triangles: no answer within the limit."),
    ]
    mem = figures.memory(t, shown, png("memory"))
    line = figures.memory_line(figures.memory_peaks(t, shown[:figures.MAX_LINES]),
                               figures.memory_peaks(t, sorted(set(t["pair"]))))
    if mem is not None:
        made.append((mem, "Memory: the peak of each task's process tree per formulation; "
                          "boxes further right need more memory."))
    a, b = (scatter or [])[:2] if scatter and len(scatter) >= 2 else (None, None)
    if a is None and len(rank) >= 2:
        a, b = rank["pair"].iloc[0], rank["pair"].iloc[1]
    if a in set(pi["pair"]) and b in set(pi["pair"]):
        made.append((figures.scatter(pi, str(a), str(b), limit, png("scatter")),
                     f"Per instance: below the diagonal {b} is faster than {a}; open squares "
                     "had no answer within the limit."))
    return [{"src": p.name, "alt": f"{puzzle}: {cap.split(':')[0]}", "caption": cap,
             "cls": "wide" if "scaling" in p.name else "", "width": _css_width(p)}
            for p, cap in made], line


def _css_width(png: Path) -> str:
    """The width a figure is shown at on the page: its pixel width (from the PNG header) /
    figures.SCALE, so its SCALE x pixels are drawn sharp and its text at the size it was set
    in; "" (the browser's choice) for a file that is no PNG."""
    try:
        with png.open("rb") as f:
            head = f.read(24)
    except OSError:
        return ""
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n":
        return ""
    return str(int.from_bytes(head[16:20], "big") // figures.SCALE)


def _pictures(puzzle: str, t: pd.DataFrame, out: Path) -> list[dict[str, str]]:
    ok = t[(t["status"] == "solved") & t["ok"] & t["grid"].notna()]
    ok = ok.sort_values("cells", ascending=False).drop_duplicates("family")
    ok = ok.drop_duplicates("instance").head(PICTURES)
    pics = []
    for _, row in ok.iterrows():
        name = file_name(puzzle, str(row["instance"]), suffix=".svg")
        title = f"{row['instance']} solved by {row['pair']}"
        found = row.get("instance_file") or None  # the file as found from the run folder
        (out / name).write_text(pictures.svg(puzzle, row["grid"], found, title),
                                encoding="utf-8")
        pics.append({"src": name, "alt": title, "instance": str(row["instance"]),
                     "caption": f"{title} ({row['family']})"})
    return pics


def _matrix(puzzle: str, t: pd.DataFrame,
            rank: pd.DataFrame) -> tuple[Table, Table, list[tuple[str, str]], int]:
    m = tables.status_matrix(t)
    ranked = [p for p in rank["pair"] if p in m.columns]
    ranked += [p for p in m.columns if p not in ranked and p not in ("instance", "family")]
    fails = {p: int((~m[p].fillna("").astype(str).str.replace("N", "").isin(
        ["S", "I", "IS", "K", ""])).sum()) for p in ranked}  # N (not run) is no failure
    order = sorted(ranked, key=lambda p: (-fails[p], ranked.index(p)))  # failing pairs first
    page = Table.of(m[["instance", "family", *order]], limit=PAGE_MAX, puzzle=puzzle,
                    labels={p: p for p in order})
    key = [(str(i + 1), p) for i, p in enumerate(ranked)]
    md = m[["instance", "family", *ranked]].rename(columns={p: k for k, p in key})
    return page, Table.of(md.head(MATRIX_ROWS)), key, max(0, len(m) - MATRIX_ROWS)


def section(puzzle: str, t: pd.DataFrame, out: Path, scatter: list[str] | None,
            instances: list[str] | None, machine: tuple[str, str] | None = None) -> Section:
    """One puzzle's section (only its status grid shows tasks that did not run, N, and those
    their formulation declined, K; the ranking counts the declined ones); ``machine`` (id,
    label): the part of a multi-machine run that ran there, named ``puzzle-id``."""
    name = f"{puzzle}-{machine[0]}" if machine else puzzle
    rank = tables.ranking(t)  # over the tasks attempted
    page_matrix, md_matrix, key, more = _matrix(puzzle, t, rank)
    every = ran(t)  # with the declined tasks: the virtual best's tables count them
    whole = t  # with the tasks not run: their reasons
    t = attempted(t)
    pi = per_instance(t)
    fold = tables.folded(rank)
    shown = list(fold["pair"])
    cols = tables.rank_columns(rank)
    hidden = RANK_HIDDEN | {c for c in ("iterations", "setup_s") if c in rank and
                            (rank[c].isna() | (rank[c].astype(str) == "")).all()}
    verdict = tables.verdict(puzzle, t, rank, whole)
    sec = Section(name, f"On {machine[1]}: {verdict}" if machine else verdict,
                  Table.of(fold, cols, marks=_marks(fold), hidden=hidden),
                  Table.of(rank, cols, marks=_marks(rank), hidden=hidden), page_matrix,
                  md_matrix, key, more, common=tables.common_note(rank))
    probs = tables.problems(t)  # wrong and disagreeing first
    if len(probs):
        sec.problems = Table.of(probs, limit=PAGE_MAX, puzzle=puzzle)
        sec.problems_md = Table.of(probs, limit=PROBLEM_ROWS)
    fam = tables.by_family(pi, shown)
    if len(fam) and fam["family"].nunique() > 1:
        sec.extra.append({"title": "Per instance family (best variant per formulation)",
                          "table": Table.of(fam)})
    sec.extra.extend(vbs.extra(puzzle, every))  # the virtual best per tier, each pair's share
    sec.extra.extend(efforts.extra(puzzle, t))
    sl = tables.slopes(pi, shown)
    sec.slopes = Table.of(sl) if len(sl) else None
    sec.rank, sec.puzzle = rank, puzzle
    sec.figures, sec.memory_line = _figures(name, t, pi, shown, rank, scatter, out)
    sec.pictures = _pictures(puzzle, t, out)
    vs = peers.versus(pi, rank)
    if len(vs):
        sec.peers = Table.of(vs, peers.COLUMNS, hidden=PEER_HIDDEN)
        sec.peer_lines = peers.verdict(vs)
        peer_png = out / file_name(name, "peers", suffix=".png")
        peers.figure(pi, vs, peer_png)
        sec.figures.append({"src": peer_png.name, "width": _css_width(peer_png),
                            "alt": f"{name}: ratio against the peers",
                            "caption": "Peers: right of the dotted line ours is faster; the "
                                       "further right a line, the larger our lead (ratio "
                                       "peer / ours per instance both answered)."})
    if instances:
        sec.extra.extend(_selected(puzzle, t, instances))
    _views(sec, name, every, out)
    return sec


def _view_table(v: views.View) -> Table:
    marks = ["best" if x == "best" else "tie" if x.startswith(verdicts.EQUIVALENT) else ""
             for x in v.table["verdict"]]
    return Table.of(v.table, marks=marks)


def _views(sec: Section, name: str, t: pd.DataFrame, out: Path) -> None:
    """The same-model and same-solver views of a section (``t``: its tasks that ran, declined
    ones included: the views leave them out and count them): each group's table, and for the
    VIEW_FIGURES models run on the most solvers a cactus plot of its solvers."""
    every, t = t, attempted(t)
    model = views.same_model(every)
    drawn = {v.key for v in sorted(model, key=lambda v: (-len(v.pairs), v.key))[:VIEW_FIGURES]}
    for v in model:
        fig: dict[str, str] | None = None
        if v.key in drawn:
            pi = per_instance(t[t["formulation"] == v.key])
            png = figures.cactus(pi, v.pairs, float(pi["time_limit"].max()),
                                 out / file_name(name, "cactus", v.key, suffix=".png"))
            fig = {"src": png.name, "width": _css_width(png),
                   "alt": f"{name}: cactus of {v.key} on its solvers",
                   "caption": f"Cactus of {v.key} on each solver: the further right and lower a "
                              "line, the more instances that solver solves with this one model "
                              "and the faster (grey band: the virtual best of these solvers)."}
        sec.same_model.append({"title": v.title, "lines": v.lines, "table": _view_table(v),
                               "figure": fig})
    if len(model) > len(drawn):
        sec.model_lines.append(f"{len(model) - len(drawn)} model(s) without a cactus plot: the "
                               f"{VIEW_FIGURES} run on the most solvers have one.")
    sec.same_solver = [{"title": v.title, "lines": v.lines, "table": _view_table(v),
                        "figure": None} for v in views.same_solver(every)]
    layer, sec.layer_lines = views.layer_cost(every)
    sec.layer = Table.of(layer) if len(layer) else None


def views_markdown(sec: Section) -> list[str]:
    """The section's views as summary.md lines (none when it has none)."""
    md: list[str] = []
    for title, groups in (("Same model, different solvers", sec.same_model),
                          ("Same solver, different models", sec.same_solver)):
        if not groups:
            continue
        md += [f"### {sec.name}: {title}", ""]
        if groups is sec.same_model and sec.model_lines:
            md += [*sec.model_lines, ""]
        if groups is sec.same_solver and sec.layer:
            md += [*[f"- {x}" for x in sec.layer_lines], "", sec.layer.markdown(), ""]
        for g in groups:
            md += [f"#### {g['title']}", "", *g["lines"], "", g["table"].markdown(), ""]
            if g["figure"]:
                md += [f"![{g['figure']['alt']}]({g['figure']['src']})", ""]
        md += [sec.views_note, ""]
    return md


def _selected(puzzle: str, t: pd.DataFrame, instances: list[str]) -> list[dict]:
    """The per-instance table of the instances matching ``instances`` (build + solve s, or
    the status where unanswered), as one extra table, or none when nothing matches."""
    sel = t[t["instance"].map(lambda n: any(fnmatch(n, p) for p in instances))]
    if not len(sel):
        return []
    cell = [duration(v) if ok else st for v, ok, st in
            zip(sel["time_s"], sel["ok"], sel["status"], strict=True)]
    tab = sel.assign(cell=cell).pivot_table(
        index="instance", columns="pair", values="cell", aggfunc="first").reset_index()
    tab.columns.name = None
    return [{"title": f"Per instance ({', '.join(instances)}): build + solve",
             "table": Table.of(tab.fillna("–"), puzzle=puzzle,
                               labels={c: c for c in tab.columns if c != "instance"})}]
