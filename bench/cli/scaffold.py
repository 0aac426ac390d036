"""``puzzlebench new-formulation PUZZLE KIND NAME --out DIR`` (:mod:`bench.scaffold`)."""

from __future__ import annotations

import argparse

from bench.cli.args import fail


def add_commands(sub: argparse._SubParsersAction) -> None:
    nf = sub.add_parser("new-formulation", help="write an installable plugin package with a "
                        "working formulation to start from")
    nf.add_argument("puzzle", metavar="PUZZLE")
    nf.add_argument("kind", metavar="KIND")
    nf.add_argument("name", metavar="NAME", help="the formulation's name (what `check`, `run "
                    "--formulation` and the report call it)")
    nf.add_argument("--out", required=True, metavar="DIR", help="the folder to create")
    nf.set_defaults(func=cmd_new)


def cmd_new(args: argparse.Namespace) -> int:
    from bench.scaffold import ScaffoldError, write_plugin

    try:
        files = write_plugin(args.puzzle, args.kind, args.name, args.out)
    except ScaffoldError as e:
        return fail(str(e))
    for f in files:
        print(f"wrote {f}")
    print(f"next: pip install -e {args.out} && puzzlebench check {args.name}")
    return 0
