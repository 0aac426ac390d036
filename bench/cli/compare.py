"""`puzzlebench compare`: a diff of two runs by task key (bench/report/compare.py)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from bench.cli.args import fail


def add_commands(subparsers: Any) -> None:
    cp = subparsers.add_parser("compare", help="a diff of two runs by task key: which identity "
                               "parts differ and which tasks changed status or time beyond "
                               "the noise")
    cp.add_argument("run_a", metavar="RUN_A")
    cp.add_argument("run_b", metavar="RUN_B")
    cp.add_argument("--out", metavar="FILE", help="also write the Markdown to FILE")
    cp.set_defaults(func=cmd_compare)


def cmd_compare(args: argparse.Namespace) -> int:
    from bench.report import ReportError
    from bench.report.compare import compare_markdown

    try:
        text = compare_markdown(args.run_a, args.run_b)
    except ReportError as e:
        return fail(str(e))
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    print(text)
    return 0
