"""MkDocs hooks: the pages that must not drift are generated at build time.

* ``cli.md``: the command-line reference, from :func:`bench.cli.parser` (the real argparse
  parser, so a new command or flag appears without anyone writing it down);
* ``catalogue.md``: every puzzle x formulation x variant with kind, exactness, laziness and
  description, from the plugin registry (:mod:`bench.registry`), built-in and installed plugins;
* ``changelog.md``: ``CHANGELOG.md`` of the repository, as it is.

Links from a page to a file of the repository outside ``docs/`` (``../../reports/X/index.html``,
``../CHANGELOG.md``) are written as they work when the Markdown is read in the repository. For the
site, a link to a missing file stops the build (so it cannot rot); a link to an existing file is
rewritten to a copy of it under ``repo/`` in the site (a report's ``index.html`` brings its
whole folder but ``summary.md``, for the figures it shows), and a link to ``CHANGELOG.md`` to the
changelog page; other Markdown outside ``docs/`` cannot be linked.
"""

from __future__ import annotations

import argparse
import inspect
import os
import posixpath
import re
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files, InclusionLevel

ROOT = Path(__file__).resolve().parent.parent
GENERATED = {"cli.md", "catalogue.md", "changelog.md"}
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
    from bench.registry import formulations, variant_info

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


def on_files(files: Files, config: Any) -> Files:
    for name, make in (("cli.md", cli_page), ("catalogue.md", catalogue_page),
                       ("changelog.md", changelog_page)):
        if files.get_file_from_path(name) is not None:
            raise PluginError(f"docs/{name} is generated at build time; remove the file")
        files.append(File.generated(config, name, content=make()))
    return files


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
        if path.is_dir():
            path = path / "index.html" if (path / "index.html").exists() else path
        if path.name == "index.html" and path.parent.parent == ROOT / "reports":
            for f in sorted(path.parent.iterdir()):
                if f.is_file() and f.suffix != ".md":  # summary.md would be a page to render
                    _copy(files, config, f)
        elif path.suffix == ".md":
            raise PluginError(f"docs/{src}: a link to {target}, Markdown outside docs/ (only "
                              "CHANGELOG.md has a page)")
        elif path.is_file():
            _copy(files, config, path)
        else:
            raise PluginError(f"docs/{src}: a link to the folder {target} (link a file in it)")
        uri = "repo/" + path.relative_to(ROOT).as_posix()
        return f"]({posixpath.relpath(uri, here or '.')}{anchor})"

    return LINK.sub(fix, markdown)
