"""The puzz.link URL framing: ``p?<pid>/[flags/]<cols>/<rows>/<body>`` on puzz.link or pzv.jp.

What is normalised: the scheme and host (always ``https://puzz.link/p?``), the pid alias (e.g.
``sikaku`` becomes ``shikaku``), query trailers after ``&`` (e.g. ``&id=...``), a URL fragment,
one trailing ``/``, percent-encoding, and stray quote characters around the URL (a ``%22`` at
the end of a URL copied out of a JSON or HTML string). Flags and variants are refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from bench.codec import Codec, pid_table
from bench.convert.pzpr.common import ConversionError

HOSTS = ("puzz.link", "www.puzz.link", "pzv.jp", "www.pzv.jp")
PATHS = ("/p", "/p.html", "/p/")
CANONICAL_PREFIX = "https://puzz.link/p?"
MAX_SIDE = 999  # a sanity bound before allocating the grid


@dataclass(frozen=True)
class PuzzlinkUrl:
    """The parts of a puzz.link URL, nothing decoded yet."""

    codec: Codec
    pid: str
    cols: int
    rows: int
    body: str


def query_of(url: str) -> str:
    """The query of a puzz.link / pzv.jp URL up to the first ``&``, host and path checked."""
    raw = url.strip().strip("\"'").strip()
    if not raw:
        raise ConversionError("empty URL")
    text = unquote(raw).strip().strip("\"'").strip()
    if "://" not in text:
        text = "https://" + text
    try:
        parts = urlsplit(text)
    except ValueError as e:
        raise ConversionError(f"not a URL: {e}") from None
    if parts.scheme not in ("http", "https"):
        raise ConversionError(f"unsupported scheme {parts.scheme!r} (expected http or https)")
    host = (parts.hostname or "").lower()
    if host not in HOSTS:
        raise ConversionError(f"unsupported host {host!r} (expected puzz.link or pzv.jp)")
    if parts.path not in PATHS:
        raise ConversionError(f"unexpected path {parts.path!r} (expected /p? or /p.html?)")
    query = parts.query.split("&", 1)[0]
    if not query:
        raise ConversionError("no puzzle after '?'")
    return query


def parse_url(url: str) -> PuzzlinkUrl:
    """The parts of a puzz.link URL; :class:`ConversionError` naming the first problem."""
    fields = query_of(url).split("/")
    if fields[-1] == "" and len(fields) > 1:
        fields.pop()  # one trailing slash
    pid = fields[0].lower()
    table = pid_table()
    if pid not in table:
        known = ", ".join(sorted(table))
        raise ConversionError(f"unsupported puzzle type {fields[0]!r} (supported: {known})")
    rest = fields[1:]
    flags = []
    while rest and not rest[0].isdigit():
        flags.append(rest.pop(0))
    if flags:
        raise ConversionError(
            f"unsupported flags or variant {'/'.join(flags)!r} for {pid} "
            "(only plain p?<pid>/<cols>/<rows>/<body> URLs are read)")
    if len(rest) < 2 or not rest[1].isdigit():
        raise ConversionError(f"missing size: expected {pid}/<cols>/<rows>/<body>")
    cols, rows = int(rest[0]), int(rest[1])
    if cols < 1 or rows < 1:
        raise ConversionError(f"bad size {cols}x{rows}: columns and rows must be at least 1")
    if cols > MAX_SIDE or rows > MAX_SIDE:
        raise ConversionError(f"bad size {cols}x{rows}: more than {MAX_SIDE} columns or rows")
    if len(rest) < 3 or rest[2] == "":
        raise ConversionError(f"empty body: no cells encoded for the {cols}x{rows} grid")
    if len(rest) > 3:
        raise ConversionError(f"unexpected extra part {'/'.join(rest[3:])!r} after the body")
    return PuzzlinkUrl(table[pid], pid, cols, rows, rest[2])


def url_of(codec: Codec, cols: int, rows: int, body: str) -> str:
    """The canonical URL: the codec's first pid on ``https://puzz.link/p?``."""
    return f"{CANONICAL_PREFIX}{codec.pids[0]}/{cols}/{rows}/{body}"
