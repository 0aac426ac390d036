"""MkDocs hooks: the pages that must not drift are generated at build time.

* ``cli.md``: the command-line reference, from :func:`bench.cli.parser` (the real argparse
  parser, so a new command or flag appears without anyone writing it down);
* ``catalogue.md``: every puzzle x formulation x variant with kind, exactness, laziness and
  description, from the plugin registry (:mod:`bench.registry`), built-in and installed plugins;
* ``changelog.md``: ``CHANGELOG.md`` of the repository, as it is;
* ``quickstart.md``: the README's "Quick start" section, as it is (the commands
  ``tests/docs/test_quickstart.py`` runs);
* ``reports/<run>/``: the report of every run a page links to (``../reports/<run>/index.html``
  from ``docs/results/``), rendered by ``puzzlebench report`` from the run's committed data in
  ``results/<run>/`` (``results.parquet``, ``environment.json``, ``constraints.txt`` and
  ``report.json``, the report's ``--instance``/``--scatter`` options), in parallel, one process
  a core, into a cache (``.cache/docs-reports/``, or ``$PUZZLEBENCH_DOCS_CACHE``) keyed by a
  digest of the data, of every file under ``bench/`` and of the instance files the run read:
  a rebuild renders only what changed. A run with no data but a committed page folder under
  ``reports/`` (made before runs kept their table) is copied as it is; a link to a run with
  neither stops the build;
* ``img/report.png``: the first screen of the headline run's report (the latest
  ``results/default-*``), shot with headless Chromium when one is installed (else the committed
  picture stays); ``python docs/hooks.py picture`` writes the committed one, which the README
  shows.

Links from a page to a file of the repository outside ``docs/`` (``../../results/X/``,
``../CHANGELOG.md``) are written as they work when the Markdown is read in the repository. For the
site, a link to a missing file stops the build (so it cannot rot); a link to an existing file is
rewritten to a copy of it under ``repo/`` in the site, and a link to ``CHANGELOG.md`` to the
changelog page; other Markdown outside ``docs/`` cannot be linked.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import logging
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files, InclusionLevel

log = logging.getLogger("mkdocs.hooks.puzzlebench")

ROOT = Path(__file__).resolve().parent.parent
GENERATED = {"cli.md", "catalogue.md", "changelog.md", "quickstart.md"}
# [text](target) with a relative target; images too (the leading ! is outside the match)
LINK = re.compile(r"\]\((?!https?:|mailto:|#|/)([^)\s]+?)(#[^)\s]*)?\)")


# --- generated pages ----------------------------------------------------------------------------


def cli_page() -> str:
    """One section per command: its help as argparse prints it, at a fixed width."""
    os.environ["COLUMNS"] = "90"  # argparse's formatter reads the width from here
    from bench.cli import parser

    p = parser()
    sub = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))
    helps = {c.dest: (c.help or "").replace("<", "&lt;") for c in sub._choices_actions}
    opts = [a for a in p._actions if a is not sub and a.option_strings]
    out = [
        "# Command line",
        "",
        "Generated when the site is built, from the parser `puzzlebench` itself uses "
        "(`bench.cli.parser()`): every command and flag of this version, nothing written by "
        "hand.",
        "",
        "```text",
        p.format_usage().rstrip(),
        "```",
        "",
        "| command | what it does |",
        "|---|---|",
        *(f"| [`{n}`](#puzzlebench-{n}) | {helps.get(n, '')} |" for n in sub.choices),
        "",
        "Options before the command: "
        + "; ".join(f"`{', '.join(a.option_strings)}` {a.help or ''}".strip() for a in opts)
        + ".",
        "",
    ]
    for name, sp in sub.choices.items():
        out += [f"## `puzzlebench {name}`", ""]
        if helps.get(name):
            out += [helps[name][0].upper() + helps[name][1:] + ".", ""]
        out += ["```text", sp.format_help().rstrip(), "```", ""]
    return "\n".join(out)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def catalogue_page() -> str:
    """Per puzzle: the formulations (kind, default variant, description), then every variant."""
    from bench.registry import formulations
    from bench.variants import variant_info

    forms = formulations()
    total = sum(len(variant_info(c)) for c in forms)
    out = [
        "# Formulation catalogue",
        "",
        f"Generated from the plugin registry when the site is built: {len(forms)} formulations, "
        f"{total} variants (every point of each formulation's parameter grid). `puzzlebench "
        "list` prints the same table for the formulations installed where it runs. *Exact*: "
        "finds a solution whenever one exists; *lazy*: adds cuts after each solver answer "
        "and solves again.",
        "",
        "The seed formulations (`mip-seed`, `mip-sugar`, `cpsat-seed`, `cpsat-sugar`) port "
        "published models faithfully, their constraint names kept in comments; where a seed is "
        "stricter or weaker than the puzzle's rules, its module docstring (under *method* below) "
        "says how, a test shows it, and a variant (where one exists) makes the smallest change "
        "that fixes it. Each formulation's method is its module's docstring, shown as written.",
        "",
    ]
    for puzzle in sorted({c.puzzle for c in forms}):
        mine = [c for c in forms if c.puzzle == puzzle]
        out += [f"## {puzzle}", "", "| formulation | kind | variants | aliases | description |",
                "|---|---|---|---|---|"]
        for c in mine:
            aliases = ", ".join(f"`{a}`" for a in c.aliases) or ""
            desc = " ".join(c.description.split()).replace("|", "\\|")
            if c.requires:
                desc += f" (needs `{', '.join(c.requires)}`: {c.install_hint})"
            out.append(f"| `{c.name}` | {c.kind} | {len(variant_info(c))} | {aliases} | "
                       f"{desc} |")
        out += ["", "| variant | kind | exact | lazy |", "|---|---|---|---|"]
        for c in mine:
            for i, v in enumerate(variant_info(c)):
                default = " (default)" if i == 0 and len(c.parameters) else ""
                out.append(f"| `{v.label}`{default} | {c.kind} | {_yes(v.exact)} | "
                           f"{_yes(v.lazy)} |")
        out.append("")
        for c in mine:
            doc = inspect.getdoc(inspect.getmodule(c)) or c.description
            out += [f'??? note "`{c.name}` ({c.kind}): method"', "",
                    "    ```text", *(f"    {line}".rstrip() for line in doc.splitlines()),
                    "    ```", ""]
    return "\n".join(out)


def changelog_page() -> str:
    return (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


def quickstart_page() -> str:
    """The README's "## Quick start" section up to the next level-2 heading."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    try:
        start = lines.index("## Quick start")
    except ValueError:
        raise PluginError("README.md: no '## Quick start' section for quickstart.md") from None
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")),
               len(lines))
    return "\n".join(["# Quick start", *lines[start + 1:end]]) + "\n"


