"""The `puzzlebench` command: the parser and :func:`main`; each command is a module beside this
one (list: :mod:`bench.cli.listing`, solve, run, report, compare, import/export:
:mod:`bench.cli.interchange`, generate)."""

from __future__ import annotations

import os
import signal
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

DESCRIPTION = ("Benchmark solver formulations of grid puzzles: list, solve, run, report, "
               "compare, merge, import, export, generate, check, new-formulation.")


def parser() -> argparse.ArgumentParser:
    """The command line: each command module adds its own subcommand(s)."""
    import argparse

    p = argparse.ArgumentParser(prog="puzzlebench", description=DESCRIPTION)
    p.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    sub = p.add_subparsers(dest="command", required=True)
    from bench.cli import (
        aslib,
        check,
        compare,
        generate,
        interchange,
        listing,
        merge,
        report,
        run,
        scaffold,
        solve,
    )

    for command in (listing, solve, run, report, compare, merge, interchange, generate, check,
                    scaffold, aslib):
        command.add_commands(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the command line; its exit code. Ctrl-C at any point from here on (the commands'
    imports included) ends with one line and 130, never a traceback."""
    try:
        import logging

        args = parser().parse_args(argv)
        logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                            format="%(levelname)s %(name)s: %(message)s")
        return int(args.func(args))
    except KeyboardInterrupt as e:
        print("puzzlebench: interrupted; finished results are in the journal", file=sys.stderr)
        return 128 + getattr(e, "signum", signal.SIGINT)
    except BrokenPipeError:  # `puzzlebench list | head`: the reader left, nothing to report
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
