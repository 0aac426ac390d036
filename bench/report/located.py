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

An absolute path is used as it is. A path found nowhere has no file: the report then goes by
the instance's name alone.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path


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


def locate(path: str, bases: list[Path]) -> str | None:
    """The file a recorded instance ``path`` names (absolute, as a string), or None where it
    is found under none of ``bases`` (:func:`roots`)."""
    if not path:
        return None
    p = Path(path)
    if p.is_absolute():
        return str(p) if p.is_file() else None
    for b in bases:
        if (b / p).is_file():
            return str(b / p)
    return None


def files(paths: Iterable[str], folder: str | Path | None) -> dict[str, str | None]:
    """Each distinct recorded path of the run in ``folder`` -> its file (:func:`locate`)."""
    bases = roots(folder)
    return {p: locate(p, bases) for p in dict.fromkeys(paths)}