def on_files(files: Files, config: Any) -> Files:
    for name, make in (("cli.md", cli_page), ("catalogue.md", catalogue_page),
                       ("changelog.md", changelog_page), ("quickstart.md", quickstart_page)):
        if files.get_file_from_path(name) is not None:
            raise PluginError(f"docs/{name} is generated at build time; remove the file")
        files.append(File.generated(config, name, content=make()))
    docs = Path(config["docs_dir"]).resolve()
    runs = linked_reports(docs)
    head = headline()
    folders = render_all(sorted(set(runs) | ({head} if head else set())), cache_dir())
    for run in runs:
        for f in sorted(folders[run].rglob("*")):
            if f.is_file() and f.suffix != ".md":  # summary.md would be a page to render
                uri = f"reports/{run}/{f.relative_to(folders[run]).as_posix()}"
                files.append(File.generated(config, uri, abs_src_path=str(f),
                                            inclusion=InclusionLevel.NOT_IN_NAV))
    png = picture(folders[head]) if head else None
    if png is not None:
        old = files.get_file_from_path(PICTURE)
        if old is not None:
            files.remove(old)
        files.append(File.generated(config, PICTURE, abs_src_path=str(png)))
    return files


# --- reports rendered from the committed run data -----------------------------------------------

RESULTS = ROOT / "results"
PAGES = ROOT / "reports"  # reports kept as pages: runs from before a run kept its table
#: the files of a run folder a report is rendered from (what is committed of a run)
DATA = ("results.parquet", "environment.json", "constraints.txt", "report.json")
#: report.json: the options of `puzzlebench report` for this run
OPTIONS = {"instance": "--instance", "scatter": "--scatter"}
PICTURE = "img/report.png"
#: the picture's viewport: the report's first screen
SHOT = (1400, 900)


def cache_dir() -> Path:
    return Path(os.environ.get("PUZZLEBENCH_DOCS_CACHE") or ROOT / ".cache" / "docs-reports")


