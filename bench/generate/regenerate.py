"""Checking generated files by regenerating them from what they record.

:func:`provenance` reads a generated file's recorded fields (:mod:`bench.generate.provenance`)
and says whether its generator version is current: only then must :func:`differences` find
none between the file (and its ``.sol``) and a regeneration from its recipe. A file without
``generator-version`` (written before it was recorded) or with another one is from an older
generator, one with another solver version from another environment: neither can be checked
here.

``python -m bench.generate.regenerate PATH...`` prints each generated file's state under the
given files and folders; with ``--regenerate`` it also regenerates every current one and
compares bytes (exit code 1 if one differs); with ``--refresh`` it writes every file that
records its recipe anew with this code (after a change of the generator's version: the
reference files of the tests), leaving files without one alone.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from bench.convert.formats import solution_text
from bench.generate import GenerationError, generate_one, get_generator, save_generated
from bench.generate.provenance import (
    PARAMS,
    SOLVER,
    VERSION,
    Recipe,
    generated_files,
    parse_recipe,
    read_header,
    strip_fields,
    version_fields,
)
from bench.instance import format_instance


@dataclass(frozen=True)
class Provenance:
    """A generated file's state: ``current`` (its recipe and version are known and current:
    it can be checked by regenerating it), ``unversioned`` (written before the version was
    recorded), ``older`` (another generator version), ``other-solver`` (another solver
    version) or ``bad`` (its generator fields cannot be read); ``reason`` says it in words."""

    path: Path
    state: str
    reason: str
    recipe: Recipe | None = None


def current(puzzle: str, params: dict[str, int] | None = None) -> dict[str, str]:
    """The ``generator-version`` and ``generator-solver`` header fields this code writes for
    ``puzzle`` with ``params`` (GenerationError for a puzzle without a generator or a bad
    parameter)."""
    gen = get_generator(puzzle).with_params(params or {})
    return version_fields(puzzle, type(gen).__module__, gen.uniqueness_formulation(), gen.solver)


def provenance(path: Path) -> Provenance:
    """The state of the generated file at ``path`` (see :class:`Provenance`)."""
    header = read_header(path)
    puzzle = header.get("puzzle", "")
    if VERSION not in header or PARAMS not in header:
        return Provenance(path, "unversioned",
                          f"{path}: from an older generator (no {VERSION} recorded)")
    try:
        recipe = parse_recipe(puzzle, header[PARAMS])
        now = current(puzzle, recipe.params)
    except (ValueError, KeyError, GenerationError) as e:
        return Provenance(path, "bad", f"{path}: {e}")
    if header[VERSION] != now[VERSION]:
        return Provenance(path, "older", f"{path}: from an older generator "
                          f"({header[VERSION]}; now {now[VERSION]})", recipe)
    if header.get(SOLVER) != now[SOLVER]:
        return Provenance(path, "other-solver", f"{path}: made with another solver "
                          f"({header.get(SOLVER)}; here {now[SOLVER]})", recipe)
    return Provenance(path, "current", f"{path}: current generator", recipe)


def regenerate(recipe: Recipe) -> tuple[str, str]:
    """The instance text and ``.sol`` text :func:`bench.generate.generate_one` makes from
    ``recipe`` now."""
    gen = generate_one(recipe.puzzle, recipe.rows, recipe.cols, recipe.seed, recipe.index,
                       recipe.count, recipe.params)
    return format_instance(gen.instance), solution_text(gen.solution)


def differences(path: Path, recipe: Recipe) -> list[str]:
    """What differs between the file at ``path`` (and its ``.sol``) and a regeneration of
    ``recipe``: ``[]`` when both are byte for byte the same. A file without
    ``generator-version`` is compared without the fields it predates (:func:`strip_fields`)."""
    text, sol = regenerate(recipe)
    if VERSION not in read_header(path):
        text = strip_fields(text)
    out: list[str] = []
    for p, new in ((path, text), (path.with_suffix(".sol"), sol)):
        if not p.exists():
            out.append(f"{p}: missing")
        elif p.read_bytes() != new.encode("utf-8"):
            out.append(f"{p}: regenerates to different bytes")
    return out


def refresh(path: Path, recipe: Recipe) -> str:
    """Write the file at ``path`` and its ``.sol`` anew from ``recipe`` with this code (the
    file must record its recipe: one of an older generator keeps its bytes); what happened,
    in words."""
    before = _without_version(path.read_text(encoding="utf-8")), _read(path.with_suffix(".sol"))
    gen = generate_one(recipe.puzzle, recipe.rows, recipe.cols, recipe.seed, recipe.index,
                       recipe.count, recipe.params)
    written, outcome = save_generated(gen, path.parent, force=True)
    after = _without_version(written.read_text(encoding="utf-8")), _read(path.with_suffix(".sol"))
    if outcome == "replaced":
        outcome += " (the version only)" if after == before else " (the puzzle changed)"
    return f"{written}: {outcome}"


def _without_version(text: str) -> str:
    head, sep, body = text.partition("\n\n")
    keep = [line for line in head.split("\n")
            if line.partition(":")[0].strip() not in (VERSION, SOLVER)]
    return "\n".join(keep) + sep + body


def _read(path: Path) -> bytes:
    return path.read_bytes() if path.is_file() else b""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m bench.generate.regenerate",
        description="state of generated instance files: current, older generator, ...")
    ap.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    ap.add_argument("--regenerate", action="store_true",
                    help="regenerate every current file and compare its bytes")
    ap.add_argument("--refresh", action="store_true",
                    help="write every file that records its recipe (generator-params) anew "
                         "with this code, replacing it (files without one are left alone)")
    args = ap.parse_args(argv)
    bad = 0
    counts: dict[str, int] = {}
    for path in generated_files(args.paths):
        prov = provenance(path)
        counts[prov.state] = counts.get(prov.state, 0) + 1
        line = prov.reason
        if args.refresh and prov.state != "unversioned" and prov.recipe is not None:
            line = refresh(path, prov.recipe)
        elif args.regenerate and prov.state == "current" and prov.recipe is not None:
            diffs = differences(path, prov.recipe)
            bad += bool(diffs)
            line = "; ".join(diffs) if diffs else f"{path}: regenerates to its bytes"
        print(line, flush=True)
    print(", ".join(f"{n} {state}" for state, n in sorted(counts.items())) or "no generated files")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
