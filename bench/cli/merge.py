"""`puzzlebench merge RUN... --out DIR`: several run folders combined into one, with provenance
(bench/run/merge.py)."""

from __future__ import annotations

import argparse
import sys

from bench.cli.args import fail, path_arg


def add_commands(sub: argparse._SubParsersAction) -> None:
    mp = sub.add_parser("merge", help="combine run folders (several machines or people, Dask "
                        "runs included) into one, each result keeping its origin run and "
                        "machine; results of one identity from different runs are kept as "
                        "further samples")
    mp.add_argument("runs", nargs="+", metavar="RUN", type=path_arg("run folder"))
    mp.add_argument("--out", metavar="DIR", required=True, type=path_arg("folder"))
    mp.add_argument("--prefer", metavar="INPUT", type=path_arg("run folder"),
                    help="of a sample two inputs hold with different measurements (one copy "
                    "is damaged or forged; refused otherwise), keep INPUT's copy")
    mp.set_defaults(func=cmd_merge)


def cmd_merge(args: argparse.Namespace) -> int:
    from bench.run.merge import MergeError, merge_runs

    try:
        m = merge_runs(args.runs, args.out, prefer=args.prefer)
    except MergeError as e:
        return fail(str(e))
    except OSError as e:
        return fail(f"cannot write {e.filename or args.out}: {e.strerror or e}")
    for path, n in m.skipped.items():
        print(f"puzzlebench: {path}: {n} unreadable line(s) skipped", file=sys.stderr)
    for path, known in m.stopped.items():  # a report of the merged folder says it too
        print(f"puzzlebench: {path}: its latest run stopped before its end: {known}",
              file=sys.stderr)
    where = ", ".join(f"{n} from {run}" for run, n in m.runs.most_common())
    print(f"{m.results} results in {m.table} ({where})"
          + (f"; {m.duplicates} met twice (a sample in two or more inputs) written once"
             if m.duplicates else "")
          + (f"; {m.superseded} not-run result(s) dropped (their task was measured in another "
             "input, or recorded not run twice)" if m.superseded else ""))
    if m.differs:
        print("the inputs differ in " + "; ".join(
            f"{part} ({_few(pairs)})" for part, pairs in m.differs.items())
            + ": each result keeps its own identity columns; their times are not one "
            "condition's (`puzzlebench compare` and the report tell them apart)")
    return 0


def _few(names: list[str], n: int = 3) -> str:
    """The first ``n`` names and how many more."""
    return ", ".join(names[:n]) + (f" and {len(names) - n} more" if len(names) > n else "")
