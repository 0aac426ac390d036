"""`puzzlebench import` and `puzzlebench export`: the command side of bench/convert/formats.py.

Wire in with ``add_commands(subparsers)`` from bench/cli/; each command's ``func`` takes the
parsed arguments and returns the exit code.

``import SOURCE... --out DIR`` writes ``DIR/<puzzle>/<puzzle>-<cols>x<rows>-<hash>.txt`` (and a
``.sol`` beside it when a janko file holds a solution). A SOURCE is a puzz.link / pzv.jp URL, a
janko.at text file (it has a ``[setup]`` line), or a text file of URLs, one a line: blank lines
and ``#`` comments are skipped, and a line may be ``puzzle cols rows url`` (the shared list's
form; the puzzle and size are then checked against the URL). The comment lines right before
a run of URLs that mention a licence (``MIT``, ``licence``/``license``, ``copyright``) become
the ``licence:`` header of those URLs' instances, unless ``--licence`` is given. Each source
or URL that fails prints one line ``puzzlebench: <source>: <problem>`` on stderr; the others
still import, and the exit code is 2 (bad input, as every command's) if anything failed, with a
last line ``puzzlebench: imported N, failed M`` unless the one source given failed alone.
An existing file is never replaced by different content unless ``--force`` is given: that
instance fails with a line naming the file (``... exists with different content: not
overwritten (--force replaces it)``); one with the very same content is left alone and printed
``unchanged``; each file is written to a temporary file and renamed into place. An
``--out`` that is not a folder (it, or the first of its parents that exists, is a file) is one
line naming it, exit 2, before any source is read.

``export INSTANCE --to puzzlink`` prints the canonical puzz.link URL of an instance file; an
instance it cannot read or convert is one line naming the file and the problem, exit 2.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.cli.args import fail, path_arg
from bench.convert.formats import (
    ConversionError,
    decode_puzzlink,
    encode_puzzlink,
    instance_from_puzzlink,
    read_janko,
    save_instance,
)
from bench.instance import Instance, InstanceError, check_header, read_instance

LICENCE_WORDS = re.compile(r"\b(mit|licen[cs]e|copyright)\b", re.IGNORECASE)
#: the problem of a source holding NUL bytes
BINARY = "binary file (contains NUL bytes), not text"
#: ``import``'s and ``export``'s exit codes, in their help
IMPORT_EXIT = ("Exit codes: 0 every source imported; 2 a source could not be read or "
               "converted, or its file exists with other content and no --force (one line "
               "each naming it; the others are still imported).")
#: what ``import`` prints after a file's path, by :func:`save_instance`'s outcome
NOTES = {"written": "", "replaced": "  replaced (--force)",
         "unchanged": "  unchanged (the existing file has this content)"}
EXPORT_EXIT = ("Exit codes: 0 the URL printed; 2 the instance file cannot be read or "
               "converted (one line naming it and the problem).")


def add_commands(subparsers: Any) -> None:
    """Add the ``import`` and ``export`` subcommands to an argparse subparsers object."""
    im = subparsers.add_parser(
        "import", help="import puzz.link URLs or janko.at files as instance files",
        description="Import puzz.link URLs or janko.at files as instance files. " + IMPORT_EXIT)
    im.add_argument("sources", nargs="+", metavar="SOURCE",
                    help="a puzz.link URL, a janko.at file, or a text file of URLs")
    im.add_argument("--out", required=True, metavar="DIR", type=path_arg("folder"),
                    help="write DIR/<puzzle>/<name>.txt (and .sol)")
    im.add_argument("--licence", metavar="TEXT",
                    help="licence: header for every instance (default: from the URL file)")
    im.add_argument("--force", action="store_true",
                    help="replace an existing file of the same name whose content differs "
                    "(default: refuse it, one failure line naming it)")
    im.set_defaults(func=cmd_import)

    ex = subparsers.add_parser("export", help="print an instance in another format",
                               description="Print an instance in another format. " + EXPORT_EXIT)
    ex.add_argument("instance", metavar="INSTANCE", help="the instance file")
    ex.add_argument("--to", required=True, choices=["puzzlink"])
    ex.set_defaults(func=cmd_export)


def looks_like_url(s: str) -> bool:
    return "://" in s or s.startswith(("puzz.link/", "pzv.jp/"))


def licence_of(comments: list[str]) -> str:
    """The sentences of a comment block that name a licence (empty if none)."""
    text = " ".join(c.lstrip("#").strip() for c in comments)
    sentences = re.split(r"(?<=[.)])\s+(?=[A-Z])|:\s+", text)
    return " ".join(s for s in sentences if LICENCE_WORDS.search(s)).strip()


def url_lines(text: str) -> Iterator[tuple[int, str, dict[str, str], tuple[str, int, int] | None]]:
    """``(line, url, extra header, (puzzle, cols, rows) or None)`` for each URL line of a URL
    list file; raises :class:`ConversionError` naming the line for lines it cannot read."""
    comments: list[str] = []
    licence = ""
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            comments.append(line)
            continue
        if comments:
            found = licence_of(comments)
            if found:
                licence = found
            comments = []
        fields = line.split()
        extra = {"licence": licence} if licence else {}
        if len(fields) == 1:
            yield no, fields[0], extra, None
        elif len(fields) == 4 and fields[1].isdigit() and fields[2].isdigit():
            yield no, fields[3], extra, (fields[0], int(fields[1]), int(fields[2]))
        else:
            yield no, line, extra, ("", -1, -1)  # reported as unreadable by the caller


def _import_url(url: str, extra: dict[str, str], out: Path,
                expect: tuple[str, int, int] | None = None, force: bool = False
                ) -> tuple[Path, str]:
    if expect is not None:
        if expect[1] < 0:
            raise ConversionError(
                f"cannot read line {url!r}: expected a URL or 'puzzle cols rows url'")
        puzzle, _head, grid = decode_puzzlink(url)
        got = (puzzle, len(grid[0]), len(grid))
        if got != expect:
            raise ConversionError(
                f"line says {expect[0]} {expect[1]}x{expect[2]} but the URL is "
                f"{got[0]} {got[1]}x{got[2]}")
    inst = instance_from_puzzlink(url, extra)
    return save_instance(inst, out / inst.puzzle, force=force)


def _import_janko(path: Path, text: str, extra: dict[str, str], out: Path,
                  force: bool = False) -> tuple[Path, str]:
    inst, sol = read_janko(text, path)
    if extra:
        inst = _with_header(inst, extra)
    return save_instance(inst, out / inst.puzzle, sol, force)


def _with_header(inst: Instance, extra: dict[str, str]) -> Instance:
    """``inst`` with the header entries ``extra`` added; InstanceError (on the instance's
    path) for an entry that would not read back as one header line."""
    from dataclasses import replace

    check_header(extra, inst.path)
    return replace(inst, header={**inst.header, **extra})


def _problem(e: Exception) -> str:
    """The one-line problem of an import error, without a path the caller names anyway."""
    if isinstance(e, OSError) and e.strerror:  # writing under --out
        return f"cannot write {e.filename}: {e.strerror}" if e.filename else e.strerror
    msg = e.problem if isinstance(e, InstanceError) and e.line is None else str(e)
    return (msg.splitlines() or [type(e).__name__])[0]


def out_problem(out: Path) -> str:
    """Why ``--out`` cannot be the folder import writes under ("" if it can): it, or the first
    of its parents that exists, is not a folder."""
    for p in (out, *out.parents):
        if p.is_dir():
            return ""
        if p.exists() or p.is_symlink():  # a file, or a link to nothing
            where = "" if p == out else f": {p}"
            return f"--out {out}{where} exists and is not a folder"
    return ""


def cmd_import(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out_problem(out):
        return fail(out_problem(out))
    forced = {"licence": args.licence} if args.licence else {}
    failed = written = 0
    errors = (ConversionError, InstanceError, OSError)

    def failed_(where: str, problem: str) -> None:
        nonlocal failed
        failed += 1
        print(f"puzzlebench: {where}: {problem}", file=sys.stderr)

    def done(saved: tuple[Path, str]) -> None:
        nonlocal written
        written += 1
        print(f"{saved[0]}{NOTES[saved[1]]}")

    for src in args.sources:
        if looks_like_url(src):
            try:
                done(_import_url(src, forced, out, force=args.force))
            except errors as e:
                failed_(src.strip(), _problem(e))
            continue
        p = Path(src)
        text, problem = _read_source(src)
        if problem:
            failed_(src or "''", problem)
            continue
        if re.search(r"^\s*\[setup\]\s*$", text, re.MULTILINE | re.IGNORECASE):
            try:
                done(_import_janko(p, text, forced, out, args.force))
            except InstanceError as e:
                failed_(e.path if e.line is None else f"{e.path}:{e.line}", e.problem)
            except errors as e:
                failed_(src, _problem(e))
            continue
        any_url = False
        for no, url, extra, expect in url_lines(text):
            any_url = True
            try:
                done(_import_url(url, {**extra, **forced}, out, expect, args.force))
            except errors as e:
                failed_(f"{src}:{no}: {url}", _problem(e))
        if not any_url:
            failed_(src, "no URLs and no [setup] section: nothing to import")
    if written or failed > 1:  # one bad source alone: its line alone
        print(f"puzzlebench: imported {written}, failed {failed}", file=sys.stderr)
    return 2 if failed else 0


def _read_source(src: str) -> tuple[str, str]:
    """The text of the source file ``src``, or "" and its problem in one line: an empty path
    (``Path("")`` is the working directory), no such file, not a regular file (a FIFO or a
    device would block the read), unreadable, not UTF-8, binary."""
    p = Path(src)
    if not src:
        return "", "empty path, not a file or URL"
    try:
        if p.exists() and not p.is_file():
            return "", "not a regular file"
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        return "", "no such file (and not a URL)"
    except UnicodeDecodeError as e:
        return "", _undecodable(e)
    except OSError as e:
        return "", f"cannot read: {e.strerror or e}"
    if "\x00" in text:  # UTF-8 all the same (NUL bytes alone): no text of URLs
        return "", BINARY
    return text, ""


def _undecodable(e: UnicodeDecodeError) -> str:
    """The problem of a source that is not UTF-8 text: binary (it holds a NUL byte) or the
    first byte that is not UTF-8."""
    if b"\x00" in e.object:
        return BINARY
    return f"not UTF-8 text (byte 0x{e.object[e.start]:02x} at offset {e.start})"


def cmd_export(args: argparse.Namespace) -> int:
    try:
        inst = read_instance(args.instance)
        print(encode_puzzlink(inst))
    except InstanceError as e:  # names the file (and line) itself
        return fail(str(e))
    except (ConversionError, KeyError) as e:
        return fail(f"{args.instance}: {e.args[0] if e.args else e}")
    return 0
