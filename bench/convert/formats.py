"""Instance import and export: puzz.link / pzv.jp URLs and janko.at text files.

Pure functions (no I/O except :func:`write_instance` and :func:`save_instance`). Everything
ends in the interchange format of ``docs/formats.md``: instances are built through
:func:`bench.instance.parse_instance`, so the puzzle's own validation runs on every import.

The parts live where they belong: the URL framing in :mod:`bench.convert.pzpr.url`, one
module per pzprjs body encoding in :mod:`bench.convert.pzpr`, the janko.at reader in
:mod:`bench.convert.janko`, and what each puzzle uses (pids, encoding, janko tokens)
declared in ``bench/puzzles/<puzzle>/codec.py``.
This module joins them: URL <-> instance, and the file writers.

Decoding is strict where pzprjs is lenient, so that a malformed URL never becomes a wrong
instance: a body that ends before the last cell (truncated), characters left after the last
cell (overlong), a run of empty cells that passes the last cell, illegal characters, flags
or variants, and unknown pids are all :class:`ConversionError` with a one-line message.

Round trip: :func:`encode_puzzlink` writes exactly the body pzprjs writes, so a decoded URL
re-encodes to the same body (normalisations: see :mod:`bench.convert.pzpr.url`).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench.codec import Codec, codec_of
from bench.convert.janko import read_janko
from bench.convert.pzpr.common import ConversionError
from bench.convert.pzpr.url import parse_url, url_of
from bench.instance import Instance, format_instance, instance_from_tokens
from bench.puzzles import SolutionGrid, get_puzzle

__all__ = [
    "ConversionError", "ExistingFileError", "canonical_url", "decode_body", "decode_puzzlink",
    "encode_body", "encode_puzzlink", "instance_from_puzzlink", "instance_from_tokens",
    "instance_name", "instance_text", "instance_tokens", "read_janko", "save_instance",
    "solution_text", "split_puzzlink", "write_instance",
]

TokenGrid = list[list[str]]


def split_puzzlink(url: str) -> tuple[str, str, int, int, str]:
    """``(puzzle, pid, cols, rows, body)`` of a puzz.link / pzv.jp URL, nothing decoded yet."""
    u = parse_url(url)
    return u.codec.puzzle, u.pid, u.cols, u.rows, u.body


def decode_puzzlink(url: str) -> tuple[str, dict[str, str], TokenGrid]:
    """``(puzzle, header, grid tokens)`` of a puzz.link URL (tokens in the contract's format).

    The header holds ``puzzle`` and ``source`` (the URL as given, whitespace stripped).
    Raises :class:`ConversionError` on anything it cannot decode exactly.
    """
    u = parse_url(url)
    cells = u.codec.encoding.decode(u.body, u.cols, u.rows)
    grid = [cells[r * u.cols:(r + 1) * u.cols] for r in range(u.rows)]
    puzzle = u.codec.puzzle
    return puzzle, {"puzzle": puzzle, "source": url.strip()}, grid


def _codec(puzzle: str, what: str) -> Codec:
    codec = codec_of(puzzle)
    if codec is None:
        raise ConversionError(f"no puzz.link {what} {puzzle!r}")
    return codec


def decode_body(puzzle: str, cols: int, rows: int, body: str) -> list[str]:
    """The cell tokens, in reading order, of a pzprjs body."""
    return _codec(puzzle, "decoder for").encoding.decode(body, cols, rows)


def encode_body(puzzle: str, grid: Sequence[Sequence[str]]) -> str:
    """The pzprjs body of a grid of contract tokens (inverse of :func:`decode_body`)."""
    codec = _codec(puzzle, "encoding for puzzle")
    return codec.encoding.encode([tok for row in grid for tok in row])


def instance_from_puzzlink(url: str, header: dict[str, str] | None = None) -> Instance:
    """The validated instance of a puzz.link URL; ``header`` adds lines (e.g. ``licence``).

    Raises :class:`ConversionError` (decoding) or :class:`InstanceError` (validation; the
    "file" in its message is the URL)."""
    puzzle, head, grid = decode_puzzlink(url)
    return instance_from_tokens(puzzle, {**head, **(header or {})}, grid, url.strip())


def instance_tokens(inst: Instance) -> TokenGrid:
    """The instance grid as contract tokens (through the puzzle's own formatter)."""
    puzzle = get_puzzle(inst.puzzle)
    return [[puzzle.format_token(v) for v in row] for row in inst.grid]


def encode_puzzlink(inst: Instance) -> str:
    """The canonical puzz.link URL of an instance (``https://puzz.link/p?pid/cols/rows/body``)."""
    codec = _codec(inst.puzzle, "encoding for puzzle")
    body = codec.encoding.encode([tok for row in instance_tokens(inst) for tok in row])
    return url_of(codec, inst.cols, inst.rows, body)


def canonical_url(url: str) -> str:
    """The URL with only the normalisations of :mod:`bench.convert.pzpr.url` applied (body
    untouched)."""
    u = parse_url(url)
    return url_of(u.codec, u.cols, u.rows, u.body)


# --------------------------------------------------------------------------- writers


def instance_name(inst: Instance) -> str:
    """A stable file stem: ``<puzzle>-<cols>x<rows>-<hash>``, the hash (8 hex digits) being of
    the canonical puzz.link body, so the same puzzle gets the same name from any source."""
    try:
        body = encode_body(inst.puzzle, instance_tokens(inst))
    except ConversionError:
        body = "\n".join(" ".join(row) for row in instance_tokens(inst))
    digest = hashlib.sha1(f"{inst.puzzle}/{inst.cols}/{inst.rows}/{body}".encode()).hexdigest()
    return f"{inst.puzzle}-{inst.cols}x{inst.rows}-{digest[:8]}"


def instance_text(inst: Instance) -> str:
    """The instance file text (the interchange format, header order kept)."""
    return format_instance(inst)


def solution_text(solution: SolutionGrid) -> str:
    """A ``.sol`` file: the solution grid as a JSON list of rows, one row a line."""
    return "[\n" + ",\n".join(json.dumps(row, ensure_ascii=False) for row in solution) + "\n]\n"


class ExistingFileError(ConversionError):
    """A file to write exists with other content (or is not a file) and ``force`` is off."""


def write_instance(inst: Instance, out_dir: str | Path,
                   solution: SolutionGrid | None = None, force: bool = False) -> Path:
    """Write ``<out_dir>/<name>.txt`` (and ``<name>.sol`` when a solution is known), as
    :func:`save_instance`; returns the ``.txt`` path."""
    return save_instance(inst, out_dir, solution, force)[0]


def save_instance(inst: Instance, out_dir: str | Path, solution: SolutionGrid | None = None,
                  force: bool = False) -> tuple[Path, str]:
    """Write ``<out_dir>/<name>.txt`` (and ``<name>.sol`` when a solution is known), making
    ``out_dir`` if it is missing, as ``generate`` writes its files. Returns the ``.txt`` path
    and what happened: ``"written"`` (no file with other content was there), ``"unchanged"``
    (each file existed with these very bytes: nothing is written) or ``"replaced"`` (one had
    other content, and ``force``).

    Without ``force``, an existing file with other content (or something other than a file in
    its place) raises :class:`ExistingFileError` naming it, and nothing is written. Each file
    is written to a temporary file beside it, synced, and renamed into place, so an
    interrupted write leaves the old file or the new one, never part of one."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{instance_name(inst)}.txt"
    texts = {path: instance_text(inst).encode("utf-8")}
    if solution is not None:
        texts[path.with_suffix(".sol")] = solution_text(solution).encode("utf-8")
    existing = [p for p in texts if p.exists() or p.is_symlink()]
    same = [p for p in existing if p.is_file() and p.read_bytes() == texts[p]]
    if existing and len(same) == len(texts):
        return path, "unchanged"
    differing = [p for p in existing if p not in same]
    if differing and not force:
        raise ExistingFileError(f"{differing[0]} exists with different content: not "
                                "overwritten (--force replaces it)")
    for p, data in texts.items():
        if p not in same:
            _replace_atomically(p, data)
    return path, "replaced" if differing else "written"


def _replace_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to a new temporary file in ``path``'s folder, sync it and rename it to
    ``path`` (:func:`os.replace`: atomic within a file system); the temporary file is removed
    if any step fails."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    """The process's file mode creation mask (read by setting it and back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask
