"""`puzzlebench report`: a run folder's report (index.html and summary.md)."""

from __future__ import annotations

import argparse
import sys


def cmd_report(args: argparse.Namespace) -> int:
    from bench.report import ReportError, write_report

    try:
        out = write_report(args.results, args.out, args.instance, args.scatter)
    except ReportError as e:
        print(f"puzzlebench: {e}; no report written", file=sys.stderr)
        return 2
    print(f"report written to {out / 'index.html'} and {out / 'summary.md'}")
    return 0
