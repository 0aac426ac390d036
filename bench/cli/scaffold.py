"""``puzzlebench new-formulation PUZZLE KIND NAME --out DIR`` (:mod:`bench.scaffold`) and
``puzzlebench new-puzzle NAME --out DIR`` (:mod:`bench.scaffold.puzzle`)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from bench.cli.args import fail, path_arg


def add_commands(sub: argparse._SubParsersAction) -> None:
    nf = sub.add_parser("new-formulation", help="write an installable plugin package with a "
                        "working formulation to start from")
    nf.add_argument("puzzle", metavar="PUZZLE")
    nf.add_argument("kind", metavar="KIND")
    nf.add_argument("name", metavar="NAME", help="the formulation's name (what `check`, `run "
                    "--formulation` and the report call it)")
    nf.add_argument("--out", required=True, metavar="DIR", type=path_arg("folder"),
                    help="the folder to create")
    nf.set_defaults(func=cmd_new)
    np = sub.add_parser("new-puzzle", help="write an installable puzzle package (rules, tiny "
                        "boards, picture, instances and a SAT formulation) to start from")
    np.add_argument("name", metavar="NAME", help="the puzzle's name (the `puzzle:` header of "
                    "its instance files)")
    np.add_argument("--out", required=True, metavar="DIR", type=path_arg("folder"),
                    help="the folder to create")
    np.set_defaults(func=cmd_new_puzzle)


def cmd_new(args: argparse.Namespace) -> int:
    from bench.scaffold import write_plugin

    return _written(lambda: write_plugin(args.puzzle, args.kind, args.name, args.out),
                    args.out, args.name)


def cmd_new_puzzle(args: argparse.Namespace) -> int:
    from bench.scaffold.puzzle import write_puzzle

    return _written(lambda: write_puzzle(args.name, args.out), args.out,
                    f"{args.name}:sat-direct")


def _written(write: Callable[[], list[Path]], out: str, check: str) -> int:
    """Run a scaffold writer: each file written, then the next step (install ``out``, check
    ``check``); a :class:`~bench.scaffold.ScaffoldError` is one error line."""
    from bench.scaffold import ScaffoldError

    try:
        files = write()
    except ScaffoldError as e:
        return fail(str(e))
    for f in files:
        print(f"wrote {f}")
    print(f"next: pip install -e {out} && puzzlebench check {check}")
    return 0
