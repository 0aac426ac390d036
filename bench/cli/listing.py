"""`puzzlebench list`: formulations (with their variants), solvers and suites, as text or JSON."""

from __future__ import annotations

import argparse
import json
from typing import Any


def add_commands(subparsers: Any) -> None:
    ls = subparsers.add_parser("list", help="formulations, solvers and suites")
    ls.add_argument("--json", action="store_true")
    ls.add_argument("--suites", action="store_true", help="list the suites")
    ls.set_defaults(func=cmd_list)


def cmd_list(args: argparse.Namespace) -> int:
    from bench.backends import DISTRIBUTION, all_backends, backends_for, source
    from bench.registry import formulations, plugin_of, variant_info
    from bench.suites import load_suites

    backends = all_backends()
    forms: list[dict[str, Any]] = []
    for c in formulations():
        var = variant_info(c)
        plugin = plugin_of(c)
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
            "variants": [{"label": v.label, "exact": v.exact, "lazy": v.lazy,
                          "recommended": v.recommended} for v in var],
            # the distribution of an out-of-tree plugin ("" for a built-in formulation)
            "plugin": (plugin.distribution or plugin.module) if plugin else "",
        })
    solvers: list[dict[str, Any]] = [
        {"name": b.name, "kinds": list(b.kinds), "version": b.version(),
         "available": b.available() is None, "incremental": b.incremental,
         "reason": b.available() or "",
         # what it declares: how it takes a seed, its effort counters, its rank in `check`
         "seed": {"use": b.seeding.use, "how": b.seeding.how},
         "effort": [{"name": c.name, "meaning": c.meaning, "unit": c.unit} for c in b.effort],
         "check_rank": b.check_rank,
         # the distribution of an out-of-tree backend ("" for a built-in)
         "plugin": "" if source(b.name) == DISTRIBUTION else source(b.name)}
        for b in backends
    ]
    suites: dict[str, dict[str, Any]] = {
        n: {"version": s.version, "description": s.description, "instances": s.instances(),
            "formulations": list(s.formulations)}
        for n, s in load_suites().items()}
    if args.json:
        out: dict[str, Any] = {"formulations": forms, "solvers": solvers}
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
    print_table(forms, solvers)
    return 0



def print_table(forms: list[dict[str, Any]], solvers: list[dict[str, Any]]) -> None:
    """`puzzlebench list` as text: formulations with their variants, then solvers."""
    print("Formulations:")
    for f in forms:
        params = "".join(f" [{k}: {', '.join(map(str, v))}]" for k, v in f["parameters"].items())
        source = f" [plugin: {f['plugin']}]" if f.get("plugin") else ""
        print(f"  {f['puzzle']:<11} {f['name']:<13} {f['kind']:<8} {f['description']}{params}"
              f"{source}")
        if not f["available"]:
            print(f"      unavailable: {f['reason']}")
        shown = [v for v in f["variants"] if v.get("recommended", True)]
        for v in shown if len(f["variants"]) > 1 else []:
            print(f"      {v['label']}{_flags(v)}")
        if len(shown) < len(f["variants"]):
            print(f"      ... {len(f['variants']) - len(shown)} more variants, run as "
                  f"{f['name']}[*]")
        if len(f["variants"]) == 1 and _flags(f):
            print(f"      {f['name']}{_flags(f)}")
    print("Solvers:")
    for s in solvers:
        state = "available" if s["available"] else f"unavailable: {s['reason']}"
        incr = ", incremental" if s["incremental"] else ""
        seeded = ", seeded" if s["seed"]["use"] != "none" else ""
        plugin = f" [plugin: {s['plugin']}]" if s["plugin"] else ""
        print(f"  {s['name']:<11} {'/'.join(s['kinds']):<8} {s['version']} "
              f"({state}{incr}{seeded}){plugin}")



def _flags(variant: dict[str, Any]) -> str:
    return ("" if variant["exact"] else " (inexact)") + (" (lazy)" if variant["lazy"] else "")
