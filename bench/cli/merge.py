"""`puzzlebench merge RUN... --out DIR`: several run folders combined into one, with provenance
(bench/run/merge.py)."""

from __future__ import annotations

import argparse

from bench.cli.args import fail


def add_commands(sub: argparse._SubParsersAction) -> None:
    mp = sub.add_parser("merge", help="combine run folders (several machines or people, Dask "
                        "runs included) into one, each result keeping its origin run and "
                        "machine; results of one identity from different runs are kept as "
                        "further samples")
    mp.add_argument("runs", nargs="+", metavar="RUN")
    mp.add_argument("--out", metavar="DIR", required=True)
    mp.set_defaults(func=cmd_merge)


def cmd_merge(args: argparse.Namespace) -> int:
    from bench.run.merge import MergeError, merge_runs

    try:
        m = merge_runs(args.runs, args.out)
    except MergeError as e:
        return fail(str(e))
    except OSError as e:
        return fail(f"cannot write {args.out}: {e.strerror or e}")
    where = ", ".join(f"{n} from {run}" for run, n in m.runs.most_common())
    print(f"{m.results} results in {m.table} ({where})"
          + (f"; {m.duplicates} met twice (the same sample in two inputs) written once"
             if m.duplicates else ""))
    return 0
