"""``puzzlebench check NAME``: the conformance checks of a formulation (:mod:`bench.check`),
one line per check, exit 0 only when every check passes."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from bench.cli.args import fail, positive_float

if TYPE_CHECKING:
    from bench.check import Check


def add_commands(sub: argparse._SubParsersAction) -> None:
    ch = sub.add_parser("check", help="conformance checks of a formulation: its instances "
                        "solved, the unsatisfiable set, exactness and counting against brute "
                        "force, lazy termination")
    ch.add_argument("name", metavar="NAME",
                    help="formulation name (its recommended variants), NAME[*] (every "
                    "variant) or a variant label NAME[key=value]; PUZZLE:NAME when several "
                    "puzzles have it")
    ch.add_argument("--puzzle", help="only this puzzle's formulation of that name")
    ch.add_argument("--solver", help="the solver to check on (default: the first available of "
                    "the formulation's kind)")
    ch.add_argument("--time-limit", type=positive_float, default=20.0, metavar="SECONDS",
                    help="per solve (default 20)")
    ch.set_defaults(func=cmd_check)


def cmd_check(args: argparse.Namespace) -> int:
    from bench.check import Check, check_variant, solver_for
    from bench.puzzles import puzzle_names
    from bench.registry import close_matches as close
    from bench.registry import formulations, parse_label, skip_reason
    from bench.run.pool import split_puzzle

    puzzle, label = split_puzzle(args.name.strip())
    puzzle = puzzle or args.puzzle or ""
    try:
        name, params = parse_label(label)
    except ValueError as e:
        return fail(str(e))
    if puzzle and puzzle not in (known_puzzles := puzzle_names()):
        return fail(f"no puzzle {puzzle!r}{close(puzzle, known_puzzles)} "
                    f"(known: {', '.join(known_puzzles)})")
    classes = [c for c in formulations(puzzle or None) if name == c.name or name in c.aliases]
    if not classes:
        if why := skip_reason(puzzle or None, name):
            return fail(why)
        known = {c.name for c in formulations(puzzle or None)}
        where = f" for {puzzle}" if puzzle else ""
        return fail(f"no formulation {name!r}{where}{close(name, known)} "
                     "(see `puzzlebench list`)")
    try:
        forms = [(cls, form) for cls in classes for form in _forms(cls, name, label, params)]
    except (KeyError, ValueError) as e:
        return fail(str(e.args[0] if e.args else e))
    lines: list[Check] = []
    for cls, form in forms:
        try:
            backend = solver_for(form, args.solver)
        except KeyError as e:
            return fail(str(e.args[0] if e.args else e))
        if args.solver and backend is not None and form.kind not in backend.kinds:
            # the options conflict, the formulation is not at fault: no check, no FAIL line
            return fail(f"--solver {backend.name} does not take {form.kind} models "
                        f"({cls.puzzle}/{form.label} is a {form.kind} formulation)")
        if backend is None or backend.available() is not None or (
                form.kind not in backend.kinds):
            why = (f"solver {backend.name} does not take {form.kind} models"
                   if backend and form.kind not in backend.kinds else
                   f"no available {form.kind} solver")
            lines.append(_said(Check("solver", f"{cls.puzzle}/{form.label}", "fail", why)))
            continue
        if unavailable := cls.available():
            lines.append(_said(Check("setup", f"{cls.puzzle}/{form.label}", "fail",
                                     unavailable)))
            continue
        lines += [_said(check) for check in check_variant(form, backend, args.time_limit)]
    failed = sum(c.status == "fail" for c in lines)
    passed = sum(c.status == "pass" for c in lines)
    print(f"{passed} passed, {failed} failed, {len(lines) - passed - failed} not applicable")
    return 1 if failed else 0



def _forms(cls: Any, name: str, label: str, params: dict[str, Any]) -> list[Any]:
    """The variants of formulation class ``cls`` that ``NAME[...]`` (``label``) selects: every
    one (``NAME[*]``), the one labelled, or the recommended ones."""
    from bench.registry import EVERY, get_formulation
    from bench.variants import recommended, variants

    if params == {EVERY: EVERY}:
        return list(variants(cls))
    if params or name != cls.name:
        return [get_formulation(cls.puzzle, label)]
    return list(recommended(cls))


def _said(check: Check) -> Check:
    """Print the check's line (as it finishes) and return it."""
    print(check.line(), flush=True)
    return check
