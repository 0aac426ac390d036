"""`puzzlebench compare`: two runs side by side, per pair and instance."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def cmd_compare(args: argparse.Namespace) -> int:
    from bench.report import ReportError
    from bench.report.compare import compare_markdown

    try:
        text = compare_markdown(args.run_a, args.run_b)
    except ReportError as e:
        print(f"puzzlebench: {e}", file=sys.stderr)
        return 2
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    print(text)
    return 0
