"""`puzzlebench report`: a run folder's report (index.html and summary.md)."""

from __future__ import annotations

import argparse
import signal
import sys
from typing import Any

from bench.cli.args import fail, path_arg


def add_commands(subparsers: Any) -> None:
    rp = subparsers.add_parser("report", help="write reports/<run>/index.html and summary.md")
    rp.add_argument("results", metavar="RESULTS_DIR", type=path_arg("run folder"))
    rp.add_argument("--out", metavar="REPORT_DIR", type=path_arg("folder"),
                    help="the report folder (default reports/<run>); never a run folder")
    rp.add_argument("--instance", action="append", metavar="PATTERN",
                    help="add a per-instance table for instance names matching PATTERN")
    rp.add_argument("--scatter", action="append", metavar="PAIR",
                    help="twice: the two 'formulation / solver' pairs of the scatter plot "
                    "(default: the two best)")
    rp.set_defaults(func=cmd_report)


def cmd_report(args: argparse.Namespace) -> int:
    """Write the report; a report folder or file that cannot be written, or an ``--out`` that
    is a run folder (:func:`bench.report.run_folder_in_the_way`), is one line (exit 2); on
    Ctrl-C (or SIGTERM) say what is so: the run folder is as it was (a report only reads it)
    and the report folder may be incomplete."""
    from bench.report import ReportError, write_report

    try:
        out = write_report(args.results, args.out, args.instance, args.scatter)
    except ReportError as e:
        return fail(f"{e}; no report written")
    except OSError as e:  # a file of the report that cannot be written (a folder in its way)
        where = e.filename or args.out or "the report folder"
        return fail(f"cannot write {where}: {e.strerror or e}; the report is incomplete")
    except KeyboardInterrupt as e:
        where = args.out or "the report folder"
        print(f"puzzlebench: report interrupted; {where} may hold an incomplete report (run "
              f"`puzzlebench report` again); the run folder {args.results} is unchanged",
              file=sys.stderr)
        return 128 + getattr(e, "signum", signal.SIGINT)
    print(f"report written to {out / 'index.html'} and {out / 'summary.md'}")
    return 0
