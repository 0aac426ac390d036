"""`puzzlebench list`: puzzles, formulations (with their variants), solvers and suites, as text
or JSON."""

from __future__ import annotations

import argparse
import json
from typing import Any

from bench.cli.args import fail


def add_commands(subparsers: Any) -> None:
    ls = subparsers.add_parser("list", help="puzzles, formulations, solvers and suites")
    ls.add_argument("--json", action="store_true")
    ls.add_argument("--suites", action="store_true", help="list the suites")
    ls.set_defaults(func=cmd_list)


def cmd_list(args: argparse.Namespace) -> int:
    suites: dict[str, dict[str, Any]] = {}
    if args.suites:  # only `--suites` needs a project folder (instances/suites.toml)
        try:
            suites = _suites()
        except SuitesError as e:
            return fail(str(e))
    defaults = _solve_defaults()
    forms = _formulation_rows(defaults)
    solvers = _solver_rows(forms)
    puzzles = _puzzle_rows(forms, defaults)
    if args.json:
        out: dict[str, Any] = {"formulations": forms, "solvers": solvers, "puzzles": puzzles}
        if args.suites:
            out["suites"] = suites
        print(json.dumps(out, indent=2))
        return 0
    if args.suites:
        for n, s in suites.items():
            print(f"{n} (v{s['version']}, {len(s['instances'])} instances): {s['description']}")
            if s["formulations"]:
                print(f"    formulations: {', '.join(s['formulations'])}")
        return 0
    print_puzzles(puzzles)
    print_table(forms, solvers)
    return 0


def _puzzle_rows(forms: list[dict[str, Any]],
                 defaults: dict[str, dict[str, tuple[str, str]]]) -> list[dict[str, Any]]:
    """Every registered puzzle as `list --json` reports it (``forms``: its formulations;
    ``defaults``: :func:`_solve_defaults`)."""
    from bench.generate import generator_names
    from bench.puzzles import puzzle_names
    from bench.puzzles.registry import packages

    generators = set(generator_names())
    rows = []
    for name in puzzle_names():
        chosen = defaults.get(name, {})
        rows.append({
            "name": name,
            "package": packages().get(name, ""),
            # the distribution of an out-of-tree plugin ("" for a built-in puzzle)
            "plugin": _puzzle_plugin(name, packages().get(name, "")),
            "formulations": sum(f["puzzle"] == name for f in forms),
            "generator": name in generators,
            # the pairs `solve` uses when no formulation is named ("LABEL / SOLVER"): the
            # declared default pair, or every pair the declared selector "solve_selector"
            # can pick ([] when none is declared or it does not load)
            "solve_default": [f"{label} / {solver}" for label, (solver, _) in chosen.items()],
            "solve_selector": next((sel for _, sel in chosen.values()), ""),
        })
    return rows


def _puzzle_plugin(name: str, package: str) -> str:
    """The plugin a puzzle comes from ("" for a built-in): the distribution that declares its
    entry point, else its package."""
    from bench.entrypoints import entry_points
    from bench.puzzles.registry import ENTRY_POINT_GROUP, PACKAGE

    if package.startswith(PACKAGE + "."):
        return ""
    ep = next((e for e in entry_points(ENTRY_POINT_GROUP)
               if (e.name, e.value) == (name, package)), None)
    return (getattr(getattr(ep, "dist", None), "name", "") or "") or package


def _formulation_rows(defaults: dict[str, dict[str, tuple[str, str]]]) -> list[dict[str, Any]]:
    """Every formulation as `list --json` reports it (``defaults``: :func:`_solve_defaults`)."""
    from bench.backends import backends_for
    from bench.registry import formulations, plugin_of
    from bench.variants import variant_info

    forms: list[dict[str, Any]] = []
    for c in formulations():
        var = variant_info(c)
        plugin = plugin_of(c)
        chosen = defaults.get(c.puzzle, {})
        forms.append({
            "puzzle": c.puzzle,
            "name": c.name,
            "kind": c.kind,
            # the default variant's (the first point of the grid); per variant in "variants"
            "exact": var[0].exact,
            "lazy": var[0].lazy,
            "description": c.description,
            "parameters": c.parameters,
            "solvers": [b.name for b in backends_for(c.kind)
                        if b.available() is None and c.available() is None],
            "available": c.available() is None,
            "reason": c.available() or "",
            # "default": the formulation's default variant (its parameters' first values);
            # "solve_default": the solver `puzzlebench solve` uses it with, if it is the
            # puzzle's declared default pair or a pair its declared selector picks ("" otherwise);
            # "solve_selector": that selector's name ("" for a declared pair)
            "variants": [{"label": v.label, "exact": v.exact, "lazy": v.lazy,
                          "recommended": v.recommended, "default": i == 0,
                          "solve_default": chosen.get(v.label, ("", ""))[0],
                          "solve_selector": chosen.get(v.label, ("", ""))[1]}
                         for i, v in enumerate(var)],
            # the distribution of an out-of-tree plugin ("" for a built-in formulation)
            "plugin": (plugin.distribution or plugin.module) if plugin else "",
        })
    return forms


