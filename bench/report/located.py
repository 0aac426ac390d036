"""Where a run's instance files are, found the same from any working folder.

A run records each instance's path as given to it: relative to the folder ``puzzlebench run``
ran in (a suite's files under the project root: ``instances/nurikabe/x.txt``), or absolute. A
report reads the files (their ``source:`` header gives the family, their clues the pictures)
and must find the same file whatever folder it is built from, so a relative path is never
resolved against the report's working folder. It is looked for, in order, under:

1. the run folder and each folder above it, and each one's ``instances/`` (a run folder kept
   inside the project it ran in: ``results/NAME``; a run from ``instances/`` itself);
2. the project root, :func:`roots`: ``$PUZZLEBENCH_ROOT`` or the source checkout of this
   harness (never the working folder), and its ``instances/``.

An absolute path is used as it is. A candidate is accepted only where its bytes have the
content digest the run recorded for the instance (the ``sha256:`` that starts its task key,
:func:`bench.records.content_digest`): a file edited since the run, or another checkout's file
of the same path, is not the file the run measured, and the next place is tried. A row
without such a digest (an older run's) takes the first file found. A path found nowhere, or
found only changed, has no file: the report then goes by the instance's name alone and says
how many such instances there are (:func:`unmatched_note`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from bench.records import instance_digest

#: what :func:`files` found for one (path, digest): the file, or why there is none
FOUND, MISSING, CHANGED = "found", "missing", "changed"


def roots(folder: str | Path | None) -> list[Path]:
    """The folders a relative instance path of the run in ``folder`` may start from, in the
    order they are tried (see the module)."""
    bases: list[Path] = []
    if folder is not None:
        here = Path(folder).resolve()
        bases += [here, *here.parents]
    env = os.environ.get("PUZZLEBENCH_ROOT")
    if env:
        bases.append(Path(env).resolve())
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "instances").is_dir():
        bases.append(checkout)
    out: list[Path] = []
    for b in bases:
        for r in (b, b / "instances"):
            if r not in out:
                out.append(r)
    return out


def locate(path: str, bases: list[Path], digest: str = "",
           seen: dict[str, str] | None = None) -> tuple[str | None, str]:
    """The file a recorded instance ``path`` names (absolute, as a string) and :data:`FOUND`;
    or None and :data:`MISSING` where it is under none of ``bases`` (:func:`roots`), None and
    :data:`CHANGED` where every file found there has another content than ``digest`` (a
    ``sha256:`` digest; any other value accepts the first file found). ``seen`` caches each
    file's digest across calls."""
    if not path:
        return None, MISSING
    p = Path(path)
    candidates = [p] if p.is_absolute() else [b / p for b in bases]
    state = MISSING
    for c in candidates:
        if not c.is_file():
            continue
        if not digest.startswith("sha256:"):
            return str(c), FOUND
        name = str(c)
        if seen is None:
            seen = {}
        if name not in seen:
            seen[name] = instance_digest(name)
        if seen[name] == digest:
            return name, FOUND
        state = CHANGED
    return None, state


def files(paths: Iterable[str | tuple[str, str]], folder: str | Path | None
          ) -> dict[str | tuple[str, str], str | None]:
    """Each distinct recorded path of the run in ``folder`` (or (path, content digest)) ->
    its file (:func:`locate`)."""
    return {k: f for k, (f, _) in states(paths, folder).items()}


def states(paths: Iterable[str | tuple[str, str]], folder: str | Path | None
           ) -> dict[str | tuple[str, str], tuple[str | None, str]]:
    """Each distinct recorded path (or (path, content digest)) -> :func:`locate`'s answer:
    the file, or None, and :data:`FOUND`, :data:`MISSING` or :data:`CHANGED`."""
    bases = roots(folder)
    seen: dict[str, str] = {}
    out: dict[str | tuple[str, str], tuple[str | None, str]] = {}
    for k in dict.fromkeys(paths):
        path, digest = (k, "") if isinstance(k, str) else k
        out[k] = locate(path, bases, digest, seen)
    return out


def unmatched_note(missing: int, changed: int) -> str:
    """The report's one line on instances whose files it could not use ("" where none)."""
    if not missing and not changed:
        return ""
    parts = [f"{n} {what}" for n, what in ((missing, "found nowhere"),
                                            (changed, "changed since the run")) if n]
    return (f"{missing + changed} instance file(s) not read ({', '.join(parts)}): those "
            "instances go by their names alone (family, tier and pictures from the name).")
