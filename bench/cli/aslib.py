"""`puzzlebench aslib`: a run folder's performance matrix as ASlib scenarios, one per puzzle
and tier (:mod:`bench.report.aslib`)."""

from __future__ import annotations

import argparse
from typing import Any

from bench.cli.args import fail, path_arg


def add_commands(subparsers: Any) -> None:
    sp = subparsers.add_parser("aslib", help="export a run's results as ASlib scenarios "
                               "(algorithm_runs.arff, feature_values.arff, description.txt)")
    sp.add_argument("results", metavar="RESULTS_DIR", type=path_arg("run folder"),
                    help="a run folder")
    sp.add_argument("--out", metavar="DIR", required=True, type=path_arg("folder"),
                    help="the folder to write one scenario folder per puzzle and tier into")
    sp.set_defaults(func=cmd_aslib)


def cmd_aslib(args: argparse.Namespace) -> int:
    from bench.report.aslib import export
    from bench.report.data import ReportError

    try:
        written = export(args.results, args.out)
    except ReportError as e:
        return fail(f"{e}; no scenario written")
    except OSError as e:
        return fail(f"{args.out}: {e.strerror or e}; export incomplete")
    if not written:
        return fail(f"{args.results}: no task results to export")
    for s in written:
        print(f"{s.folder}: {s.instances} instances, {s.algorithms} algorithms, "
              f"{s.runs} runs")
    return 0