def _solver_rows(forms: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every solver as `list --json` reports it (``forms``: for the ``external`` solver's
    availability)."""
    from bench.backends import DISTRIBUTION, all_backends, source

    return [
        {"name": b.name, "kinds": list(b.kinds), "version": b.version(),
         "available": _solver_unavailable(b, forms) is None, "incremental": b.incremental,
         "reason": _solver_unavailable(b, forms) or "",
         # what it declares: how it takes a seed, its effort counters, its rank in `check`
         "seed": {"use": b.seeding.use, "how": b.seeding.how},
         "effort": [{"name": c.name, "meaning": c.meaning, "unit": c.unit} for c in b.effort],
         "check_rank": b.check_rank,
         # the distribution of an out-of-tree backend ("" for a built-in)
         "plugin": "" if source(b.name) == DISTRIBUTION else source(b.name)}
        for b in all_backends()
    ]


class SuitesError(Exception):
    """The suites file cannot be read; one line naming it."""


def _suites() -> dict[str, dict[str, Any]]:
    """The project's suites (``instances/suites.toml``) as `list --suites` shows them."""
    from bench.suites import instances_dir, load_suites

    path = instances_dir() / "suites.toml"
    if not path.exists():  # a folder or another non-file there: load_suites names it
        raise SuitesError(f"no suites here: {path} not found (run inside a puzzlebench project "
                          f"folder, or set PUZZLEBENCH_ROOT to one)")
    try:
        loaded = load_suites(path)
        return {n: {"version": s.version, "description": s.description,
                    "instances": s.instances(), "formulations": list(s.formulations)}
                for n, s in loaded.items()}
    except (OSError, KeyError, TypeError, ValueError) as e:  # a suites error names the file
        text = str(e.args[0] if isinstance(e, FileNotFoundError) and e.args else e)
        raise SuitesError(text.splitlines()[0] if text else type(e).__name__) from None


def _solve_defaults() -> dict[str, dict[str, tuple[str, str]]]:
    """Per puzzle, what `solve` uses when no formulation is named: the full label of its
    declared default pair -> (solver, ""), or for a declared selector, the label of every pair
    the selector can pick -> (solver, the selector's name); a puzzle without one, or whose
    default does not load, is left out."""
    from bench.puzzles import get_puzzle, puzzle_names
    from bench.registry import get_formulation
    from bench.select.rules import SELECTORS, is_selector

    out: dict[str, dict[str, tuple[str, str]]] = {}
    for name in puzzle_names():
        try:
            declared = getattr(get_puzzle(name), "default", None)
            if declared is None:
                continue
            if is_selector(declared.formulation):
                rule = SELECTORS[declared.formulation][name]
                pairs = [p.rsplit(" / ", 1) for p in sorted(rule.pairs())]
                out[name] = {get_formulation(name, f).label: (s, declared.formulation)
                             for f, s in pairs}
            else:
                out[name] = {get_formulation(name, declared.formulation).label:
                             (declared.solver, "")}
        except (KeyError, ValueError):
            continue
    return out


def _solver_unavailable(backend: Any, forms: list[dict[str, Any]]) -> str | None:
    """Why a solver cannot run a task here (None: it can): its own reason, or, for a backend
    that is only a door to the formulations' own packages (the ``external`` kind), that no
    formulation of its kinds is available (their reasons)."""
    own = backend.available()
    if own is not None:
        return str(own)
    mine = [f for f in forms if f["kind"] in backend.kinds]
    if backend.kinds == ("external",) and not any(f["available"] for f in mine):
        reasons = sorted({f"{f['reason']}" for f in mine if f["reason"]})
        return "; ".join(reasons) or "no external formulation installed"
    return None


def print_puzzles(puzzles: list[dict[str, Any]]) -> None:
    """The "Puzzles:" section of `puzzlebench list`: one line per puzzle with where it comes
    from, its formulations, whether it has a generator and what `solve` uses by default."""
    wp = max((len(p["name"]) for p in puzzles), default=0)
    where = [f"plugin: {p['plugin']}" if p["plugin"] else "built in" for p in puzzles]
    ww = max(map(len, where), default=0)
    wc = max((len(str(p["formulations"])) for p in puzzles), default=0)
    print("Puzzles:")
    for p, source in zip(puzzles, where, strict=True):
        count = f"{p['formulations']:>{wc}} formulation{'s' if p['formulations'] != 1 else ''}"
        gen = "generator" if p["generator"] else "no generator"
        if p["solve_selector"]:
            n = len(p["solve_default"])
            solve = (f"solve default: selector {p['solve_selector']} "
                     f"({n} pair{'s' if n != 1 else ''}, marked below)")
        elif p["solve_default"]:
            solve = f"solve default: {p['solve_default'][0]}"
        else:
            solve = "no solve default"
        print(f"  {p['name']:<{wp}} {source:<{ww}} {count}, {gen}, {solve}")


def print_table(forms: list[dict[str, Any]], solvers: list[dict[str, Any]]) -> None:
    """`puzzlebench list` as text: formulations with their variants (the default variant and
    the puzzle's `solve` default marked), then solvers; columns as wide as their longest
    entry."""
    wp = max((len(f["puzzle"]) for f in forms), default=0)
    wn = max((len(f["name"]) for f in forms), default=0)
    wk = max((len(f["kind"]) for f in forms), default=0)
    print("Formulations:")
    for f in forms:
        params = "".join(f" [{k}: {', '.join(map(str, v))}]" for k, v in f["parameters"].items())
        source = f" [plugin: {f['plugin']}]" if f.get("plugin") else ""
        print(f"  {f['puzzle']:<{wp}} {f['name']:<{wn}} {f['kind']:<{wk}} {f['description']}"
              f"{params}{source}")
        indent = " " * (4 + wp)
        if not f["available"]:
            print(f"{indent}unavailable: {f['reason']}")
        variants = f["variants"]
        shown = [v for v in variants if v.get("recommended", True) or v.get("solve_default")]
        for v in shown if len(variants) > 1 else []:
            print(f"{indent}{v['label']}{_flags(v)}{_marks(v, many=True)}")
        if len(shown) < len(variants):
            print(f"{indent}... {len(variants) - len(shown)} more variants, run as "
                  f"{f['name']}[*]")
        if len(variants) == 1 and (_flags(f) or _marks(variants[0], many=False)):
            print(f"{indent}{f['name']}{_flags(f)}{_marks(variants[0], many=False)}")
    ws = max((len(s["name"]) for s in solvers), default=0)
    wsk = max((len("/".join(s["kinds"])) for s in solvers), default=0)
    print("Solvers:")
    for s in solvers:
        state = "available" if s["available"] else f"unavailable: {s['reason']}"
        incr = ", incremental" if s["incremental"] else ""
        seeded = ", seeded" if s["seed"]["use"] != "none" else ""
        plugin = f" [plugin: {s['plugin']}]" if s["plugin"] else ""
        print(f"  {s['name']:<{ws}} {'/'.join(s['kinds']):<{wsk}} {s['version']} "
              f"({state}{incr}{seeded}){plugin}")


def _marks(variant: dict[str, Any], many: bool) -> str:
    """`` (default)`` on a formulation's default variant (when it has several) and
    ``(solve default, with SOLVER)`` on the puzzle's declared default pair (``(solve default
    by SELECTOR, with SOLVER)`` on each pair a declared selector picks)."""
    out = " (default)" if many and variant.get("default") else ""
    if variant.get("solve_default"):
        by = f" by {variant['solve_selector']}" if variant.get("solve_selector") else ""
        out += f" (solve default{by}, with {variant['solve_default']})"
    return out


def _flags(variant: dict[str, Any]) -> str:
    return ("" if variant["exact"] else " (inexact)") + (" (lazy)" if variant["lazy"] else "")
