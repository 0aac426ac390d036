"""The `puzzlebench` command: the parser and :func:`main`; each command is a module beside this
one (list: :mod:`bench.cli.listing`, solve, run, report, compare, import/export:
:mod:`bench.cli.convert`, generate)."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import logging
import os
import signal
import sys
from typing import TYPE_CHECKING, Any, NoReturn

if TYPE_CHECKING:
    from bench.run.interrupt import Stop

DESCRIPTION = ("Benchmark solver formulations of grid puzzles: list, solve, run, report, "
               "compare, merge, import, export, generate, check, new-formulation, new-puzzle, "
               "aslib.")


#: each command's module (beside this one), in the order `puzzlebench --help` lists them
COMMANDS = {"list": "listing", "solve": "solve", "run": "run", "report": "report",
            "compare": "compare", "merge": "merge", "import": "convert",
            "export": "convert", "generate": "generate", "check": "check",
            "new-formulation": "scaffold", "new-puzzle": "scaffold", "aslib": "aslib"}


#: the commands that SIGTERM, SIGHUP and SIGQUIT stop cleanly like a Ctrl-C
#: (:data:`bench.run.interrupt.STOPS`; their work is in child processes or in Python);
#: elsewhere these keep their default, ending the process at once, even inside a solver
#: library's call, where Python would run no handler until the call returns, until a
#: command takes them itself (``solve`` does once its command runs: its task is a child)
TERM_STOPS = ("run", "report")


def _command_word(argv: list[str] | None) -> str:
    """The command the arguments name (their first word that is no option), "" for none."""
    return next((a for a in argv or () if not a.startswith("-")), "")


class Parser(argparse.ArgumentParser):
    """An argument parser that takes no abbreviated option (``--sui`` for ``--suite``): an
    option is then the same word to a wrapper that reads the command line (``nox -s bench``)
    as to the command, and a later option sharing a prefix changes no earlier command line."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)


def parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The command line: each command module adds its own subcommand(s), every one a
    :class:`Parser`. Given the arguments and their command is known, only that command's module
    is imported (a command starts without importing the others'); else every command is
    added."""
    p = Parser(prog="puzzlebench", description=DESCRIPTION)
    p.add_argument("-v", "--verbose", action="store_true", help="log progress details")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)
    word = _command_word(argv)
    modules = dict.fromkeys(COMMANDS.values())
    if word in COMMANDS:
        modules = {COMMANDS[word]: None}
    for name in modules:
        importlib.import_module(f"bench.cli.{name}").add_commands(sub)
    return p


def _interrupted(signum: int) -> int:
    """The one line of a command stopped by a signal; its exit code. (A run says where its
    finished results are kept itself; a merge writes nothing until it has finished.)"""
    print("puzzlebench: interrupted", file=sys.stderr)
    return 128 + signum


def end_process(code: int) -> NoReturn:
    """End the process as an orderly exit does (the ``atexit`` handlers, logging's flush among
    them, then the standard streams flushed) but without the interpreter's teardown of every
    module and object, which after a solve (a solver library loaded) costs more than a small
    solve. For commands that leave no thread or child behind (``end_now`` in their defaults)."""
    import atexit

    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a reader gone: nothing more to tell it
            stream.flush()
    os._exit(code)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; its exit code. Ctrl-C at any point from here on (the commands'
    imports included) ends with one line and 130, never a traceback, and so do SIGTERM,
    SIGHUP and SIGQUIT (128 + the signal's number) for the commands of :data:`TERM_STOPS`:
    one handler holds from here to the end (:func:`bench.run.interrupt.stop_on_signals`; a
    command's own is this one). A signal whose exception Python dropped (raised inside a
    callback, such as an import lock's, which Python reports as "Exception ignored") is kept
    in the handler's record, silently (:func:`bench.run.interrupt.unraised_kept`): ``run``
    then starts no session, and any command that goes on ends with the signal's code."""
    from bench.run.interrupt import STOPS, stop_on_signals, unraised_kept

    program = argv is None  # the process's own command line: its end is this process's
    word = _command_word(sys.argv[1:] if argv is None else argv)
    signums = STOPS if word in TERM_STOPS else (signal.SIGINT,)
    with stop_on_signals(signums, deaf=True) as stop, unraised_kept(stop):
        return _command(argv, program, stop)


def _command(argv: list[str] | None, program: bool, stop: Stop) -> int:
    """:func:`main` inside its signal handler ``stop``."""
    try:
        if argv is None:
            argv = sys.argv[1:]
        args = parser(argv).parse_args(argv)
        logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                            format="%(levelname)s %(name)s: %(message)s")
        code = int(args.func(args))
        if stop.fired and code < 128:  # its exception dropped: the command went on
            return _interrupted(stop.fired)
        if program and getattr(args, "end_now", False):
            end_process(code)
        return code
    except KeyboardInterrupt as e:
        return _interrupted(getattr(e, "signum", 0) or stop.fired or signal.SIGINT)
    except BrokenPipeError:  # `puzzlebench list | head`: the reader left, nothing to report
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Exception as e:
        from bench.registry import PluginError  # imported by whatever raised it
        from bench.run.interrupt import wrapped_interrupt  # imported by main already

        if isinstance(e, PluginError):  # a formulation module in the wrong place: one line
            print(f"puzzlebench: {e}", file=sys.stderr)
            return 2
        wrapped = wrapped_interrupt(e)
        if wrapped is None:
            raise
        return _interrupted(wrapped.signum)