def linked_reports(docs: Path) -> dict[str, str]:
    """Every run a docs page links a report of (``reports/<run>/...`` in the site), with the
    first page that links it."""
    found: dict[str, str] = {}
    for page in sorted(docs.rglob("*.md")):
        here = page.parent
        for m in LINK.finditer(page.read_text(encoding="utf-8")):
            target = Path(os.path.normpath(here / m.group(1)))
            if target.is_relative_to(docs / "reports"):
                parts = target.relative_to(docs / "reports").parts
                if len(parts) >= 2:
                    found.setdefault(parts[0], page.relative_to(docs).as_posix())
                else:
                    raise PluginError(f"docs/{page.relative_to(docs)}: a link to {m.group(1)} "
                                      "(link a file of the report: reports/<run>/index.html)")
    return found


def headline() -> str | None:
    """The latest default-suite run with data (run names sort by their time stamp)."""
    runs = sorted(p.parent.name for p in RESULTS.glob("default-*/results.parquet"))
    return runs[-1] if runs else None


@cache
def _code_digest() -> bytes:
    """Every file under bench/ (the report's code and everything it reads)."""
    h = hashlib.sha256()
    for f in sorted((ROOT / "bench").rglob("*")):
        if f.is_file() and "__pycache__" not in f.parts:
            h.update(f.relative_to(ROOT).as_posix().encode() + b"\0" + f.read_bytes())
    return h.digest()


def _instance_paths(table: Path) -> list[str]:
    import pyarrow.parquet as pq

    try:
        col = pq.read_table(table, columns=["instance_path"]).column(0).to_pylist()
    except Exception:  # another schema or a damaged table: the report says which
        return []
    return sorted({p for p in col if isinstance(p, str) and p})


def report_key(data: Path) -> str:
    """The digest a rendered report is cached under: the run's data, the code under bench/,
    and the content of every instance file the run names that exists here (its pictures)."""
    h = hashlib.sha256(_code_digest())
    for name in DATA:
        f = data / name
        if f.is_file():
            h.update(name.encode() + b"\0" + f.read_bytes())
    table = data / "results.parquet"
    for p in _instance_paths(table) if table.is_file() else []:
        f = (ROOT / p) if not os.path.isabs(p) else Path(p)
        h.update(p.encode() + b"\0" + (f.read_bytes() if f.is_file() else b"-"))
    return h.hexdigest()[:16]


def report_options(data: Path) -> list[str]:
    """The `puzzlebench report` flags in ``report.json`` (none when it is missing)."""
    path = data / "report.json"
    if not path.exists():
        return []
    try:
        opts = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        raise PluginError(f"{path}: not JSON ({e})") from None
    ok = isinstance(opts, dict) and all(
        k in OPTIONS and isinstance(v, list) and all(isinstance(x, str) for x in v)
        for k, v in opts.items())
    if not ok:
        raise PluginError(f"{path}: expected an object of string lists "
                          f"with keys among {sorted(OPTIONS)}")
    return [a for k, v in opts.items() for x in v for a in (OPTIONS[k], x)]


def render(data: Path, cache: Path) -> Path:
    """The folder of the report of the run folder ``data``: from the cache when its key is
    there, else written by `puzzlebench report` (this tree's code, run from the repository
    root, where the run's instance paths are) and stored under the key, the run's older keys
    removed."""
    run = data.name
    key = report_key(data)
    done = cache / f"{run}-{key}"
    if (done / "index.html").is_file():
        return done
    cache.mkdir(parents=True, exist_ok=True)
    options = report_options(data)
    tmp = Path(tempfile.mkdtemp(prefix=f".{run}-", dir=cache))
    cmd = [sys.executable, "-m", "bench.cli", "report", str(data), "--out", str(tmp), *options]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    if p.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        why = (p.stderr.strip() or p.stdout.strip()).splitlines()[-1:] or ["no output"]
        raise PluginError(f"{data}: `puzzlebench report` failed: {why[0]}")
    stale = re.compile(re.escape(run) + r"-[0-9a-f]{16}(\.png)?")
    for old in cache.iterdir():
        if stale.fullmatch(old.name):
            if old.is_dir():
                shutil.rmtree(old, ignore_errors=True)
            else:
                old.unlink()
    tmp.rename(done)
    return done


def source(run: str) -> Path:
    """Where the report of a linked run comes from: its data folder ``results/<run>/``, else a
    committed page folder ``reports/<run>/``; neither stops the build."""
    if (RESULTS / run / "results.parquet").is_file():
        return RESULTS / run
    if (PAGES / run / "index.html").is_file():
        return PAGES / run
    raise PluginError(f"a docs page links the report of {run}, but results/{run}/ holds no "
                      "results.parquet to render it from")


