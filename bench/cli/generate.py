"""`puzzlebench generate`: the command side of bench/generate/.

Wire in with ``add_commands(subparsers)`` from bench/cli/; the command's ``func`` takes the
parsed arguments and returns the exit code.

``generate PUZZLE --size RxC --seed N [--param NAME=N ...] [--count K] --out DIR`` writes
``DIR/gen-<puzzle>-<R>x<C>-s<seed>[-<NAME><N>...]-<i>.txt`` for i = 0..K-1, each proved to
have exactly one solution, with its unique solution beside it as ``<name>.sol`` (a JSON grid),
and prints each path with the time it took. ``--solutions`` is accepted for compatibility: the
``.sol`` file is always written. A bad ``--size`` or ``--param``, an unknown puzzle or
parameter, a puzzle without a generator, a ``--seed`` below 0 or a ``--count`` below 1 is a
one-line error and exit code 2; a generator that cannot make the puzzle (gives up, or finds no
room for what the parameters ask, such as ``big`` islands on a small grid) is a one-line error
and exit code 1. A parameter given is
part of the file name even at its default value (``--param big=0`` writes ``...-big0-0``).
Each file's header records its recipe and the generator's version
(:mod:`bench.generate.provenance`).

An existing file is never replaced by different content unless ``--force`` is given: the
command stops with a one-line error naming the file and exit code 2, a usage error as a
folder it cannot create or a file it cannot write (files of earlier instances of the same
``--count`` stay written). An existing file with the very same content
is left alone and reported ``unchanged``. A file whose header shows it cannot be the same
(an older generator's, another recipe's) is refused before the generation starts.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bench.bounds import MAX_INT64
from bench.cli.args import bounded_int, path_arg


def add_commands(subparsers: Any) -> None:
    """Add the ``generate`` subcommand to an argparse subparsers object."""
    ge = subparsers.add_parser(
        "generate", help="generate random instances with exactly one solution")
    ge.add_argument("puzzle", metavar="PUZZLE")
    ge.add_argument("--size", required=True, metavar="RxC", help="rows x columns, e.g. 10x10")
    # random.Random seeds with the seed's absolute value: -N would repeat N's instances
    ge.add_argument("--seed", required=True, metavar="N",
                    type=bounded_int(0, MAX_INT64, "a seed of the file's name and header"),
                    help="the generator's seed, 0 or more")
    ge.add_argument("--count", type=bounded_int(1, MAX_INT64), default=1, metavar="K",
                    help="instances to generate, at least 1 (default 1); instance i does not "
                    "depend on K")
    ge.add_argument("--out", required=True, metavar="DIR", type=path_arg("folder"),
                    help="write DIR/gen-<puzzle>-<R>x<C>-s<seed>[-<NAME><N>...]-<i>.txt")
    ge.add_argument("--param", action="append", default=[], metavar="NAME=N",
                    help="set an integer parameter of the puzzle's generator (repeatable; "
                         "nurikabe: big=K makes K islands of 37-45 cells, cover=P few clues "
                         "on islands covering P %% of the grid; yinyang: "
                         "min_percent=P keeps stones on at least P %% of the cells, "
                         "keep_border=0 lets border stones go); it is part of the "
                         "file name and of the recorded command")
    ge.add_argument("--solutions", action="store_true",
                    help="write each unique solution as <name>.sol (always done; kept for "
                         "compatibility)")
    ge.add_argument("--force", action="store_true",
                    help="replace an existing file of the same name whose content differs "
                         "(without it the command refuses and exits 2)")
    ge.set_defaults(func=cmd_generate)


def parse_params(items: list[str]) -> dict[str, int]:
    """``["big=4"]`` -> ``{"big": 4}``; ValueError with a one-line message otherwise."""
    out: dict[str, int] = {}
    for item in items:
        name, eq, value = item.partition("=")
        if not eq or not name.strip() or not value.strip().isdecimal():
            raise ValueError(f"bad --param {item!r}: expected NAME=N with N a whole number")
        out[name.strip()] = int(value)
    return out


def fail(message: str, code: int) -> int:
    print(f"puzzlebench generate: {message}", file=sys.stderr)
    return code


def cmd_generate(args: argparse.Namespace) -> int:
    from bench.generate import (
        ExistingFileError,
        GenerationError,
        check_existing,
        check_size,
        generate_one,
        get_generator,
        parse_size,
        save_generated,
    )
    from bench.generate.provenance import Recipe

    try:
        rows, cols = parse_size(args.size)
        params = parse_params(args.param)
        get_generator(args.puzzle).with_params(params)
        check_size(args.puzzle, rows, cols)
    except (ValueError, GenerationError) as e:
        return fail(str(e), 2)
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return fail(f"cannot create {out}: {e.strerror}", 2)
    for i in range(args.count):
        try:
            if not args.force:
                check_existing(out, Recipe(args.puzzle, rows, cols, args.seed, args.count, i,
                                           params))
            gen = generate_one(args.puzzle, rows, cols, args.seed, i, args.count, params)
        except ExistingFileError as e:  # refused: usage, as every command's bad input
            return fail(str(e), 2)
        except GenerationError as e:  # the generator ran and gave up
            return fail(str(e), 1)
        try:
            path, outcome = save_generated(gen, out, force=args.force)
        except ExistingFileError as e:
            return fail(str(e), 2)
        except GenerationError as e:
            return fail(str(e), 1)
        except OSError as e:
            return fail(f"cannot write {e.filename or out}: {e.strerror}", 2)
        note = {"written": "", "replaced": "  replaced (--force)",
                "unchanged": "  unchanged (the existing file has this content)"}[outcome]
        print(f"{path}  {gen.seconds:.2f} s  ({len(gen.instance.clues())} clues, "
              f"{gen.solves} solver calls){note}", flush=True)
    return 0
