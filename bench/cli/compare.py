"""`puzzlebench compare`: two runs side by side (bench/report/compare.py): per pair and tier
a tested change (changed, equivalent or inconclusive), and a diff by task key."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from bench.cli.args import fail, path_arg


def add_commands(subparsers: Any) -> None:
    cp = subparsers.add_parser("compare", help="two runs side by side: per pair and tier "
                               "whether it changed (a family-wise permutation test over the "
                               "instances both ran), which identity parts differ and which "
                               "tasks changed status or time beyond the noise")
    cp.add_argument("run_a", metavar="RUN_A", type=path_arg("run folder"))
    cp.add_argument("run_b", metavar="RUN_B", type=path_arg("run folder"))
    cp.add_argument("--out", metavar="FILE", type=path_arg("file"),
                    help="also write the Markdown to FILE")
    cp.add_argument("--all", action="store_true",
                    help="list every task that changed (default: the first 50)")
    cp.add_argument("--csv", metavar="FILE", type=path_arg("file"),
                    help="also write every paired task (changed or not) to FILE as CSV")
    cp.set_defaults(func=cmd_compare)


def cmd_compare(args: argparse.Namespace) -> int:
    from bench.report import ReportError
    from bench.report.compare import compare_markdown

    if args.out and args.csv and Path(args.out).resolve() == Path(args.csv).resolve():
        return fail(f"--out and --csv name one file ({args.out}): the Markdown would replace "
                    "the CSV")
    if problem := next(filter(None, map(_run_file, (args.out, args.csv))), ""):
        return fail(problem)
    try:
        text = compare_markdown(args.run_a, args.run_b, limit=None if args.all else 50,
                                csv=args.csv)
        if args.out:
            Path(args.out).write_text(text, encoding="utf-8")
    except ReportError as e:
        return fail(str(e))
    except OSError as e:
        return fail(f"cannot write {e.filename}: {e.strerror or e}")
    print(text)
    return 0


def _run_file(path: str | None) -> str:
    """Why writing ``path`` would destroy a run's data ("" when it would not): it is one of a
    run folder's own files (journal, results table, environment record, run id)."""
    from bench.run.storage import ENVIRONMENT, JOURNAL, RUN_ID, TABLE, is_run_folder

    p = Path(path or "").resolve()  # a link to a run's file is that file
    if path and p.name in (JOURNAL, TABLE, ENVIRONMENT, RUN_ID) and is_run_folder(p.parent):
        return (f"{path}: the {p.name} of the run folder {p.parent}; writing the comparison "
                "there would destroy its results (name another file)")
    return ""