def render_all(runs: Iterable[str], cache: Path) -> dict[str, Path]:
    """Each run's report folder (:func:`source`, rendered by :func:`render`), as many
    rendered at once as there are cores."""
    where = {r: source(r) for r in runs}
    data = [r for r, p in where.items() if p.parent == RESULTS]
    todo = [r for r in data
            if not (cache / f"{r}-{report_key(where[r])}" / "index.html").is_file()]
    if todo:
        log.info("rendering %d reports from results/ (%d cached in %s)", len(todo),
                 len(data) - len(todo), cache)
    with ThreadPoolExecutor(max_workers=max(1, os.cpu_count() or 1)) as pool:
        done = dict(zip(data, pool.map(lambda r: render(where[r], cache), data), strict=True))
    return {r: done.get(r, p) for r, p in where.items()}


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        if path := shutil.which(name):
            return path
    return None


def shoot(report: Path, png: Path) -> bool:
    """The first screen (:data:`SHOT`) of ``report/index.html`` into ``png`` with headless
    Chromium; False when there is no Chromium or it wrote no picture."""
    exe = chromium()
    if exe is None:
        return False
    png.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               "--no-first-run", f"--user-data-dir={profile}", "--virtual-time-budget=10000",
               f"--window-size={SHOT[0]},{SHOT[1]}", f"--screenshot={png}",
               (report / "index.html").as_uri()]
        try:
            subprocess.run(cmd, capture_output=True, timeout=120, check=False)
        except subprocess.TimeoutExpired:
            return False
    return png.is_file() and png.stat().st_size > 0


def picture(report: Path) -> Path | None:
    """The headline report's first screen, cached beside the report's folder (a committed page
    folder's under the cache too); None without Chromium."""
    png = cache_dir() / f"{report.name}.png"
    if png.is_file() or shoot(report, png):
        return png
    log.info("no Chromium: the site shows the committed docs/%s", PICTURE)
    return None


# --- links to the repository outside docs/ ------------------------------------------------------


def _copy(files: Files, config: Any, target: Path) -> None:
    """Add a repository file to the site under repo/ (once)."""
    uri = "repo/" + target.relative_to(ROOT).as_posix()
    if files.get_file_from_path(uri) is None:
        files.append(File.generated(config, uri, abs_src_path=str(target),
                                    inclusion=InclusionLevel.NOT_IN_NAV))


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    docs = Path(config["docs_dir"]).resolve()
    src = page.file.src_uri
    if page.file.generated_by:  # generated pages are not in docs/: their links are their own
        return markdown

    def fix(m: re.Match[str]) -> str:
        target, anchor = m.group(1), m.group(2) or ""
        path = (docs / posixpath.dirname(src) / target).resolve()
        if path.is_relative_to(docs):
            return m.group(0)  # MkDocs checks these itself
        if not path.is_relative_to(ROOT) or not path.exists():
            raise PluginError(f"docs/{src}: broken link to {target} (no such file)")
        here = posixpath.dirname(src)
        if path == ROOT / "CHANGELOG.md":
            return f"]({posixpath.relpath('changelog.md', here or '.')}{anchor})"
        if path.suffix == ".md":
            raise PluginError(f"docs/{src}: a link to {target}, Markdown outside docs/ (only "
                              "CHANGELOG.md has a page)")
        elif path.is_file():
            _copy(files, config, path)
        else:
            raise PluginError(f"docs/{src}: a link to the folder {target} (link a file in it)")
        uri = "repo/" + path.relative_to(ROOT).as_posix()
        return f"]({posixpath.relpath(uri, here or '.')}{anchor})"

    return LINK.sub(fix, markdown)


if __name__ == "__main__":  # python docs/hooks.py picture
    if sys.argv[1:] != ["picture"]:
        sys.exit("usage: python docs/hooks.py picture (docs/img/report.png from the headline run)")
    run = headline()
    if run is None:
        sys.exit("results/: no default-* run with a results.parquet")
    folder = render(RESULTS / run, cache_dir())
    if not shoot(folder, ROOT / "docs" / PICTURE):
        sys.exit("no Chromium (apt-get install chromium): no picture written")
    print(f"docs/{PICTURE} from the report of results/{run}")
